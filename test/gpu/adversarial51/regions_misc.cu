// Adversarial round 5: region shapes not covered before: negative offsets
// from a pointer argument, pointer selects between arguments, doubling
// loops, do-while loops, step parameters, gridDim.y in the index, min of
// parameters, unsigned comparisons that admit wrapped indices.

// Attacks: reads before the pointer (p[-1], p[-2]) where p points inside a buffer.
// GMEM-EXPECT: rm_negative_offset conditional
// GMEM-RUN: rm_negative_offset grid=1 block=64 args=buf:f32:80:rand ptr:0+8 buf:f32:64:zero
__global__ void rm_negative_offset(const float *base, const float *p, float *out) {
  int i = threadIdx.x;
  out[i] = p[i - 2] + p[i - 1] + base[0] * 0.0f;
}

// Attacks: the write pointer is a select between two arguments decided by data.
// GMEM-EXPECT: rm_select_ptr conditional
// GMEM-RUN: rm_select_ptr grid=1 block=64 args=buf:i32:64:rand buf:i32:64:zero buf:i32:64:zero
__global__ void rm_select_ptr(const int *in, int *a, int *b) {
  int i = threadIdx.x;
  int v = in[i];
  int *d = (v & 1) ? a : b;
  d[i] = v;
}

// Attacks: doubling loop (i = 1, 2, 4, ... < n) indexes the output.
// GMEM-EXPECT: rm_doubling conditional
// GMEM-RUN: rm_doubling grid=1 block=1 args=buf:f32:1100:rand buf:f32:1100:zero i32:1025
__global__ void rm_doubling(const float *in, float *out, int n) {
  for (int i = 1; i < n; i += i) out[i] = in[i - 1];
}

// Attacks: do-while runs once even when the bound is 0.
// GMEM-EXPECT: rm_do_while conditional
// GMEM-RUN: rm_do_while grid=1 block=4 args=buf:i32:64:rand buf:i32:64:zero i32:0
// GMEM-RUN: rm_do_while grid=1 block=4 args=buf:i32:64:rand buf:i32:64:zero i32:9
__global__ void rm_do_while(const int *in, int *out, int n) {
  int k = 0;
  do { out[threadIdx.x * 16 + k] = in[threadIdx.x * 16 + k]; k++; } while (k < n);
}

// Attacks: step parameter (negative step walks down from the start).
// GMEM-EXPECT: rm_step_param conditional
// GMEM-RUN: rm_step_param grid=1 block=1 args=buf:i32:256:rand buf:i32:256:zero i32:200 i32:-7 i32:3
// GMEM-RUN: rm_step_param grid=1 block=1 args=buf:i32:256:rand buf:i32:256:zero i32:0 i32:9 i32:250
__global__ void rm_step_param(const int *in, int *out, int start, int step, int lim) {
  if (step > 0) { for (int i = start; i < lim; i += step) out[i] = in[i]; }
  else if (step < 0) { for (int i = start; i >= lim; i += step) out[i] = in[i]; }
}

// Attacks: gridDim.y in a column-major index.
// GMEM-EXPECT: rm_griddim_y conditional
// GMEM-RUN: rm_griddim_y grid=2,3 block=32 args=buf:f32:192:rand buf:f32:192:zero
__global__ void rm_griddim_y(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int idx = x * gridDim.y + blockIdx.y;
  out[idx] = in[idx] + 1.0f;
}

// Attacks: bound is min of two parameters, one negative.
// GMEM-EXPECT: rm_min_bound conditional
// GMEM-RUN: rm_min_bound grid=1 block=64 args=buf:i32:64:rand buf:i32:64:zero i32:40 i32:-3
// GMEM-RUN: rm_min_bound grid=1 block=64 args=buf:i32:64:rand buf:i32:64:zero i32:40 i32:50
__global__ void rm_min_bound(const int *in, int *out, int a, int b) {
  int i = threadIdx.x;
  if (i < min(a, b)) out[i] = in[i];
  if (i < -b && i < 64) out[63 - i] = -in[i];
}

// Attacks: unsigned compare admits a wrapped index: j = i - off, j < len (unsigned).
// GMEM-EXPECT: rm_unsigned_window conditional
// GMEM-RUN: rm_unsigned_window grid=1 block=64 args=buf:i32:64:rand buf:i32:64:zero u32:10 u32:20
__global__ void rm_unsigned_window(const int *in, int *out, unsigned off, unsigned len) {
  unsigned i = threadIdx.x;
  unsigned j = i - off;
  if (j < len) out[j] = in[i];
}

// Attacks: index from a 64-bit parameter shifted right (large values).
// GMEM-EXPECT: rm_shift64 conditional
// GMEM-RUN: rm_shift64 grid=1 block=32 args=buf:i32:64:rand buf:i32:64:zero u64:0x2000000000
__global__ void rm_shift64(const int *in, int *out, unsigned long long big) {
  int i = threadIdx.x;
  out[(big >> 32) + i] = in[i];
}

// Attacks: row pointer table built from one argument inside a local array, row by blockIdx.
// GMEM-EXPECT: rm_row_table conditional
// GMEM-RUN: rm_row_table grid=4 block=32 args=buf:f32:256:rand buf:f32:256:zero i32:64
__global__ void rm_row_table(const float *in, float *out, int pitch) {
  float *rows[4];
  for (int r = 0; r < 4; r++) rows[r] = out + r * pitch;
  rows[blockIdx.x][threadIdx.x + 32] = in[blockIdx.x * 64 + threadIdx.x];
}

// Attacks: byte-granular pointer arithmetic with an odd runtime offset (unaligned int stores via memcpy).
// GMEM-EXPECT: rm_odd_offset conditional
// GMEM-RUN: rm_odd_offset grid=1 block=32 args=buf:i32:32:rand buf:u8:300:zero i32:3
__global__ void rm_odd_offset(const int *in, unsigned char *out, int off) {
  int i = threadIdx.x;
  int v = in[i];
  memcpy(out + off + 4 * i, &v, 4);
}

// Attacks: loop whose trip count comes from a loaded value clamped by a parameter.
// GMEM-EXPECT: rm_loaded_trip conditional
// GMEM-RUN: rm_loaded_trip grid=1 block=16 args=buf:i32:16:randint:0:40 buf:i32:512:zero i32:32
__global__ void rm_loaded_trip(const int *cnt, int *out, int cap) {
  int t = threadIdx.x;
  int c = min(cnt[t], cap);
  for (int k = 0; k < c; k++) out[t * cap + k] = k;
}
