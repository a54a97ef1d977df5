; An NVPTX kernel recognised through !nvvm.annotations ("kernel", 1) with
; the default calling convention, as older front ends emit it. An
; annotation with value 0, or another key, does not make a kernel.
; RUN: %gmem-analyze %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%gmem_plugin -passes=gmem-print -disable-output %s | FileCheck %s

; CHECK:      kernel copy_annot  [nvptx]
; CHECK-NEXT:   symbol: copy_annot
; CHECK-NEXT:   class:  conditional -- reads 'x' and writes 'y': idempotent when they do not overlap at a launch
; CHECK-NEXT:   when x == y (called in place): proven as one buffer, idempotent if nothing else overlaps
; CHECK-NEXT:   #0 x : ptr  R
; CHECK-NEXT:       read:  [0, 8*min(blockDim.x - 1, 63) + 8)
; CHECK-NEXT:   #1 y : ptr  W
; CHECK-NEXT:       write: [0, 8*min(blockDim.x - 1, 63) + 8)
; CHECK-EMPTY:
; CHECK-NOT:  kernel

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; if (threadIdx.x < 64) y[threadIdx.x] = x[threadIdx.x]   (doubles)
define void @copy_annot(ptr %x, ptr %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp ult i32 %tid, 64
  br i1 %in, label %body, label %exit

body:
  %idx = zext i32 %tid to i64
  %px = getelementptr inbounds double, ptr %x, i64 %idx
  %v = load double, ptr %px, align 8
  %py = getelementptr inbounds double, ptr %y, i64 %idx
  store double %v, ptr %py, align 8
  br label %exit

exit:
  ret void
}

define void @annotated_zero(ptr %p) {
  store i32 0, ptr %p
  ret void
}

define void @other_key(ptr %p) {
  store i32 0, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @copy_annot, !"kernel", i32 1}
!1 = !{ptr @annotated_zero, !"kernel", i32 0}
!2 = !{ptr @other_key, !"maxntidx", i32 1}
