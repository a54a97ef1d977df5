// Device code of the co-location demo (colocation.cu, which includes it):
// the inference chain's kernels (infer_gemv, infer_act), the training
// kernels (train_step, train_accum) and, built with -DGMEM_HAND_CLONES=1,
// their hand-written preemptible clones (clone ABI version 2), plus
// fill_random. One translation unit with colocation.cu: stage.sh compiles
// only colocation.cu, and the checkpoint pass sees these kernels there.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#ifndef GMEM_HAND_CLONES
#define GMEM_HAND_CLONES 0
#endif

// ---------------------------------------------------------------------------
// Device code

constexpr int Layers = 10, WLen = 4096, TrainBlock = 256;

extern "C" __global__ void infer_gemv(const float *__restrict__ A, const float *__restrict__ x,
                                      float *__restrict__ y, int n) {
  int Row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int Lane = threadIdx.x & 31;
  if (Row >= n)
    return; // warp-uniform
  float S = 0.f;
  for (int C = Lane; C < n; C += 32)
    S += A[size_t(Row) * n + C] * x[C];
  for (int O = 16; O; O >>= 1)
    S += __shfl_down_sync(0xffffffffu, S, O);
  if (Lane == 0)
    y[Row] = S;
}

extern "C" __global__ void infer_act(const float *__restrict__ y, const float *__restrict__ b,
                                     float *__restrict__ z, int n) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < n)
    z[I] = fmaxf(y[I] + b[I], 0.f) * 0.03f;
}

/// The checkpoint ABI's control block of a non-persistent clone (the
/// hand-written ones are not persistent: info flag bit 4 clear).
struct gmem_ctl {
  unsigned request;
  unsigned reserved;
  unsigned done[1];
};

/// One training step per element: a long dependent FMA chain over W.
/// Clone: the checkpoints of the ABI (entry; every 16 iterations in the
/// loop, joined to a barrier so that the whole CTA leaves together; done
/// bit at the end).
template <bool Clone, bool Accumulate>
__device__ __forceinline__ void trainBody(const float *__restrict__ X, const float *__restrict__ W,
                                          float *Y, int n, int iters, gmem_ctl *ctl) {
  const unsigned Bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  if (Clone) {
    volatile unsigned *Req = &ctl->request;
    volatile unsigned *Done = ctl->done;
    int Leave = threadIdx.x == 0 && (*Req != 0 || ((Done[Bid >> 5] >> (Bid & 31)) & 1));
    if (__syncthreads_or(Leave))
      return;
  }
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  const float Xv = I < n ? X[I] : 0.f;
  float Acc = 0.f;
  for (int It = 0; It < iters; ++It) {
    if (Clone && (It & 15) == 15) {
      volatile unsigned *Req = &ctl->request;
      if (__syncthreads_or(threadIdx.x == 0 && *Req == 2))
        return;
    }
    Acc = fmaf(Acc, 0.9999f, Xv * W[(It + threadIdx.x) & (WLen - 1)]);
  }
  if (I < n) {
    if (Accumulate)
      Y[I] += Acc;
    else
      Y[I] = Acc;
  }
  if (Clone) {
    __syncthreads();
    if (threadIdx.x == 0)
      atomicOr(&ctl->done[Bid >> 5], 1u << (Bid & 31));
  }
}

extern "C" __global__ void train_step(const float *__restrict__ X, const float *__restrict__ W,
                                      float *__restrict__ Y, int n, int iters) {
  trainBody<false, false>(X, W, Y, n, iters, nullptr);
}
extern "C" __global__ void train_accum(const float *__restrict__ X, const float *__restrict__ W,
                                       float *Y, int n, int iters) {
  trainBody<false, true>(X, W, Y, n, iters, nullptr);
}

#if GMEM_HAND_CLONES
// What the checkpoint pass emits for each kernel, written by hand (clone ABI
// version 2): the clone (the kernel's parameters, the control block, then
// the grid the user launched, which a non-persistent clone ignores: it runs
// on that grid) and its facts {magic, version 2, flags (1 loop checkpoints |
// 4 barriers; not 16, persistent), loop checkpoints, interval}.
extern "C" __global__ void __gmem_pre_train_step(const float *__restrict__ X,
                                                 const float *__restrict__ W, float *__restrict__ Y,
                                                 int n, int iters, gmem_ctl *ctl,
                                                 unsigned grid_x, unsigned grid_y,
                                                 unsigned grid_z) {
  trainBody<true, false>(X, W, Y, n, iters, ctl);
}
extern "C" __global__ void __gmem_pre_train_accum(const float *__restrict__ X,
                                                  const float *__restrict__ W, float *Y, int n,
                                                  int iters, gmem_ctl *ctl, unsigned grid_x,
                                                  unsigned grid_y, unsigned grid_z) {
  trainBody<true, true>(X, W, Y, n, iters, ctl);
}
extern "C" __device__ unsigned __gmem_pre_info_train_step[5] = {0x31504d47u, 2u, 5u, 1u, 16u};
extern "C" __device__ unsigned __gmem_pre_info_train_accum[5] = {0x31504d47u, 2u, 5u, 1u, 16u};
#endif

extern "C" __global__ void fill_random(float *P, size_t N, unsigned Seed, float Scale) {
  size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (I < N) {
    unsigned H = unsigned(I) * 2654435761u ^ Seed;
    H ^= H >> 13;
    H *= 0x5bd1e995u;
    H ^= H >> 15;
    P[I] = (float(H & 0xffff) / 65536.f - 0.5f) * Scale;
  }
}
