#include "../saxpy.cu"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define GUARD 4096
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("  CUDA ERROR %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

struct Buf {
  size_t bytes;
  unsigned char *dev_base;   // allocation incl. guards
  std::vector<unsigned char> init;
  unsigned char *ptr() { return dev_base + GUARD; }
};

static unsigned long long lcg_state;
static unsigned int lcg() {
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned int)(lcg_state >> 33);
}

template <typename T> static void fill(std::vector<unsigned char> &v, size_t n, int mode,
                                       double a, double b, unsigned seed, bool is_float) {
  v.resize(n * sizeof(T));
  T *p = (T *)v.data();
  lcg_state = 0x9e3779b97f4a7c15ull ^ (seed * 0x100000001b3ull);
  for (size_t i = 0; i < n; i++) {
    double x = 0;
    switch (mode) {
      case 0: x = is_float ? (lcg() / 1073741824.0 - 1.0) : (double)(lcg() % 100); break;   // rand
      case 1: x = a + (double)(lcg() % (unsigned long long)(b - a)); break;                 // randint
      case 2: x = 0; break;                                                                  // zero
      case 3: x = (double)i; break;                                                          // iota
      case 4: x = a; break;                                                                  // const
    }
    p[i] = (T)x;
  }
}

static void make_buf(Buf &b, size_t bytes) {
  b.bytes = bytes;
  CK(cudaMalloc(&b.dev_base, bytes + 2 * GUARD));
}

static void upload(std::vector<Buf> &bufs) {
  for (auto &b : bufs) {
    CK(cudaMemset(b.dev_base, 0xA5, b.bytes + 2 * GUARD));
    CK(cudaMemcpy(b.ptr(), b.init.data(), b.bytes, cudaMemcpyHostToDevice));
  }
}

static void snapshot(std::vector<Buf> &bufs, std::vector<std::vector<unsigned char>> &out, bool &guard_ok) {
  out.resize(bufs.size());
  for (size_t i = 0; i < bufs.size(); i++) {
    std::vector<unsigned char> all(bufs[i].bytes + 2 * GUARD);
    CK(cudaMemcpy(all.data(), bufs[i].dev_base, all.size(), cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < GUARD; k++)
      if (all[k] != 0xA5 || all[GUARD + bufs[i].bytes + k] != 0xA5) { guard_ok = false; break; }
    out[i].assign(all.begin() + GUARD, all.begin() + GUARD + bufs[i].bytes);
  }
}

static bool differs(std::vector<std::vector<unsigned char>> &a, std::vector<std::vector<unsigned char>> &b) {
  for (size_t i = 0; i < a.size(); i++) if (a[i] != b[i]) return true;
  return false;
}

int run_saxpy() {
  CK(cudaSetDevice(0));
  {
    const char *label = "saxpy #0";
    std::vector<Buf> bufs;
    bufs.emplace_back(); make_buf(bufs.back(), 1000000ull * sizeof(float));
    fill<float>(bufs.back().init, 1000000ull, 0, 0, 0, 3u, true);
    bufs.emplace_back(); make_buf(bufs.back(), 1000000ull * sizeof(float));
    fill<float>(bufs.back().init, 1000000ull, 0, 0, 0, 4u, true);
    std::vector<std::vector<unsigned char>> I, S1, S2, S1b;
    bool g1 = true, g2 = true, g3 = true;
    for (auto &b : bufs) I.push_back(b.init);
    upload(bufs);
    saxpy<<<dim3(3907,1,1), dim3(256,1,1)>>>((int)(1000000LL), (float)(2.5), (const float *)bufs[0].ptr(), (float *)bufs[1].ptr()); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    snapshot(bufs, S1, g1);
    saxpy<<<dim3(3907,1,1), dim3(256,1,1)>>>((int)(1000000LL), (float)(2.5), (const float *)bufs[0].ptr(), (float *)bufs[1].ptr()); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    snapshot(bufs, S2, g2);
    upload(bufs);
    saxpy<<<dim3(3907,1,1), dim3(256,1,1)>>>((int)(1000000LL), (float)(2.5), (const float *)bufs[0].ptr(), (float *)bufs[1].ptr()); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    snapshot(bufs, S1b, g3);
    printf("RESULT %s file=%s changed=%d rerun_differs=%d nondet=%d guard_ok=%d\n", label, "saxpy.cu", (int)differs(I, S1), (int)differs(S1, S2), (int)differs(S1, S1b), (int)(g1 && g2 && g3));
    for (auto &b : bufs) CK(cudaFree(b.dev_base));
  }
  {
    const char *label = "saxpy_gs #1";
    std::vector<Buf> bufs;
    bufs.emplace_back(); make_buf(bufs.back(), 1000000ull * sizeof(float));
    fill<float>(bufs.back().init, 1000000ull, 0, 0, 0, 3u, true);
    bufs.emplace_back(); make_buf(bufs.back(), 1000000ull * sizeof(float));
    fill<float>(bufs.back().init, 1000000ull, 0, 0, 0, 4u, true);
    bufs.emplace_back(); make_buf(bufs.back(), 1000000ull * sizeof(float));
    fill<float>(bufs.back().init, 1000000ull, 2, 0, 0, 5u, true);
    std::vector<std::vector<unsigned char>> I, S1, S2, S1b;
    bool g1 = true, g2 = true, g3 = true;
    for (auto &b : bufs) I.push_back(b.init);
    upload(bufs);
    saxpy_gs<<<dim3(132,1,1), dim3(256,1,1)>>>((int)(1000000LL), (float)(2.5), (const float *)bufs[0].ptr(), (const float *)bufs[1].ptr(), (float *)bufs[2].ptr()); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    snapshot(bufs, S1, g1);
    saxpy_gs<<<dim3(132,1,1), dim3(256,1,1)>>>((int)(1000000LL), (float)(2.5), (const float *)bufs[0].ptr(), (const float *)bufs[1].ptr(), (float *)bufs[2].ptr()); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    snapshot(bufs, S2, g2);
    upload(bufs);
    saxpy_gs<<<dim3(132,1,1), dim3(256,1,1)>>>((int)(1000000LL), (float)(2.5), (const float *)bufs[0].ptr(), (const float *)bufs[1].ptr(), (float *)bufs[2].ptr()); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    snapshot(bufs, S1b, g3);
    printf("RESULT %s file=%s changed=%d rerun_differs=%d nondet=%d guard_ok=%d\n", label, "saxpy.cu", (int)differs(I, S1), (int)differs(S1, S2), (int)differs(S1, S1b), (int)(g1 && g2 && g3));
    for (auto &b : bufs) CK(cudaFree(b.dev_base));
  }
  {
    const char *label = "saxpy_gs #2";
    std::vector<Buf> bufs;
    bufs.emplace_back(); make_buf(bufs.back(), 1000000ull * sizeof(float));
    fill<float>(bufs.back().init, 1000000ull, 0, 0, 0, 3u, true);
    bufs.emplace_back(); make_buf(bufs.back(), 1000000ull * sizeof(float));
    fill<float>(bufs.back().init, 1000000ull, 0, 0, 0, 4u, true);
    std::vector<std::vector<unsigned char>> I, S1, S2, S1b;
    bool g1 = true, g2 = true, g3 = true;
    for (auto &b : bufs) I.push_back(b.init);
    upload(bufs);
    saxpy_gs<<<dim3(132,1,1), dim3(256,1,1)>>>((int)(1000000LL), (float)(2.5), (const float *)bufs[0].ptr(), (const float *)bufs[1].ptr(), (float *)(bufs[1].ptr() + 0)); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    snapshot(bufs, S1, g1);
    saxpy_gs<<<dim3(132,1,1), dim3(256,1,1)>>>((int)(1000000LL), (float)(2.5), (const float *)bufs[0].ptr(), (const float *)bufs[1].ptr(), (float *)(bufs[1].ptr() + 0)); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    snapshot(bufs, S2, g2);
    upload(bufs);
    saxpy_gs<<<dim3(132,1,1), dim3(256,1,1)>>>((int)(1000000LL), (float)(2.5), (const float *)bufs[0].ptr(), (const float *)bufs[1].ptr(), (float *)(bufs[1].ptr() + 0)); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    snapshot(bufs, S1b, g3);
    printf("RESULT %s file=%s changed=%d rerun_differs=%d nondet=%d guard_ok=%d\n", label, "saxpy.cu", (int)differs(I, S1), (int)differs(S1, S2), (int)differs(S1, S1b), (int)(g1 && g2 && g3));
    for (auto &b : bufs) CK(cudaFree(b.dev_base));
  }
  return 0;
}
