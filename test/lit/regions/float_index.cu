// Indices converted from floats: a conversion of a float that is
// non-negative or NaN is in [0, INT_MAX] (the GPU's conversion saturates
// and gives 0 for NaN), so a `min` with the width bounds it on both sides.
// The float is proved non-negative on its expression: converted integers,
// float parameters (their sign bit checked at launch), fabsf, fmaxf with 0,
// floorf, products and quotients. A float nothing keeps non-negative is
// not bounded below. From above, fminf with a converted width bounds it
// (the width checked to be exact as a float). Also: a clamp of a loaded
// int written with selects,
// and an unsigned min of a loaded id.
// RUN: %gmem-analyze %s --json | FileCheck %s --check-prefix=JSON
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel hist_of_floats --grid 1 --block 8 --alloc 0x100000:4096 \
// RUN:   --alloc 0x200000:4096 --arg ptr:0x100000 --arg ptr:0x200000 --arg i32:5 --arg i32:7 \
// RUN:   --arg f32:-0.5 | FileCheck %s --check-prefix=NEG
// NEG: #1 bins  read [0x200000, 0x201000)  write [0x200000, 0x201000)  (launch fails the sign check on scale (= -0.500000, negative))
// CHECK-LABEL: kernel nearest_resize
// CHECK: #0 src : ptr  R
// CHECK-NEXT: read:  [4*min(sw - 1, 0) + 4*min(min(sh - 1, 0)*sw, min(sh - 1, 2147483647)*sw), 4*max(min(sh - 1, 0)*sw, min(sh - 1, 2147483647)*sw) + 4*min(sw - 1, 2147483647) + 4)
// CHECK-LABEL: kernel hist_of_floats
// CHECK: #1 bins : ptr  RWA
// CHECK-NEXT: read:  [4*min(nbins - 1, 0), 4*min(nbins - 1, 2147483647) + 4)
// CHECK-LABEL: kernel saturated_bin
// CHECK: #1 bins : ptr  RWA
// CHECK-NEXT: read:  [0, 4*min(max(nbins - 1, 0), 2147483647) + 4)
// CHECK-LABEL: kernel shifted
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: whole allocation (index depends on a value the analysis cannot bound)
// CHECK-LABEL: kernel clamp_loaded
// CHECK: #1 tab : ptr  W
// CHECK-NEXT: write: [4*min(w - 1, 0), 4*max(w - 1, 0) + 4)
// CHECK-LABEL: kernel umin_loaded
// CHECK: #1 tab : ptr  W
// CHECK-NEXT: write: [4*min(v - 1, 0), 4*v)
//
// The float parameter's check: its bits, read as a signed int, >= 0.
// JSON-LABEL: "name": "hist_of_floats(
// JSON: "name": "bins"{{.*}}{"value": "scale", "min": 0, "max": 2147483647}
__global__ void nearest_resize(const float *src, float *dst, int sw, int sh, int dw, int dh) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh)
    return;
  int sx = min((int)(x * ((float)sw / dw)), sw - 1);
  int sy = min((int)(y * ((float)sh / dh)), sh - 1);
  dst[y * dw + x] = src[sy * sw + sx];
}
__global__ void hist_of_floats(const float *v, unsigned *bins, int n, int nbins, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[min((int)floorf(fmaxf(v[i], 0.0f) * scale), nbins - 1)], 1u);
}
__global__ void saturated_bin(const float *v, unsigned *bins, int n, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[(int)fminf(fmaxf(v[i], 0.0f), (float)(nbins - 1))], 1u);
}
__global__ void shifted(const float *v, float *out, int n, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[min((int)(v[i] - 0.5f), w - 1)] = 1.0f;
}
__global__ void clamp_loaded(const int *ids, float *tab, int n, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int k = ids[i];
  tab[k < 0 ? 0 : (k > w - 1 ? w - 1 : k)] = 1.0f;
}
__global__ void umin_loaded(const unsigned *ids, float *tab, int n, unsigned v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tab[min(ids[i], v - 1)] = 1.0f;
}
