; A noinline device function called from a kernel: the analysis inlines it
; on its own copy of the module, so the kernel's arguments get the callee's
; accesses (y[i] += x[i], through the call -> non-idempotent in y). The
; input module is not changed: the opt plugin path reports the same.
; RUN: %gmem-analyze %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%gmem_plugin -passes=gmem-print -disable-output %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%gmem_plugin -passes=gmem-print -S %s | FileCheck %s --check-prefix=IR

; CHECK:      kernel axpy_call  [nvptx]
; CHECK-NEXT:   symbol: axpy_call
; CHECK-NEXT:   class:  non-idempotent -- 'y' is read and written at the same offset (read-modify-write)
; CHECK-NEXT:   #0 n : i32
; CHECK-NEXT:   #1 x : ptr  R
; CHECK-NEXT:       read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
; CHECK-NEXT:   #2 y : ptr  RW
; CHECK-NEXT:       read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
; CHECK-NEXT:       write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
; CHECK-NOT:  kernel

; IR: call void @add_elem(ptr %x, ptr %y, i32 %i)

target triple = "nvptx64-nvidia-cuda"

define internal void @add_elem(ptr %src, ptr %dst, i32 %k) noinline {
  %ke = sext i32 %k to i64
  %ps = getelementptr inbounds float, ptr %src, i64 %ke
  %s = load float, ptr %ps, align 4
  %pd = getelementptr inbounds float, ptr %dst, i64 %ke
  %d = load float, ptr %pd, align 4
  %r = fadd float %s, %d
  store float %r, ptr %pd, align 4
  ret void
}

define ptx_kernel void @axpy_call(i32 %n, ptr %x, ptr %y) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit

body:
  call void @add_elem(ptr %x, ptr %y, i32 %i)
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
