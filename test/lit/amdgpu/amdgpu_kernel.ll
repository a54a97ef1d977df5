; Hand-written AMDGPU IR: an amdgpu_kernel with ptr addrspace(1) arguments,
; thread/block ids from llvm.amdgcn.workitem.id.x / workgroup.id.x and the
; workgroup size loaded from the implicit kernel arguments (code object v5,
; i16 at offset 12). The size load is launch geometry, not user memory.
; RUN: %gmem-analyze %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%gmem_plugin -passes=gmem-print -disable-output %s | FileCheck %s

; CHECK:      kernel scale  [amdgpu]
; CHECK-NEXT:   symbol: scale
; CHECK-NEXT:   class:  conditional -- reads 'x' and writes 'y': idempotent when they do not overlap at a launch
; CHECK-NEXT:   #0 n : i32
; CHECK-NEXT:   #1 x : ptr  R
; CHECK-NEXT:       read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
; CHECK-NEXT:   #2 y : ptr  W
; CHECK-NEXT:       write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
; CHECK-EMPTY:
; CHECK-NOT:  kernel

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @scale(i32 %n, ptr addrspace(1) %x, ptr addrspace(1) %y) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %bid = call i32 @llvm.amdgcn.workgroup.id.x()
  %ia = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %pbd = getelementptr inbounds i8, ptr addrspace(4) %ia, i64 12
  %bd16 = load i16, ptr addrspace(4) %pbd, align 4
  %bd = zext i16 %bd16 to i32
  %base = mul i32 %bid, %bd
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit

body:
  %idx = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %idx
  %v = load float, ptr addrspace(1) %px, align 4
  %m = fmul float %v, 2.0
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %idx
  store float %m, ptr addrspace(1) %py, align 4
  br label %exit

exit:
  ret void
}

; Not a kernel (default calling convention): not reported.
define void @helper(ptr addrspace(1) %p) {
  store i32 0, ptr addrspace(1) %p
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()

!llvm.module.flags = !{!900}
!900 = !{i32 1, !"amdhsa_code_object_version", i32 500}
