; wrap8(n, a): if (i < n) a[(unsigned char)(i + n)] = a[i], i = threadIdx.x
; (see bugs/class_ignores_range_checks.ll).

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
