// Adversarial round 6: loops with narrow (8/16-bit) and 64-bit counters
// that wrap, loops whose trip count comes from memory the kernel writes,
// while-loops whose exit depends on values other threads wrote.

// Attacks: 8-bit counter from s to e that wraps through 255 -> 0.
// GMEM-EXPECT: lw_u8_wrap conditional
// GMEM-RUN: lw_u8_wrap grid=1 block=1 args=buf:i32:256:zero buf:i32:256:rand i32:250 i32:4
// GMEM-RUN: lw_u8_wrap grid=1 block=1 args=buf:i32:256:zero buf:i32:256:rand i32:3 i32:9
// GMEM-RUN: lw_u8_wrap grid=1 block=1 args=buf:i32:256:rand ptr:0+0 i32:250 i32:4
__global__ void lw_u8_wrap(int *out, const int *in, int s, int e) {
  for (unsigned char k = (unsigned char)s; k != (unsigned char)e; k++) out[k] = in[k] + 1;
}

// Attacks: 16-bit counter wrapping through 65535 -> 0 (writes the top and the bottom of the buffer).
// GMEM-EXPECT: lw_u16_wrap idempotent
// GMEM-RUN: lw_u16_wrap grid=1 block=1 args=buf:i32:65536:zero i32:65530 i32:6
__global__ void lw_u16_wrap(int *out, int s, int e) {
  for (unsigned short k = (unsigned short)s; k != (unsigned short)e; k++) out[k] = k;
}

// Attacks: 64-bit counter truncated to 16 bits as the index (lo = 2^32 + 65532).
// GMEM-EXPECT: lw_i64_trunc16 idempotent
// GMEM-RUN: lw_i64_trunc16 grid=1 block=2 args=buf:i32:65536:zero i64:4295032828 i64:4295032836
__global__ void lw_i64_trunc16(int *out, long long lo, long long hi) {
  for (long long k = lo + threadIdx.x; k < hi; k += 2) out[(unsigned short)k] = (int)threadIdx.x;
}

// Attacks: byte index base + k computed in unsigned char (base 252, 8 trips: 252..255, 0..3).
// GMEM-EXPECT: lw_char_index conditional
// GMEM-RUN: lw_char_index grid=1 block=4 args=buf:f32:256:zero buf:f32:256:rand i32:252
// GMEM-RUN: lw_char_index grid=1 block=4 args=buf:f32:256:rand ptr:0+16 i32:252
__global__ void lw_char_index(float *out, const float *in, int base) {
  for (int k = 0; k < 8; k++) {
    unsigned char j = (unsigned char)(base + k * 4 + threadIdx.x);
    out[j] = in[(k * 4 + threadIdx.x) & 31] * 3.0f;
  }
}

// Attacks: unsigned down-counter with k-- > 0 (runs n+1 times, index n .. 0).
// GMEM-EXPECT: lw_do_down idempotent
// GMEM-RUN: lw_do_down grid=1 block=1 args=buf:i32:64:zero u32:40
// GMEM-RUN: lw_do_down grid=1 block=1 args=buf:i32:64:zero u32:0
__global__ void lw_do_down(int *p, unsigned n) {
  unsigned k = n;
  do { p[k] = 1; } while (k-- > 0);
}

// Attacks: signed step parameter with a downward loop k = n; k >= 0; k -= s.
// GMEM-EXPECT: lw_down_step idempotent
// GMEM-RUN: lw_down_step grid=1 block=2 args=buf:i32:64:zero i32:63 i32:3
// GMEM-RUN: lw_down_step grid=1 block=2 args=buf:i32:64:zero i32:-1 i32:3
__global__ void lw_down_step(int *p, int n, int s) {
  for (int k = n - (int)threadIdx.x; k >= 0; k -= s) p[k] = k;
}

// Attacks: trip count read from a header that thread 0 then rewrites (run 2 uses the new count).
// GMEM-EXPECT: lw_count_rewritten non-idempotent
// GMEM-RUN: lw_count_rewritten grid=1 block=4 args=buf:i32:4:const:3 buf:i32:64:zero
__global__ void lw_count_rewritten(int *hdr, int *out) {
  int m = hdr[0];
  for (int k = 0; k < m; k++) out[threadIdx.x * 16 + k] = k + 1;
  __syncthreads();
  if (threadIdx.x == 0) hdr[0] = 9;
}

// Attacks: trip count from a header, header word 1 written (word 0 untouched: idempotent).
// GMEM-EXPECT: lw_count_other_word conditional
// GMEM-RUN: lw_count_other_word grid=1 block=4 args=buf:i32:4:const:3 buf:i32:64:zero
__global__ void lw_count_other_word(int *hdr, int *out) {
  int m = hdr[0];
  if (m > 16) m = 16;
  for (int k = 0; k < m; k++) out[threadIdx.x * 16 + k] = k + 1;
  if (threadIdx.x == 0) hdr[1] = m;
}

// Attacks: trip count from a header byte that an int store of another word overlaps (byte 4 = word 1's low byte).
// GMEM-EXPECT: lw_count_byte non-idempotent
// GMEM-RUN: lw_count_byte grid=1 block=4 args=buf:i32:4:const:3 buf:i32:64:zero
__global__ void lw_count_byte(int *hdr, int *out) {
  int m = ((const unsigned char *)hdr)[4] & 15;
  for (int k = 0; k < m; k++) out[threadIdx.x * 16 + k] = k + 1;
  __syncthreads();
  if (threadIdx.x == 0) hdr[1] = 7;
}

// Attacks: scan while the cell is nonzero; other threads zero cells (exit depends on their writes).
// GMEM-EXPECT: lw_scan_zeroed non-idempotent
// GMEM-RUN: lw_scan_zeroed grid=1 block=32 args=buf:i32:64:randint:1:9 buf:i32:32:zero
__global__ void lw_scan_zeroed(int *cells, int *out) {
  int t = threadIdx.x;
  int k = 0;
  while (k < 64 && cells[k] != 0) k++;
  out[t] = k;
  __syncthreads();
  if (t % 8 == 7) cells[t * 2] = 0;
}

// Attacks: loop that stops at the first slot equal to the target and writes the target before it (idempotent).
// GMEM-EXPECT: lw_fill_until idempotent
// GMEM-RUN: lw_fill_until grid=1 block=1 args=buf:i32:64:randint:0:40 i32:17
__global__ void lw_fill_until(int *p, int target) {
  for (int k = 0; k < 64; k++) {
    if (p[k] == target) break;
    p[k] = target;
  }
}

// Attacks: like lw_fill_until but writes target+1 (the second run still stops at slot 0).
// GMEM-EXPECT: lw_fill_until_next idempotent
// GMEM-RUN: lw_fill_until_next grid=1 block=1 args=buf:i32:64:randint:0:40 i32:17
__global__ void lw_fill_until_next(int *p, int target) {
  for (int k = 0; k < 64; k++) {
    if (p[k] == target) break;
    p[k] = target + (k == 5);
  }
}

// Attacks: 32-bit counter compared against a 64-bit bound (k promoted): bound 2^32+3 is big, loop stops at the cap.
// GMEM-EXPECT: lw_cap64 idempotent
// GMEM-RUN: lw_cap64 grid=1 block=1 args=buf:i32:64:zero i64:4294967299 i32:50
__global__ void lw_cap64(int *p, long long n, int cap) {
  for (int k = 0; k < n && k < cap; k++) p[k] = k;
}

// Attacks: unsigned loop up to n with a stride that can overshoot and wrap if n is near 2^32 (guarded by k < cap).
// GMEM-EXPECT: lw_ustride idempotent
// GMEM-RUN: lw_ustride grid=1 block=4 args=buf:i32:64:zero u32:4294967295 u32:16 u32:64
__global__ void lw_ustride(int *p, unsigned n, unsigned s, unsigned cap) {
  for (unsigned k = threadIdx.x; k < n && k < cap; k += s) p[k] = 2;
}

// Attacks: loop index xor'ed with a loaded mask (the mask lives in the written buffer's tail).
// GMEM-EXPECT: lw_xor_mask non-idempotent
// GMEM-RUN: lw_xor_mask grid=1 block=1 args=buf:i32:64:randint:0:8
__global__ void lw_xor_mask(int *p) {
  for (int k = 0; k < 8; k++) p[(k ^ p[63]) & 7] = k;
  p[63] = p[0] & 7;
}

// Attacks: nested loops, inner bound = outer counter (triangle) with a 64-bit flattened index.
// GMEM-EXPECT: lw_triangle idempotent
// GMEM-RUN: lw_triangle grid=1 block=1 args=buf:i32:128:zero i32:15
__global__ void lw_triangle(int *p, int n) {
  for (int r = 0; r < n; r++)
    for (int c = 0; c <= r; c++) p[(long long)r * (r + 1) / 2 + c] = r - c;
}

// Attacks: a while loop whose exit depends on data the same loop overwrites (a linked-list walk that re-links).
// GMEM-EXPECT: lw_list_relink non-idempotent
// GMEM-RUN: lw_list_relink grid=1 block=1 args=buf:i32:32:randint:0:32
__global__ void lw_list_relink(int *next) {
  int k = 0, steps = 0;
  while (steps < 32) {
    int n = next[k];
    next[k] = (k + 1) & 31;
    k = n;
    steps++;
  }
}

// Attacks: counter that wraps at 2^32 in the value stored, index in range (idempotent).
// GMEM-EXPECT: lw_value_wrap idempotent
// GMEM-RUN: lw_value_wrap grid=1 block=32 args=buf:u32:32:zero u32:4294967290
__global__ void lw_value_wrap(unsigned *p, unsigned base) {
  unsigned v = base;
  for (int k = 0; k < 10; k++) v += 1;
  p[threadIdx.x] = v;
}

// Attacks: loop runs gridDim.y times and writes rows indexed by the counter (row region depends on gridDim.y).
// GMEM-EXPECT: lw_grid_y_trips idempotent
// GMEM-RUN: lw_grid_y_trips grid=1,3 block=8 args=buf:i32:64:zero
__global__ void lw_grid_y_trips(int *p) {
  for (unsigned r = 0; r < gridDim.y * 2; r++) p[r * 8 + threadIdx.x] = r;
}
