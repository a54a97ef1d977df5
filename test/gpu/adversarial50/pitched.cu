// Adversarial round 50: pitched 2D layouts whose pitch is smaller than the
// row (rows overlap), negative pitches and strides, reverse loops, and
// row/column maps whose reads and writes meet only for some pitches.

// Attacks: copy rows into a pitched output whose pitch may be below the width (rows overlap).
// GMEM-EXPECT: pt_copy_rows conditional
// GMEM-RUN: pt_copy_rows grid=4,8 block=16 args=buf:f32:4096:rand buf:f32:4096:zero i32:64 i32:64 i32:8
// GMEM-RUN: pt_copy_rows grid=4,8 block=16 args=buf:f32:4096:rand buf:f32:4096:zero i32:64 i32:40 i32:8
// GMEM-RUN: pt_copy_rows grid=4,8 block=16 args=buf:f32:8192:rand ptr:0+2048 i32:64 i32:40 i32:8
__global__ void pt_copy_rows(const float *in, float *out, int width, int pitch, int rows) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  if (c < width && r < rows)
    out[r * pitch + c] = in[r * width + c];
}

// Attacks: in-place left half -> right half of each pitched row (disjoint only if pitch >= 2w).
// GMEM-EXPECT: pt_mirror_half conditional
// GMEM-RUN: pt_mirror_half grid=1,16 block=32 args=buf:i32:2048:rand i32:32 i32:64
// GMEM-RUN: pt_mirror_half grid=1,16 block=32 args=buf:i32:2048:rand i32:32 i32:48
// GMEM-RUN: pt_mirror_half grid=1,16 block=32 args=buf:i32:2048:rand i32:32 i32:100
__global__ void pt_mirror_half(int *a, int w, int pitch) {
  int c = threadIdx.x, r = blockIdx.y;
  if (c < w)
    a[r * pitch + w + (w - 1 - c)] = a[r * pitch + c];
}

// Attacks: negative pitch (rows go downwards from the pointer, which is mid-buffer).
// GMEM-EXPECT: pt_neg_pitch conditional
// GMEM-RUN: pt_neg_pitch grid=1,8 block=32 args=buf:f32:512:rand ptr:0+1024 i32:-32 i32:32
// GMEM-RUN: pt_neg_pitch grid=1,8 block=32 args=buf:f32:1024:rand ptr:0+2048 i32:-32 i32:32
// GMEM-RUN: pt_neg_pitch grid=1,8 block=32 args=buf:f32:4096:rand ptr:0+12288 i32:-40 i32:32
__global__ void pt_neg_pitch(const float *in, float *out, int pitch, int w) {
  int c = threadIdx.x, r = blockIdx.y;
  if (c < w)
    out[r * pitch + c] = in[r * w + c] + 1.0f;
}

// Attacks: negative element stride from a base index (a[base + i*stride], stride < 0).
// GMEM-EXPECT: pt_neg_stride conditional
// GMEM-RUN: pt_neg_stride grid=2 block=64 args=buf:i32:128:rand buf:i32:1024:zero i32:1000 i32:-7 i32:128
// GMEM-RUN: pt_neg_stride grid=2 block=64 args=buf:i32:1024:rand ptr:0+0 i32:1023 i32:-3 i32:128
// GMEM-RUN: pt_neg_stride grid=2 block=64 args=buf:i32:1024:rand ptr:0+512 i32:500 i32:-3 i32:128
__global__ void pt_neg_stride(const int *in, int *out, int base, int stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[base + i * stride] = in[i];
}

// Attacks: reverse per-thread loop down to a signed bound that may be negative.
// GMEM-EXPECT: pt_reverse_loop conditional
// GMEM-RUN: pt_reverse_loop grid=1 block=32 args=buf:f32:4096:rand buf:f32:4096:zero i32:63 i32:0
// GMEM-RUN: pt_reverse_loop grid=1 block=32 args=buf:f32:4096:rand buf:f32:4096:zero i32:63 i32:-3
// GMEM-RUN: pt_reverse_loop grid=1 block=32 args=buf:f32:8192:rand ptr:0+8192 i32:63 i32:-3
__global__ void pt_reverse_loop(const float *in, float *out, int hi, int lo) {
  int t = threadIdx.x;
  for (int j = hi; j >= lo; --j)
    out[(j + 3) * 32 + t] = in[(hi - j) * 32 + t];
}

// Attacks: reverse unsigned loop that stops at 0 (j-- wraps if the test were >= 0).
// GMEM-EXPECT: pt_reverse_unsigned conditional
// GMEM-RUN: pt_reverse_unsigned grid=1 block=16 args=buf:i32:1024:rand buf:i32:1024:zero u32:40
// GMEM-RUN: pt_reverse_unsigned grid=1 block=16 args=buf:i32:2048:rand ptr:0+4096 u32:40
__global__ void pt_reverse_unsigned(const int *in, int *out, unsigned m) {
  unsigned t = threadIdx.x;
  for (unsigned j = m; j-- > 0;)
    out[j * 16 + t] = in[(m - 1 - j) * 16 + t];
}

// Attacks: transpose with separate input/output pitches (square tiles, pitch < rows overlaps).
// GMEM-EXPECT: pt_transpose conditional
// GMEM-RUN: pt_transpose grid=2,2 block=16,16 args=buf:f32:1024:rand buf:f32:1024:zero i32:32 i32:32 i32:32
// GMEM-RUN: pt_transpose grid=2,2 block=16,16 args=buf:f32:1024:rand buf:f32:1024:zero i32:32 i32:32 i32:20
// GMEM-RUN: pt_transpose grid=2,2 block=16,16 args=buf:f32:2048:rand ptr:0+4096 i32:32 i32:32 i32:32
__global__ void pt_transpose(const float *in, float *out, int n, int ipitch, int opitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    out[x * opitch + y] = in[y * ipitch + x];
}

// Attacks: byte-pitched rows (pitch in bytes, element access through char arithmetic).
// GMEM-EXPECT: pt_byte_pitch conditional
// GMEM-RUN: pt_byte_pitch grid=1,8 block=32 args=buf:f32:512:rand buf:u8:2048:zero i64:256 i32:32
// GMEM-RUN: pt_byte_pitch grid=1,8 block=32 args=buf:f32:512:rand buf:u8:2048:zero i64:100 i32:32
// GMEM-RUN: pt_byte_pitch grid=1,8 block=32 args=buf:f32:1024:rand ptr:0+1024 i64:-128 i32:32
__global__ void pt_byte_pitch(const float *in, unsigned char *out, long long pitch, int w) {
  int c = threadIdx.x, r = blockIdx.y;
  if (c < w) {
    float *row = (float *)(out + r * pitch);
    row[c] = in[r * w + c];
  }
}

// Attacks: 3D volume with slice pitch smaller than rows*pitch (slices overlap).
// GMEM-EXPECT: pt_volume conditional
// GMEM-RUN: pt_volume grid=1,4,4 block=16 args=buf:i32:256:iota buf:i32:512:zero i32:16 i32:64
// GMEM-RUN: pt_volume grid=1,4,4 block=16 args=buf:i32:256:iota buf:i32:512:zero i32:16 i32:20
__global__ void pt_volume(const int *in, int *out, int pitch, int slice) {
  int x = threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  out[z * slice + y * pitch + x] = in[(z * 4 + y) * 16 + x];
}
