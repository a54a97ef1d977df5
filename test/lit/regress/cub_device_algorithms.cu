// CUB's own device-wide kernels (CUDA 13's CCCL), compiled as a user's
// program instantiates them. Two things went wrong here before:
//  * CUB loads its input through inline PTX (LOAD_LDG: `ld.global.nc`), so
//    every reduction was `unknown`, its input read "whole allocation";
//    AsmMemoryAccesses.cpp now reads the text.
//  * DeviceScan's and DeviceSelect's decoupled look-back leaves its wait
//    loop on `__any_sync` of the statuses a warp polled (inline PTX
//    `ld.relaxed.gpu`), and CheckpointSpinWait did not look through the vote:
//    they got clones with entry checks, which can leave a started tile
//    spinning on a predecessor that a stop skipped. They now get none.
//  * thrust::transform runs CUB's DeviceTransform, which prefetches its
//    tiles with `prefetch.global.L2`: a cache hint, no access.
// RUN: %gmem-analyze %s | FileCheck %s
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

struct Saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

void run(float *in, float *out, int n, int *keys, int *flags, int *sel, int *nsel) {
  void *tmp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
  cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);
  cub::DeviceSelect::Flagged(tmp, bytes, keys, flags, sel, nsel, n);
  thrust::transform(thrust::device, in, in + n, out, out, Saxpy{2.f});
}

// CHECK-LABEL: kernel void cub::{{.*}}::DeviceReduceSingleTileKernel<
// CHECK:         class:  conditional -- reads 'd_in' and writes 'd_out'
// CHECK:         #0 d_in : ptr  R
// CHECK-NEXT:        read:  [0,
// CHECK:         #1 d_out : ptr  W
// CHECK-NEXT:        write: [0, 4)
// CHECK-NOT:     unknown memory

// CHECK-LABEL: kernel void cub::{{.*}}::DeviceReduceKernel<
// CHECK:         class:  conditional -- reads 'd_in' and writes 'd_out'
// CHECK:         #1 d_out : ptr  W
// CHECK-NEXT:        write: [0, 4*gridDim.x)
// CHECK-NOT:     unknown memory
// CHECK:         preempt: between CTAs

// CHECK-LABEL: kernel void cub::{{.*}}::DeviceScanKernel<
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write

// CHECK-LABEL: kernel void cub::{{.*}}::DeviceSelectSweepKernel<
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write

// CHECK-LABEL: kernel void cub::{{.*}}::transform_kernel<
// CHECK:         class:  conditional -- reads 'ins+0' and writes 'out'
// CHECK-NOT:     unknown memory
