// One phase of odd-even transposition sort: compare-exchange of pairs
// (2t + phase%2, 2t + phase%2 + 1), in place.

// GMEM-EXPECT: odd_even_step non-idempotent
// GMEM-RUN: odd_even_step grid=196 block=256 args=buf:i32:100000:rand i32:100000 i32:0
// GMEM-RUN: odd_even_step grid=196 block=256 args=buf:i32:100000:rand i32:100000 i32:1
__global__ void odd_even_step(int *a, int n, int phase) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + (phase & 1);
  if (i + 1 < n) {
    int x = a[i];
    int y = a[i + 1];
    if (x > y) {
      a[i] = y;
      a[i + 1] = x;
    }
  }
}
