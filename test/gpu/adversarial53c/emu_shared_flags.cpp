// Host emulation of sd_shared_flags.cu's sc_block_flag_loop and
// sc_block_flag_leader: one uninterrupted run, a run again on its result,
// and a run where the block is cut at a loop checkpoint (every thread still
// in its loop after `stop` trips is cut at that back-edge; the others run
// to the end, as with request-2 loop checkpoints) and then the whole block
// is run again from its start.
//   g++ -O1 -std=c++17 emu_shared_flags.cpp -o /tmp/emu_sf && /tmp/emu_sf
#include <cstdio>
#include <vector>
using namespace std;

// sc_block_flag_loop, grid=4 block=256, n=1024; in[j] = j + 1 (ints for
// exact compares). stop < 0: no cut. Threads step in lock step up to the
// barrier (every thread loads the flag first).
static void block_flag_loop(vector<int> &flag, const vector<int> &in, vector<int> &out, int b,
                            int stop) {
  const int B = 256, n = 1024;
  int f[B];
  for (int t = 0; t < B; t++) f[t] = flag[b];
  // __syncthreads()
  bool cut = false;
  for (int t = 0; t < B; t++) {           // any interleaving after the barrier
    int i = b * B + t, acc = 0;
    bool stopped = false;
    for (int k = 0; k <= t; k++) {
      acc += in[(b * B + k) % n];
      if (stop >= 0 && k + 1 == stop && k + 1 <= t) { stopped = true; break; } // back-edge
    }
    if (stopped) { cut = true; continue; }
    if (f[t]) { out[i % n] = acc; flag[b] = 0; }
  }
  if (cut) block_flag_loop(flag, in, out, b, -1);  // the block is run again
}

int main() {
  const int n = 1024;
  vector<int> in(n);
  for (int j = 0; j < n; j++) in[j] = j + 1;
  vector<int> f0(4, 1), o0(n, 0);
  vector<int> f1 = f0, o1 = o0;
  for (int b = 0; b < 4; b++) block_flag_loop(f1, in, o1, b, -1);
  vector<int> f2 = f1, o2 = o1;
  for (int b = 0; b < 4; b++) block_flag_loop(f2, in, o2, b, -1);
  int d12 = 0;
  for (int j = 0; j < n; j++) d12 += o1[j] != o2[j];
  printf("sc_block_flag_loop: run twice differs in %d words\n", d12);
  vector<int> fp = f0, op = o0;
  for (int b = 0; b < 4; b++) block_flag_loop(fp, in, op, b, b == 1 ? 10 : -1);
  int dp = 0;
  for (int j = 0; j < n; j++) dp += o1[j] != op[j];
  printf("sc_block_flag_loop: block 1 cut after 10 trips: %d of %d words differ from the "
         "uninterrupted run (e.g. out[300] = %d vs %d)\n", dp, n, op[300], o1[300]);
  return 0;
}
