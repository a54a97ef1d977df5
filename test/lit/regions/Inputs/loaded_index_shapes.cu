// Indices computed from values loaded from memory (hash buckets, radix
// digits, packed ids), for loaded_index_exhaustive.test (models:
// loaded_index_models.py). Nothing bounds the loaded value itself: only the
// shift, mask or remainder applied to it does. Scalars first, then the
// pointers: the loaded ids, then the table they index.
#define GID (blockIdx.x * blockDim.x + threadIdx.x)

__global__ void shr_u32(int n, const unsigned *ids, float *tab) {
  int i = GID;
  if (i < n)
    tab[ids[i] >> 22] = 1.f; // [0, 1023]
}
__global__ void shr_s32(int n, const int *ids, float *tab) {
  int i = GID;
  if (i < n)
    tab[ids[i] >> 24] = 1.f; // arithmetic shift: [-128, 127]
}
__global__ void shr_u64(int n, const unsigned long long *ids, float *tab) {
  int i = GID;
  if (i < n)
    tab[ids[i] >> 54] = 1.f; // [0, 1023]
}
__global__ void radix_digit(int n, const unsigned *keys, float *tab) {
  int i = GID;
  if (i < n)
    tab[(keys[i] >> 8) & 255] = 1.f;
}
__global__ void urem_param(int n, unsigned m, const unsigned *ids, float *tab) {
  int i = GID;
  if (i < n)
    tab[ids[i] % m] = 1.f; // [0, m - 1]
}
__global__ void urem_const(int n, const unsigned *ids, float *tab) {
  int i = GID;
  if (i < n)
    tab[ids[i] % 100u] = 1.f;
}
__global__ void urem_row(int n, unsigned m, const unsigned *ids, float *tab) {
  int i = GID;
  if (i < n)
    tab[i * m + ids[i] % m] = 1.f; // row i of width m
}
__global__ void urem_sum(int n, unsigned m, const unsigned *ids, float *tab) {
  int i = GID;
  if (i < n)
    tab[(ids[i] + 7u) % m] = 1.f; // the dividend is itself a sum
}
__global__ void urem_wide(int n, unsigned long long m, const unsigned long long *ids, float *tab) {
  int i = GID;
  if (i < n)
    tab[ids[i] % m] = 1.f;
}
__global__ void clamp_select(int n, int v, const int *ids, float *tab) {
  int i = GID;
  if (i < n) {
    int t = ids[i];
    tab[t < 0 ? 0 : (t < v ? t : v - 1)] = 1.f; // a border clamp
  }
}
__global__ void clamp_unsigned(int n, unsigned v, const unsigned *ids, float *tab) {
  int i = GID;
  if (i < n)
    tab[ids[i] < v ? ids[i] : 0] = 1.f; // out of range goes to 0
}
__global__ void ne_guard(int n, int v, int ign, const int *ids, float *tab) {
  int i = GID;
  if (i < n) {
    int t = ids[i];
    if (t >= 0 && t < v && t != ign) // PyTorch's ignore_index: bounds nothing
      tab[t] = 1.f;
  }
}
__global__ void eq_guard(int n, int v, const int *ids, float *tab) {
  int i = GID;
  if (i < n && ids[i] == v) // t == v: exactly v, negative or not
    tab[ids[i]] = 1.f;
}
__global__ void eq_fixup(int n, int m, const int *ids, float *tab) {
  int i = GID;
  if (i < n) {
    int idx = ids[i] < 0 ? -1 : (ids[i] & 15);
    if (idx == -1) // a "not found" fix-up: the constant -1 is no index
      idx = m - 1;
    tab[idx] = 1.f;
  }
}
