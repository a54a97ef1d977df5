// Host emulation of the self-disabling-flag kernels of sd_flags.cu and
// sd_leaks.cu that gmem-analyze (frozen build /tmp/b53b) calls conditional
// and whose disjoint-argument instances it calls idempotent.
//   g++ -O1 -std=c++17 emu_selfdisabled.cpp -o /tmp/emu_sd && /tmp/emu_sd
// Threads of a block are run in lock step between barriers; a preempted
// block is stopped at a loop back-edge (a checkpoint) after `stop`
// iterations and then run again from its start, as the runtime does.
#include <cstdio>
#include <vector>
using V = std::vector<int>;

// sd_shared_leak: grid=4 block=256, flag all 1, out zero.
static void shared_leak(V &flag, V &out, int n) {
  for (int b = 0; b < 4; b++) {
    int s[256];
    for (int t = 0; t < 256; t++) {           // up to the barrier
      int i = b * 256 + t;
      s[t] = 0;
      if (i < n && flag[i]) { s[t] = 1; flag[i] = 0; }
    }
    for (int t = 0; t < 256; t++) {           // after the barrier
      int i = b * 256 + t;
      if (i < n) out[i] = s[t ^ 1];
    }
  }
}

// sd_local_leak: k = 2.
static void local_leak(V &flag, V &out, int n, int k) {
  for (int i = 0; i < n; i++) {
    int tmp[4] = {0, 0, 0, 0};
    if (flag[i]) { tmp[k & 3] = 1; flag[i] = 0; }
    out[i] = tmp[(k + 1) & 3] + tmp[k & 3];
  }
}

// sd_flag_hoisted_loop, one thread; stop < 0: no preemption.
static void hoisted_loop(V &flag, V &cnt, int i, int iters, int stop) {
  int f = flag[i];
  for (int k = 0; k < iters; k++) {
    if (f) { cnt[i] = cnt[i] + 1; flag[i] = 0; }
    if (k + 1 == stop) return;                 // checkpoint at the back-edge
  }
}

// sd_dirty_tile_loop, one block of 128 threads, per_block = 2048.
static void dirty_tile(V &dirty, std::vector<float> &out, const std::vector<float> &in,
                       int b, int per_block, int stop) {
  int f[128];
  for (int t = 0; t < 128; t++) f[t] = dirty[b];
  // __syncthreads()
  for (int it = 0; it * 128 < per_block; it++) {
    for (int t = 0; t < 128; t++) {
      int j = t + it * 128;
      if (j < per_block && f[t]) {
        int e = b * per_block + j;
        out[e] = 2.f * in[e];
        dirty[b] = 0;
      }
    }
    if (it + 1 == stop) return;                // the whole block stops at the back-edge
  }
}

static int diff(const V &a, const V &b) {
  int d = 0;
  for (size_t i = 0; i < a.size(); i++) d += a[i] != b[i];
  return d;
}

int main() {
  {
    V flag(1024, 1), out(1024, 0);
    shared_leak(flag, out, 1024);
    V out1 = out, flag1 = flag;
    shared_leak(flag, out, 1024);
    printf("sd_shared_leak: run twice, %d words of out differ (out[0] %d -> %d)\n",
           diff(out1, out), out1[0], out[0]);
  }
  {
    V flag(1024, 1), out(1024, 0);
    local_leak(flag, out, 1024, 2);
    V out1 = out;
    local_leak(flag, out, 1024, 2);
    printf("sd_local_leak: run twice, %d words of out differ (out[0] %d -> %d)\n",
           diff(out1, out), out1[0], out[0]);
  }
  {
    V flag(1024, 1), cnt(1024, 0);
    V f2 = flag, c2 = cnt;
    for (int i = 0; i < 1024; i++) hoisted_loop(flag, cnt, i, 64, -1);
    for (int i = 0; i < 1024; i++) hoisted_loop(flag, cnt, i, 64, -1);
    printf("sd_flag_hoisted_loop: uninterrupted, run twice: cnt[0] = %d\n", cnt[0]);
    for (int i = 0; i < 1024; i++) { hoisted_loop(f2, c2, i, 64, 1); hoisted_loop(f2, c2, i, 64, -1); }
    printf("sd_flag_hoisted_loop: stopped after iteration 1, run again: cnt[0] = %d (expected 64)\n", c2[0]);
  }
  {
    std::vector<float> in(8192), out(8192, 0.f), ref(8192, 0.f);
    for (int e = 0; e < 8192; e++) in[e] = float(e % 97) - 40.f;
    V dirty(4, 1), dref(4, 1);
    for (int b = 0; b < 4; b++) dirty_tile(dref, ref, in, b, 2048, -1);
    for (int b = 0; b < 4; b++) { dirty_tile(dirty, out, in, b, 2048, 1); dirty_tile(dirty, out, in, b, 2048, -1); }
    int d = 0;
    for (int e = 0; e < 8192; e++) d += out[e] != ref[e];
    printf("sd_dirty_tile_loop: stopped after one iteration, run again: %d of 8192 outputs differ from an uninterrupted run\n", d);
  }
}
