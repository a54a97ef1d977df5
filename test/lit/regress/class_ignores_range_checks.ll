; REGRESSION (fixed): the static class "idempotent" ignores the range checks that
; the disjointness proof relies on.
;
;   __global__ void wrap8(int n, float *a) {
;     int i = threadIdx.x;
;     if (i < n) a[(unsigned char)(i + n)] = a[i];
;   }
;
; The prover reads zext(trunc(i + n)) as i + n (valid only while
; i + n <= 255, which it records as a check on the parameter) and concludes
; that reads [0, n) and writes [n, 2n) never meet: class "idempotent",
; "reads and writes proven disjoint". The check is honoured by instance mode
; but not by the class: with n = 200 and 256 threads, thread 100 writes
; a[(100 + 200) & 255] = a[44], which thread 44 reads, so that launch is
; not idempotent (instance mode correctly says "no", see
; instance/range_check_fallback.test). KernelDescriptor.h defines
; Idempotent as "no launch reads a location it also writes", so the class
; must not be "idempotent" here (conditional, unknown or non-idempotent are
; all sound).
; RUN: %gmem-analyze %s | FileCheck %s

; CHECK:     kernel wrap8
; CHECK-NOT: class:  idempotent
; CHECK:     class:  {{(conditional|unknown|non-idempotent)}}

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @wrap8(i32 %n, ptr %a) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp slt i32 %t, %n
  br i1 %in, label %body, label %exit

body:
  %add = add nuw nsw i32 %t, %n
  %w = and i32 %add, 255
  %we = zext nneg i32 %w to i64
  %pw = getelementptr inbounds float, ptr %a, i64 %we
  %te = zext nneg i32 %t to i64
  %pr = getelementptr inbounds float, ptr %a, i64 %te
  %v = load float, ptr %pr, align 4
  store float %v, ptr %pw, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
