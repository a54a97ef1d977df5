// In-place elementwise updates by idempotent functions (session 52;
// passes/include/gmem/passes/IdempotentUpdates.h): PyTorch-style relu_,
// clamp_ / hardtanh_, threshold_, abs_, floor_, a histogram saturated in
// place, a bit mask applied to flags, Rodinia-style BFS level marking, and
// a grid-stride ReLU; since session 53 also maps with few outcomes,
// remainders, and maps with fixed operands read from memory the launch
// never writes. Run again on its own output, each stores what it stored.
// The near misses are not idempotent (a scale, a leaky ReLU's negative
// slope, a replacement that undoes another, maps that move one of their
// outcomes, a table looked up by the value, a mask the launch clears).

// GMEM-EXPECT: iu_relu idempotent
// GMEM-RUN: iu_relu grid=16 block=256 args=buf:f32:4096:rand i32:4096
__global__ void iu_relu(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fmaxf(x[i], 0.f);
}

// GMEM-EXPECT: iu_relu_select idempotent
// GMEM-RUN: iu_relu_select grid=16 block=256 args=buf:f32:4096:rand i32:4096
__global__ void iu_relu_select(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] = v <= 0.f ? 0.f : v;
  }
}

// GMEM-EXPECT: iu_hardtanh idempotent
// GMEM-RUN: iu_hardtanh grid=16 block=256 args=buf:f32:4096:rand f32:-0.5 f32:0.25 i32:4096
// GMEM-RUN: iu_hardtanh grid=16 block=256 args=buf:f32:4096:rand f32:0.5 f32:-0.25 i32:4096
__global__ void iu_hardtanh(float *x, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fminf(fmaxf(x[i], lo), hi);
}

// GMEM-EXPECT: iu_threshold idempotent
// GMEM-RUN: iu_threshold grid=16 block=256 args=buf:f32:4096:rand f32:0.1 f32:-7.0 i32:4096
__global__ void iu_threshold(float *x, float threshold, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] = v <= threshold ? value : v;
  }
}

// GMEM-EXPECT: iu_abs_floor conditional
// GMEM-RUN: iu_abs_floor grid=8 block=256 args=buf:f32:2048:rand buf:f64:2048:rand i32:2048
__global__ void iu_abs_floor(float *a, double *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = fabsf(a[i]);
    b[i] = floor(b[i] * 1.0);
  }
}

// GMEM-EXPECT: iu_saturate_hist idempotent
// GMEM-RUN: iu_saturate_hist grid=4 block=256 args=buf:i32:1024:randint:0:400 i32:255 i32:1024
__global__ void iu_saturate_hist(int *h, int cap, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && h[i] > cap)
    h[i] = cap;
}

// GMEM-EXPECT: iu_mask_flags idempotent
// GMEM-RUN: iu_mask_flags grid=4 block=256 args=buf:u32:1024:randint:0:100000 u32:4095 i32:1024
__global__ void iu_mask_flags(unsigned *f, unsigned keep, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f[i] = (f[i] & keep) | 0x10000u;
}

// A BFS step: every unvisited vertex of the frontier gets the next level
// (several frontier entries may name one vertex: they store the same value).
// GMEM-EXPECT: iu_bfs_mark conditional
// GMEM-RUN: iu_bfs_mark grid=4 block=256 args=buf:u32:2048:randint:0:3 buf:i32:1024:randint:0:2048 i32:1024 u32:7
__global__ void iu_bfs_mark(unsigned *level, const int *frontier, int nf, unsigned depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nf) {
    int v = frontier[i];
    if (level[v] == 1u)
      level[v] = depth + 1;
  }
}

// GMEM-EXPECT: iu_relu_gs idempotent
// GMEM-RUN: iu_relu_gs grid=8 block=128 args=buf:f32:10000:rand i32:10000
__global__ void iu_relu_gs(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] = fmaxf(x[i], 0.f);
}

// Maps with few outcomes (session 53: every outcome a literal the map
// keeps, or the value itself): PyTorch-style sign_, a binarisation, flags
// normalised; remainders by literal divisors; integer abs. The bit-pattern
// runs read random words as floats (NaNs, subnormals, both zeros).
// GMEM-EXPECT: iu_sign idempotent
// GMEM-RUN: iu_sign grid=16 block=256 args=buf:f32:4096:rand i32:4096
__global__ void iu_sign(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] = (0.f < v) - (v < 0.f);
  }
}

// The same maps over float bits held in words.
// GMEM-EXPECT: iu_sign_bits idempotent
// GMEM-RUN: iu_sign_bits grid=16 block=256 args=buf:u32:4096:randint:0:4294967296 i32:4096
// GMEM-RUN: iu_sign_bits grid=16 block=256 args=buf:u32:4096:randint:2147483646:2147483652 i32:4096
// GMEM-RUN: iu_sign_bits grid=16 block=256 args=buf:u32:4096:randint:0:4 i32:4096
__global__ void iu_sign_bits(unsigned *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __uint_as_float(x[i]);
    x[i] = __float_as_uint((float)((0.f < v) - (v < 0.f)));
  }
}

// GMEM-EXPECT: iu_sign_keep_zero_bits idempotent
// GMEM-RUN: iu_sign_keep_zero_bits grid=16 block=256 args=buf:u32:4096:randint:0:4294967296 i32:4096
// GMEM-RUN: iu_sign_keep_zero_bits grid=16 block=256 args=buf:u32:4096:randint:2147483646:2147483652 i32:4096
__global__ void iu_sign_keep_zero_bits(unsigned *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __uint_as_float(x[i]);
    x[i] = __float_as_uint(v < 0.f ? -1.f : (v > 0.f ? 1.f : v));
  }
}

// GMEM-EXPECT: iu_binarize idempotent
// GMEM-RUN: iu_binarize grid=16 block=256 args=buf:f32:4096:rand i32:4096
__global__ void iu_binarize(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] > 0.5f ? 1.f : 0.f;
}

// GMEM-EXPECT: iu_normalize_flags idempotent
// GMEM-RUN: iu_normalize_flags grid=4 block=256 args=buf:i32:1024:randint:-3:4 i32:1024
__global__ void iu_normalize_flags(int *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f[i] = f[i] != 0;
}

// GMEM-EXPECT: iu_wrap_mod idempotent
// GMEM-RUN: iu_wrap_mod grid=4 block=256 args=buf:i32:1024:randint:-1000:1000 i32:1024
__global__ void iu_wrap_mod(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] %= 7;
}

// GMEM-EXPECT: iu_abs_int idempotent
// GMEM-RUN: iu_abs_int grid=4 block=256 args=buf:i32:1024:randint:-1000:1000 i32:1024
__global__ void iu_abs_int(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = abs(x[i]);
}

// Fixed operands read from memory the launch never writes (session 53):
// PyTorch's masked_fill_ with a mask tensor (the select compiled as a
// branch around the load), threshold_backward in place, clamp_ with tensor
// bounds. The second masked_fill_ run reads its mask from x's own bytes:
// the launch-time check must refuse it.
// GMEM-EXPECT: iu_masked_fill conditional
// GMEM-RUN: iu_masked_fill grid=16 block=256 args=buf:f32:4096:rand buf:u8:4096:randint:0:2 f32:-1e30 i32:4096
// GMEM-RUN: iu_masked_fill grid=16 block=256 args=buf:f32:4096:rand ptr:0+0 f32:-1e30 i32:4096
__global__ void iu_masked_fill(float *x, const unsigned char *mask, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = mask[i] ? value : x[i];
}

// GMEM-EXPECT: iu_threshold_backward conditional
// GMEM-RUN: iu_threshold_backward grid=16 block=256 args=buf:f32:4096:rand buf:f32:4096:rand f32:0.0 i32:4096
__global__ void iu_threshold_backward(float *grad, const float *out, float t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    grad[i] = out[i] <= t ? 0.f : grad[i];
}

// GMEM-EXPECT: iu_clamp_tensor conditional
// GMEM-RUN: iu_clamp_tensor grid=16 block=256 args=buf:f32:4096:rand buf:f32:4096:rand buf:f32:4096:rand i32:4096
__global__ void iu_clamp_tensor(float *x, const float *lo, const float *hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fminf(fmaxf(x[i], lo[i]), hi[i]);
}

// GMEM-EXPECT: iu_scale non-idempotent
// GMEM-RUN: iu_scale grid=16 block=256 args=buf:f32:4096:rand i32:4096
__global__ void iu_scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 0.5f * x[i];
}

// GMEM-EXPECT: iu_leaky_relu non-idempotent
// GMEM-RUN: iu_leaky_relu grid=16 block=256 args=buf:f32:4096:rand f32:0.01 i32:4096
__global__ void iu_leaky_relu(float *x, float slope, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] = v > 0.f ? v : slope * v;
  }
}

// GMEM-EXPECT: iu_swap_values non-idempotent
// GMEM-RUN: iu_swap_values grid=4 block=256 args=buf:i32:1024:randint:0:4 i32:1024
__global__ void iu_swap_values(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = x[i];
    x[i] = v == 1 ? 2 : (v == 2 ? 1 : v);
  }
}

// A floor per thread: the same thread applies it again to its own element.
// GMEM-EXPECT: iu_thread_floor idempotent
// GMEM-RUN: iu_thread_floor grid=4 block=256 args=buf:i32:1024:randint:0:300 i32:1024
__global__ void iu_thread_floor(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = max(x[i], (int)threadIdx.x);
}

// Few outcomes, one of which the map moves: 0 -> 1, a toggle, -1 -> 2.
// GMEM-EXPECT: iu_invert_binary non-idempotent
// GMEM-RUN: iu_invert_binary grid=16 block=256 args=buf:f32:4096:rand i32:4096
__global__ void iu_invert_binary(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] > 0.5f ? 0.f : 1.f;
}

// GMEM-EXPECT: iu_toggle_flags non-idempotent
// GMEM-RUN: iu_toggle_flags grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void iu_toggle_flags(int *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f[i] = !f[i];
}

// GMEM-EXPECT: iu_step_moves non-idempotent
// GMEM-RUN: iu_step_moves grid=4 block=256 args=buf:i32:1024:randint:-3:4 i32:1024
__global__ void iu_step_moves(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = x[i];
    x[i] = v > 1 ? 1 : (v < 0 ? -1 : 2);
  }
}

// The fixed operand must not depend on the value (a table looked up by it)
// nor come from memory the launch writes (the mask cleared as it goes).
// GMEM-EXPECT: iu_table_by_value non-idempotent
// GMEM-RUN: iu_table_by_value grid=4 block=256 args=buf:i32:1024:randint:0:256 buf:i32:256:randint:0:256 i32:1024
__global__ void iu_table_by_value(int *x, const int *table, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = table[x[i] & 255];
}

// GMEM-EXPECT: iu_mask_cleared non-idempotent
// GMEM-RUN: iu_mask_cleared grid=16 block=256 args=buf:f32:4096:rand buf:i32:4096:randint:0:2 f32:7.0 i32:4096
__global__ void iu_mask_cleared(float *x, int *mask, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = mask[i] ? x[i] + value : x[i];
    mask[i] = 0;
  }
}

// A flag that turns its own work off (session 53; Rodinia BFS's second
// kernel is bfs.cu's bfs_update): a count in the block the flag guards. Run again, the flag is
// off and the block skipped. Near misses: the flag kept on, and a join that
// tells whether the block ran.
// GMEM-EXPECT: iu_clear_and_count conditional
// GMEM-RUN: iu_clear_and_count grid=4 block=256 args=buf:i32:1024:randint:2:5 buf:i32:1024:randint:0:100 i32:1024
__global__ void iu_clear_and_count(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i] == 3) {
    cnt[i] = cnt[i] + 1;
    flag[i] = 0;
  }
}

// GMEM-EXPECT: iu_flag_kept_on non-idempotent
// GMEM-RUN: iu_flag_kept_on grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:randint:0:100 i32:1024
__global__ void iu_flag_kept_on(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i]) {
    cnt[i] = cnt[i] + 1;
    flag[i] = 1;
  }
}

// GMEM-EXPECT: iu_join_tells non-idempotent
// GMEM-RUN: iu_join_tells grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:zero i32:1024
__global__ void iu_join_tells(int *flag, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int ran = 0;
    if (flag[i]) {
      flag[i] = 0;
      ran = 1;
    }
    out[i] = ran;
  }
}

// Out-of-place kernels called in place (session 53: KernelDescriptor::
// AliasOk): out == in makes relu an in-place map, idempotent; a scale is
// not, nor is relu with out one element past in.
// GMEM-EXPECT: iu_relu_oop conditional
// GMEM-RUN: iu_relu_oop grid=16 block=256 args=buf:f32:4096:rand buf:f32:4096:zero i32:4096
// GMEM-RUN: iu_relu_oop grid=16 block=256 args=buf:f32:4096:rand ptr:0+0 i32:4096
// GMEM-RUN: iu_relu_oop grid=16 block=256 args=buf:f32:4097:rand ptr:0+4 i32:4096
__global__ void iu_relu_oop(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = fmaxf(in[i], 0.f);
}

// GMEM-EXPECT: iu_max_oop conditional
// GMEM-RUN: iu_max_oop grid=16 block=256 args=buf:f32:4096:rand buf:f32:4096:rand ptr:1+0 i32:4096
// GMEM-RUN: iu_max_oop grid=16 block=256 args=buf:f32:4096:rand ptr:0+0 ptr:0+0 i32:4096
__global__ void iu_max_oop(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = fmaxf(a[i], b[i]);
}

// GMEM-EXPECT: iu_scale_oop conditional
// GMEM-RUN: iu_scale_oop grid=16 block=256 args=buf:f32:4096:rand ptr:0+0 i32:4096
__global__ void iu_scale_oop(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.f * in[i];
}
