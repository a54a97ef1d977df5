; out[t] = table[t] with a __device__ array `table` (global memory).
target triple = "nvptx64-nvidia-cuda"
@table = addrspace(1) global [32 x float] zeroinitializer, align 4

define ptx_kernel void @bump(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext nneg i32 %t to i64
  %src = getelementptr inbounds [32 x float], ptr addrspace(1) @table, i64 0, i64 %ti
  %v = load float, ptr addrspace(1) %src, align 4
  %dst = getelementptr inbounds float, ptr %out, i64 %ti
  store float %v, ptr %dst, align 4
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
