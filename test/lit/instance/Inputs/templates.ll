; Two instantiations of template <class T> __global__ void ns::fill(T *p, int n)
; { if (threadIdx.x < n) p[threadIdx.x] = 0; } and one plain kernel.
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_ZN2ns4fillIfEEvPT_i(ptr %p, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp slt i32 %t, %n
  br i1 %in, label %body, label %exit
body:
  %te = zext nneg i32 %t to i64
  %q = getelementptr inbounds float, ptr %p, i64 %te
  store float 0.0, ptr %q, align 4
  br label %exit
exit:
  ret void
}

define ptx_kernel void @_ZN2ns4fillIiEEvPT_i(ptr %p, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp slt i32 %t, %n
  br i1 %in, label %body, label %exit
body:
  %te = zext nneg i32 %t to i64
  %q = getelementptr inbounds i32, ptr %p, i64 %te
  store i32 0, ptr %q, align 4
  br label %exit
exit:
  ret void
}

define ptx_kernel void @_Z5touchPd(ptr %p) {
  store double 1.0, ptr %p, align 8
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
