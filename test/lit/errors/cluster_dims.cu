// clang 19 drops CUDA's __cluster_dims__ with a warning; the kernel it
// built would run without its thread-block cluster. gmem-analyze refuses
// the file with one clear line and exit status 1.
// RUN: not %gmem-analyze %s 2>&1 | FileCheck %s
// CHECK: gmem-analyze: error: {{.*}}cluster_dims.cu: __cluster_dims__ is ignored by clang 19, so the kernel would run without its thread-block cluster; build this file with nvcc, or drop the attribute and launch with a cluster dimension (cudaLaunchKernelEx, cudaLaunchAttributeClusterDimension)
// CHECK-NOT: {{.}}
__global__ void __cluster_dims__(2, 1, 1) pair_rank(unsigned *out) {
  out[blockIdx.x] = __nvvm_read_ptx_sreg_cluster_ctarank();
}
