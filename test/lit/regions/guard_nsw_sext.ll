; `int i = blockIdx.x * blockDim.x + threadIdx.x` written with nsw flags
; (as a front end may for signed int arithmetic): SCEV distributes the sign
; extension over the sum, sext(b*d + t) -> sext(b*d) + sext(t), so the 64-bit
; offset no longer contains the 32-bit value that `i < n` speaks of. The
; analysis matches the guard through the distributed extension and still
; bounds the region by n.
; RUN: %gmem-analyze %s | FileCheck %s

; CHECK:      kernel scale_nsw  [nvptx]
; CHECK:      #1 x : ptr  R
; CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
; CHECK-NEXT: #2 y : ptr  W
; CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @scale_nsw(i32 %n, ptr %x, ptr %y) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul nsw i32 %bid, %bdim
  %i = add nsw i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit

body:
  %idx = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %idx
  %v = load float, ptr %px, align 4
  %py = getelementptr inbounds float, ptr %y, i64 %idx
  store float %v, ptr %py, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
