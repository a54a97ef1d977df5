// Bitwise index operations SCEV leaves opaque, for
// bitwise_exhaustive.test (models: bitwise_models.py): butterfly partners
// i ^ j with and without guards (bitonic sort's step), masks and ors with
// a parameter, and the Walsh transform's split of a position into a block
// and an offset. Scalars first, then the pointers.
#define GID (blockIdx.x * blockDim.x + threadIdx.x)

__global__ void xor_read(int n, unsigned j, const float *v, float *o) {
  unsigned i = GID;
  if (i < (unsigned)n)
    o[i] = v[i ^ j];
}
__global__ void bitonic_step(int j, int k, float *v) {
  unsigned i = GID;
  unsigned p = i ^ (unsigned)j;
  if (p > i) {
    float a = v[i], b = v[p];
    if (((i & (unsigned)k) == 0) == (a > b)) {
      v[i] = b;
      v[p] = a;
    }
  }
}
__global__ void and_param(int n, int m, const float *v, float *o) {
  int i = GID;
  if (i < n)
    o[i] = v[i & m];
}
__global__ void or_param(int n, int m, const float *v, float *o) {
  int i = GID;
  if (i < n)
    o[i] = v[i | m];
}
__global__ void walsh_split(int n, int stride, float *d) {
  for (int pos = GID; pos < n / 2; pos += blockDim.x * gridDim.x) {
    int lo = pos & (stride - 1);
    int i0 = ((pos - lo) << 1) + lo;
    float a = d[i0], b = d[i0 + stride];
    d[i0] = a + b;
    d[i0 + stride] = a - b;
  }
}
