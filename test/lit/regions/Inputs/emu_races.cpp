// Kernels for emu_races.test, in the form test/fuzz/random_kernels.py gives
// the host emulation (test/fuzz/emu_shim.h).
#include "emu_shim.h"

// Every thread adds into o[0]: a byte written by several threads.
__global__ void racy_sum(float *o, const float *a, float *b, int n, int m, unsigned u, int s,
                         gm_shape d) {
  GM_RMW(o, 0, GM_LD(a, threadIdx.x));
}

// Each thread its own element, reading the neighbour's slot of a (read-only).
__global__ void own_slot(float *o, const float *a, float *b, int n, int m, unsigned u, int s,
                         gm_shape d) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  GM_ST(o, gid, GM_LD(a, gid + 1) + 1.0f);
}

// Thread t reads what thread t + 1 writes (a read and a write by two threads).
__global__ void read_neighbour(float *o, const float *a, float *b, int n, int m, unsigned u,
                               int s, gm_shape d) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  GM_ST(o, gid, GM_LD(o, gid + 1));
}

// Thread t writes its own o[t] twice and b (= o when aliased) at t + 64.
__global__ void alias_only(float *o, const float *a, float *b, int n, int m, unsigned u, int s,
                           gm_shape d) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  GM_ST(o, gid, 1.0f);
  GM_ST(o, gid, 2.0f);
  GM_ST(b, gid + 64, 3.0f);
}

static void w0(void *o, const void *a, void *b, int n, int m, unsigned u, int s, gm_shape d) {
  racy_sum((float *)o, (const float *)a, (float *)b, n, m, u, s, d);
}
static void w1(void *o, const void *a, void *b, int n, int m, unsigned u, int s, gm_shape d) {
  own_slot((float *)o, (const float *)a, (float *)b, n, m, u, s, d);
}
static void w2(void *o, const void *a, void *b, int n, int m, unsigned u, int s, gm_shape d) {
  read_neighbour((float *)o, (const float *)a, (float *)b, n, m, u, s, d);
}
static void w3(void *o, const void *a, void *b, int n, int m, unsigned u, int s, gm_shape d) {
  alias_only((float *)o, (const float *)a, (float *)b, n, m, u, s, d);
}
static const gm_kernel gm_kernels[] = {w0, w1, w2, w3};
static const bool gm_fibers[] = {false, false, false, false};
int main(int argc, char **argv) { return gm_main(argc, argv, gm_kernels, 4, gm_fibers); }
