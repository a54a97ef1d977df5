// Red-black successive over-relaxation for the 2D Poisson equation: the red
// half-sweep updates points with (i+j) even in place, reading black neighbours
// and the point itself.

// GMEM-EXPECT: sor_red non-idempotent
// GMEM-RUN: sor_red grid=32,64 block=16,8 args=buf:f32:262144:rand buf:f32:262144:rand i32:512 f32:1.5 f32:0.0001
__global__ void sor_red(float *u, const float *f, int n, float omega, float h2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (i < n - 1 && j < n - 1 && ((i + j) & 1) == 0) {
    int idx = i * n + j;
    float gs = 0.25f * (u[idx - n] + u[idx + n] + u[idx - 1] + u[idx + 1] - h2 * f[idx]);
    u[idx] = (1.0f - omega) * u[idx] + omega * gs;
  }
}
