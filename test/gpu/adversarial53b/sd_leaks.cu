// Adversarial corpus (session 53b): the self-disabling flag rule
// (selfDisabledBlock) checks that nothing the guarded block computes in
// registers reaches the code after it, and that the join's phis do not
// tell whether it ran; memory the analysis does not track (shared, local)
// can carry that fact too. Expectations give the author's judgement.

// The guarded block marks a shared slot; after a barrier a neighbour
// stores the mark. First run (flags set): out = 1; second run (flags
// cleared): out = 0. Race-free.
// GMEM-EXPECT: sd_shared_leak non-idempotent
// GMEM-RUN: sd_shared_leak grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero i32:1024
// GMEM-RUN: sd_shared_leak grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:const:7 i32:1024
__global__ void sd_shared_leak(int *flag, int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = 0;
  if (i < n && flag[i]) {
    s[t] = 1;
    flag[i] = 0;
  }
  __syncthreads();
  if (i < n)
    out[i] = s[t ^ 1];
}

// The same with the thread's own slot, read after a barrier.
// GMEM-EXPECT: sd_shared_leak_own non-idempotent
// GMEM-RUN: sd_shared_leak_own grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero i32:1024
__global__ void sd_shared_leak_own(int *flag, int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = 0;
  if (i < n && flag[i]) {
    s[t] = 1;
    flag[i] = 0;
  }
  __syncthreads();
  if (i < n)
    out[i] = s[t];
}

// A count of the block's threads that did their work, kept in shared
// memory and stored by thread 0 (a per-block "processed" count).
// GMEM-EXPECT: sd_shared_count non-idempotent
// GMEM-RUN: sd_shared_count grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:zero buf:i32:4:zero i32:1024
__global__ void sd_shared_count(int *flag, int *cnt, int *processed, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = 0;
  if (i < n && flag[i]) {
    cnt[i] = cnt[i] + 1;
    s[t] = 1;
    flag[i] = 0;
  }
  __syncthreads();
  if (t == 0) {
    int sum = 0;
    for (int j = 0; j < 256; j++)
      sum += s[j];
    processed[blockIdx.x] = sum;
  }
}

// The mark kept in a local array indexed by a launch scalar (it stays in
// local memory, not a phi).
// GMEM-EXPECT: sd_local_leak non-idempotent
// GMEM-RUN: sd_local_leak grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero i32:1024 i32:2
__global__ void sd_local_leak(int *flag, int *out, int n, int k) {
  int tmp[4] = {0, 0, 0, 0};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i]) {
    tmp[k & 3] = 1;
    flag[i] = 0;
  }
  if (i < n)
    out[i] = tmp[(k + 1) & 3] + tmp[k & 3];
}

// The block copies the flag's old value into a shared slot before
// clearing it; the value is stored after the barrier.
// GMEM-EXPECT: sd_shared_flag_copy non-idempotent
// GMEM-RUN: sd_shared_flag_copy grid=4 block=256 args=buf:i32:1024:randint:1:5 buf:i32:1024:zero i32:1024
__global__ void sd_shared_flag_copy(int *flag, int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = -1;
  if (i < n && flag[i] != 0) {
    s[t] = 42;
    flag[i] = 0;
  }
  __syncthreads();
  if (i < n)
    out[i] = s[(t + 32) & 255] + 1;
}

// The block's shared mark only decides a store that is the same either
// way (out = 5): idempotent.
// GMEM-EXPECT: sd_shared_no_leak conditional
// GMEM-RUN: sd_shared_no_leak grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:zero i32:1024
__global__ void sd_shared_no_leak(int *flag, int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = 0;
  if (i < n && flag[i]) {
    s[t] = 1;
    flag[i] = 0;
  }
  __syncthreads();
  if (i < n)
    out[i] = s[t ^ 1] * 0 + 5;
}
