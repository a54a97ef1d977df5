// A kernel with CUDA's __cluster_dims__, which clang 19 drops with a
// warning: gmem-clang++ refuses to build it (test/driver/run_tests.sh).
__global__ void __cluster_dims__(2, 1, 1) pair_rank(unsigned *out) {
  out[blockIdx.x] = __nvvm_read_ptx_sreg_cluster_ctarank();
}
int main() { return 0; }
