// Adversarial corpus (session 55b): guarded maps that are idempotent alone
// but compose with another map on the same word (two pairs in one thread
// ordered by a barrier, two threads sharing a word, a neighbour read
// before the map). Expectations: the author's view.

// One thread, two guarded maps on its own word, a barrier between them
// (so LLVM cannot forward the first store to the second load):
// 1 -> 2, then 0 -> 1. Run 1 takes 0 to 1, run 2 takes 1 to 2.
// GMEM-EXPECT: two_maps_bar non-idempotent
// GMEM-RUN: two_maps_bar grid=1 block=256 args=buf:i32:256:randint:0:3 i32:256
__global__ void two_maps_bar(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x == 1) v[i] = 2;
    else if (x > 100) v[i] = 100;
  }
  __syncthreads();
  if (i < n) {
    int y = v[i];
    if (y == 0) v[i] = 1;
    else if (y < -100) v[i] = -100;
  }
}

// The same with the two maps in two straight-line pairs (single arms).
// GMEM-EXPECT: two_maps_bar1 non-idempotent
// GMEM-RUN: two_maps_bar1 grid=1 block=256 args=buf:i32:256:randint:0:3 i32:256
__global__ void two_maps_bar1(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x == 1) v[i] = 2;
  }
  __syncthreads();
  if (i < n) {
    int y = v[i];
    if (y == 0) v[i] = 1;
  }
}

// Two threads share a word (j = i / 2), ordered by a barrier: even threads
// map 1 -> 2 in phase 0, odd threads map 0 -> 1 in phase 1. Race-free.
// GMEM-EXPECT: shared_phased non-idempotent
// GMEM-RUN: shared_phased grid=1 block=256 args=buf:i32:128:zero i32:256
__global__ void shared_phased(int *v, int n) {
  int i = threadIdx.x, j = i >> 1;
  if (i < n && !(i & 1)) {
    int x = v[j];
    if (x == 1) v[j] = 2;
    else if (x > 100) v[j] = 100;
  }
  __syncthreads();
  if (i < n && (i & 1)) {
    int y = v[j];
    if (y == 0) v[j] = 1;
    else if (y < -100) v[j] = -100;
  }
}

// Control: the same clamp in both phases (composes).
// GMEM-EXPECT: shared_phased_same idempotent
// GMEM-RUN: shared_phased_same grid=1 block=256 args=buf:i32:128:randint:0:256 i32:256
__global__ void shared_phased_same(int *v, int n) {
  int i = threadIdx.x, j = i >> 1;
  if (i < n && !(i & 1)) {
    int x = v[j];
    if (x < 10) v[j] = 10;
    else if (x > 100) v[j] = 100;
  }
  __syncthreads();
  if (i < n && (i & 1)) {
    int y = v[j];
    if (y < 10) v[j] = 10;
    else if (y > 100) v[j] = 100;
  }
}

// A neighbour's word read before the barrier, the map after: run 1 copies
// the old word, run 2 the mapped one.
// GMEM-EXPECT: read_then_map non-idempotent
// GMEM-RUN: read_then_map grid=1 block=256 args=buf:i32:256:randint:-300:300 buf:i32:256:zero i32:256
__global__ void read_then_map(int *v, int *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = v[i ^ 1];
  __syncthreads();
  if (i < n) {
    int x = v[i];
    if (x < 0) v[i] = 0;
    else if (x > 255) v[i] = 255;
  }
}

// The map first, the neighbour's word read after the barrier: out gets the
// mapped value both times.
// GMEM-EXPECT: map_then_read idempotent
// GMEM-RUN: map_then_read grid=1 block=256 args=buf:i32:256:randint:-300:300 buf:i32:256:zero i32:256
__global__ void map_then_read(int *v, int *out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0) v[i] = 0;
    else if (x > 255) v[i] = 255;
  }
  __syncthreads();
  if (i < n) out[i] = v[i ^ 1];
}

// Thread i maps v[i] 0 -> 1; after the barrier thread i-1 maps v[i]
// 1 -> 2 (two pairs on one buffer at a distance).
// (The emulator: idempotent: the composite 0 -> 2, <0 -> 7 keeps 2 and 7.)
// GMEM-EXPECT: shift_maps idempotent
// GMEM-RUN: shift_maps grid=1 block=255 args=buf:i32:256:zero i32:256
__global__ void shift_maps(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x == 0) v[i] = 1;
    else if (x < 0) v[i] = 7;
  }
  __syncthreads();
  if (i + 1 < n) {
    int y = v[i + 1];
    if (y == 1) v[i + 1] = 2;
    else if (y > 1000) v[i + 1] = 1000;
  }
}
