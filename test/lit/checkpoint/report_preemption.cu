// gmem-analyze says, per kernel, how a launch can be stopped: inside loops,
// only between CTAs, or not at all, with the checkpoint pass's reason for
// anything it held back (the issue's "left unpreemptible in-loop and say
// so"). Read from the compiled module: the info word the runtime reads, the
// clone forms, and the pass's notes.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --json | FileCheck %s --check-prefix=JSON
// RUN: env GMEM_CHECKPOINT_LOOPS=0 %gmem-analyze %s | FileCheck %s --check-prefix=NOLOOPS
// RUN: env GMEM_CHECKPOINTS=0 %gmem-analyze %s | FileCheck %s --check-prefix=OFF
// RUN: env GMEM_CHECKPOINT_SEG_SCALE=0 %gmem-analyze %s | FileCheck %s --check-prefix=NOSEG
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// OFF-NOT: preempt:

// CHECK-LABEL: kernel scale(float*, int)
// CHECK:       preempt: in loops (1 loop checkpoint) and between CTAs; persistent forms: full light alt free; loop segments scalable 1-8x per launch
// JSON:        "symbol": "_Z5scalePfi"
// JSON:        "preemption": {"clone": true, "persistent": true, "in_loop": true, "loop_checkpoints": 1, "forms": ["full", "light", "alt", "free"], "notes": ["loop segments scalable 1-8x per launch (the runtime may run fewer, longer segments where that is faster and stops stay prompt)", "one grid-stride loop up to 'n': an idempotent launch may run on a larger grid, one trip per virtual CTA"]}
// NOSEG-LABEL: kernel scale(float*, int)
// NOSEG:       preempt: in loops (1 loop checkpoint) and between CTAs; persistent forms: full light alt free; one grid-stride loop up to 'n': an idempotent launch may run on a larger grid, one trip per virtual CTA{{$}}
// NOLOOPS-LABEL: kernel scale(float*, int)
// NOLOOPS:       preempt: between CTAs (no loop checkpoints); persistent forms: full light free; one grid-stride loop up to 'n': an idempotent launch may run on a larger grid, one trip per virtual CTA; no loop checkpoints: GMEM_CHECKPOINT_LOOPS=0
__global__ void scale(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    x[i] *= 3.0f;
}

// A grid-wide barrier: skipping a CTA at its entry would leave the others
// waiting in grid.sync forever.
// CHECK-LABEL: kernel grid_scale(float*, int)
// CHECK:       preempt: not preemptible (no clone; the runtime launches the kernel itself); no clone: inline asm '%envreg (cooperative groups grid sync)'
// JSON:        "symbol": "_Z10grid_scalePfi"
// JSON:        "preemption": {"clone": false, "persistent": false, "in_loop": false, "loop_checkpoints": 0, "forms": [], "notes": ["no clone: inline asm '%envreg (cooperative groups grid sync)'"]}
__global__ void grid_scale(float *x, int n) {
  cg::grid_group g = cg::this_grid();
  for (int i = g.thread_rank(); i < n; i += g.size())
    x[i] *= 2.0f;
  g.sync();
  if (g.thread_rank() == 0)
    x[0] = 1.0f;
}

// A handoff from CTA b to CTA b + 1 read with atomicAdd(p, 0): a CTA
// stopped before its handoff would leave the next one spinning.
// CHECK-LABEL: kernel handoff(int*, float*)
// CHECK:       preempt: not preemptible (no clone; the runtime launches the kernel itself); no clone: a loop in 'handoff' waits on memory other threads write
__global__ void handoff(int *flag, float *out) {
  if (threadIdx.x == 0)
    while (atomicAdd(&flag[blockIdx.x], 0) == 0) {
    }
  __syncthreads();
  out[blockIdx.x] = 1.0f;
  if (threadIdx.x == 0)
    atomicExch(&flag[blockIdx.x + 1], 1);
}

// A call the pass cannot see into may synchronise: entry checkpoints only.
// CHECK-LABEL: kernel opaque(float*, int)
// CHECK:       preempt: between CTAs (no loop checkpoints); grid forms: full; not persistent: calls code the pass cannot see into; no loop checkpoints: call to external '_Z6helperPf'
extern __device__ void helper(float *);
__global__ void opaque(float *x, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    helper(x + i);
}
