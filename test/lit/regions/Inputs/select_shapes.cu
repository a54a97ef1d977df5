// Pointers chosen among objects, written to make the select/phi regions
// (AccessCollector's shared-offset rule, session 47) predict too little:
// nested selects, choices per thread or by data, webs of phis that rotate
// three buffers, phis that also step the pointer, a shared array among the
// candidates, one object chosen at two offsets, and aliasing launches in
// which the chosen object overlaps the one read. Checked by
// regions/select_shapes.test; the GMEM-RUN lines make this file a corpus
// file, run under test/gpu's ground truth on the H200
// (test/gpu/results/session48-select). A GMEM-EXPECT class is what a sound
// and precise analysis would say of the kernel over all launches.

// GMEM-EXPECT: nested_select conditional
// GMEM-RUN: nested_select grid=2 block=64 args=buf:f32:128:zero buf:f32:128:zero buf:f32:128:zero buf:f32:128:rand i32:100 i32:0 i32:0
// GMEM-RUN: nested_select grid=2 block=64 args=buf:f32:128:zero buf:f32:128:zero buf:f32:136:rand ptr:2+4 i32:100 i32:0 i32:0
// GMEM-RUN: nested_select grid=2 block=64 args=buf:f32:128:zero buf:f32:128:zero buf:f32:136:rand ptr:2+4 i32:100 i32:1 i32:0
__global__ void nested_select(float *a, float *b, float *c, const float *in, int n, int f1, int f2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = f1 ? a : (f2 ? b : c);
  if (i < n)
    p[i] = in[i] * 2.0f + 1.0f;
}

// GMEM-EXPECT: per_thread_three non-idempotent
// GMEM-RUN: per_thread_three grid=3 block=64 args=buf:f32:192:rand buf:f32:192:rand buf:f32:192:rand i32:150
__global__ void per_thread_three(float *a, float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = i % 3 == 0 ? a : (i % 3 == 1 ? b : c);
  if (i < n)
    p[i] += 1.0f;
}

// The phi also steps the pointer: its entering values are not all objects.
// GMEM-EXPECT: phi_own_offset idempotent
// GMEM-RUN: phi_own_offset grid=1 block=64 args=buf:f32:256:zero buf:f32:256:zero i32:64 i32:4
__global__ void phi_own_offset(float *a, float *b, int n, int steps) {
  int i = threadIdx.x;
  float *p = a;
  for (int s = 0; s < steps; ++s) {
    if (i < n)
      p[i] = float(s);
    p = (s & 1) ? b : a + n;
  }
}

// A chosen pointer stepped in a loop: p, p + n, p + 2n, p + 3n.
// GMEM-EXPECT: select_stepped conditional
// GMEM-RUN: select_stepped grid=1 block=64 args=buf:f32:256:zero buf:f32:256:zero buf:f32:64:rand i32:64 i32:1
// GMEM-RUN: select_stepped grid=1 block=64 args=buf:f32:256:zero buf:f32:256:zero buf:f32:64:rand i32:64 i32:0
__global__ void select_stepped(float *a, float *b, const float *in, int n, int flag) {
  int i = threadIdx.x;
  float *p = flag ? a : b;
  for (int k = 0; k < 4; ++k) {
    if (i < n)
      p[i] = in[i] + float(k);
    p += n;
  }
}

// Negative offset behind a guard.
// GMEM-EXPECT: select_negative conditional
// GMEM-RUN: select_negative grid=2 block=64 args=buf:f32:128:zero buf:f32:128:zero buf:f32:128:rand i32:100 i32:0
__global__ void select_negative(float *a, float *b, const float *in, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = flag ? a : b;
  if (i > 0 && i < n)
    p[i - 1] = in[i];
}

// Chosen per thread by data.
// GMEM-EXPECT: select_by_data conditional
// GMEM-RUN: select_by_data grid=2 block=64 args=buf:f32:128:zero buf:f32:128:zero buf:i32:128:randint:0:2 buf:f32:128:rand i32:120
// GMEM-RUN: select_by_data grid=2 block=64 args=buf:f32:136:rand ptr:0+4 buf:i32:128:randint:0:2 ptr:0+0 i32:120
__global__ void select_by_data(float *a, float *b, const int *sel, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = sel[i % 128] ? a : b;
  if (i < n)
    p[i] = in[i] + 1.0f;
}

// Read through one choice, write through the other. With b = a + 1
// element the launch shifts a running value along a (not idempotent).
// GMEM-EXPECT: cross_choice conditional
// GMEM-RUN: cross_choice grid=2 block=64 args=buf:f32:128:rand buf:f32:128:rand i32:100 i32:1
// GMEM-RUN: cross_choice grid=2 block=64 args=buf:f32:136:rand ptr:0+4 i32:100 i32:1
__global__ void cross_choice(float *a, float *b, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *r = flag ? a : b;
  float *w = flag ? b : a;
  if (i < n)
    w[i] = r[i] + 1.0f;
}

// A shared array among the candidates (a generic pointer).
// GMEM-EXPECT: select_shared conditional
// GMEM-RUN: select_shared grid=2 block=64 args=buf:f32:128:zero buf:f32:128:rand i32:1
// GMEM-RUN: select_shared grid=2 block=64 args=buf:f32:128:zero buf:f32:128:rand i32:0
__global__ void select_shared(float *a, float *out, int flag) {
  __shared__ float s[64];
  float *p = flag ? a + blockIdx.x * 64 : s;
  p[threadIdx.x] = float(threadIdx.x + blockIdx.x);
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] += p[63 - threadIdx.x];
}

// One object at two offsets: whole allocation; reads from a third range.
// GMEM-EXPECT: same_object_two conditional
// GMEM-RUN: same_object_two grid=1 block=64 args=buf:f32:192:rand i32:64 i32:1
// GMEM-RUN: same_object_two grid=1 block=64 args=buf:f32:192:rand i32:64 i32:0
__global__ void same_object_two(float *a, int n, int flag) {
  int i = threadIdx.x;
  float *p = flag ? a : a + n;
  if (i < n)
    p[i] = a[i + 2 * n] * 3.0f;
}

// Three buffers rotated by a web of phis.
// GMEM-EXPECT: rotate_three non-idempotent
// GMEM-RUN: rotate_three grid=1 block=64 args=buf:f32:64:rand buf:f32:64:rand buf:f32:64:rand i32:64 i32:5
__global__ void rotate_three(float *a, float *b, float *c, int n, int steps) {
  int i = threadIdx.x;
  float *src = a, *mid = b, *dst = c;
  for (int s = 0; s < steps; ++s) {
    if (i < n)
      dst[i] = src[i] + mid[i];
    float *t = src;
    src = mid;
    mid = dst;
    dst = t;
  }
}

// Chosen after a data-dependent loop.
// GMEM-EXPECT: chosen_after_loop conditional
// GMEM-RUN: chosen_after_loop grid=1 block=64 args=buf:f32:64:zero buf:f32:64:zero buf:f32:16:rand i32:16 i32:60
__global__ void chosen_after_loop(float *a, float *b, const float *in, int m, int n) {
  float *p = a;
  for (int k = 0; k < m; ++k)
    if (in[k] > 0.5f)
      p = b;
  int i = threadIdx.x;
  if (i < n)
    p[i] = 7.0f;
}

// Bytes: a 2-D choice with a row stride, three bytes a thread apart.
// GMEM-EXPECT: select_bytes_2d conditional
// GMEM-RUN: select_bytes_2d grid=2,2 block=16,8 args=buf:u8:2048:zero buf:u8:2048:zero i32:30 i32:14 i32:1
// GMEM-RUN: select_bytes_2d grid=2,2 block=16,8 args=buf:u8:2048:zero buf:u8:2048:zero i32:30 i32:14 i32:0
__global__ void select_bytes_2d(unsigned char *a, unsigned char *b, int w, int h, int flag) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned char *p = flag ? a : b;
  if (x < w && y < h)
    p[y * (3 * w) + 3 * x + 1] = (unsigned char)(x + y);
}

// In place through the choice, index reversed: non-idempotent.
// GMEM-EXPECT: reverse_in_place non-idempotent
// GMEM-RUN: reverse_in_place grid=1 block=64 args=buf:f32:64:rand buf:f32:64:rand i32:64 i32:0
__global__ void reverse_in_place(float *a, float *b, int n, int flag) {
  int i = threadIdx.x;
  float *p = flag ? a : b;
  if (i < n / 2) {
    float t = p[i];
    p[i] = p[n - 1 - i] + 1.0f;
    p[n - 1 - i] = t;
  }
}
