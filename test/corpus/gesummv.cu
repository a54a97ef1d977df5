// PolyBench/GPU GESUMMV: y = alpha*A*x + beta*B*x, with tmp and y expected
// to be zeroed by the host and accumulated in place by the kernel.

// GMEM-EXPECT: gesummv non-idempotent
// GMEM-RUN: gesummv grid=4 block=256 args=i32:1000 f32:1.5 f32:1.2 buf:f32:1000000:rand buf:f32:1000000:rand buf:f32:1000:rand buf:f32:1000:zero buf:f32:1000:zero
__global__ void gesummv(int n, float alpha, float beta, const float *a, const float *b,
                        const float *x, float *y, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) {
      tmp[i] += a[i * n + j] * x[j];
      y[i] += b[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}
