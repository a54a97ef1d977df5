// Out-of-place: reads a and b, writes c. Conditional: idempotent exactly
// when c does not overlap a or b at a launch (the runtime decides).
__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
