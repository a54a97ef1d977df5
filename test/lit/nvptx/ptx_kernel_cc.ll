; An NVPTX kernel recognised by its calling convention alone (ptx_kernel,
; no !nvvm.annotations). Functions with the default convention are not
; kernels.
; RUN: %gmem-analyze %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%gmem_plugin -passes=gmem-print -disable-output %s | FileCheck %s

; CHECK:      kernel scale_cc  [nvptx]
; CHECK-NEXT:   symbol: scale_cc
; CHECK-NEXT:   class:  conditional -- reads 'x' and writes 'y': idempotent when they do not overlap at a launch
; CHECK-NEXT:   #0 n : i32
; CHECK-NEXT:   #1 x : ptr  R
; CHECK-NEXT:       read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
; CHECK-NEXT:   #2 y : ptr  W
; CHECK-NEXT:       write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
; CHECK-EMPTY:
; CHECK-NOT:  kernel

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @scale_cc(i32 %n, ptr %x, ptr %y) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit

body:
  %idx = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %idx
  %v = load float, ptr %px, align 4
  %m = fmul float %v, 2.0
  %py = getelementptr inbounds float, ptr %y, i64 %idx
  store float %m, ptr %py, align 4
  br label %exit

exit:
  ret void
}

define void @not_a_kernel(ptr %p) {
  store i32 0, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
