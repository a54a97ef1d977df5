// REPRO (tool crash, not a soundness bug): a recursive __noinline__ device
// function that gmem's analyzeModule inlines into the kernel up to its budget;
// the clean-up pipeline "function(sroa,early-cse,instcombine,simplifycfg)"
// (KernelAnalysis.cpp analyzeModule) runs LLVM 19's InstCombine with
// verify-fixpoint, which aborts the whole device compile:
//   /tmp/b49/bin/gmem-analyze repro_recursion_crash.cu
//   -> gmem-analyze: error: ...: device compile failed: fatal error: error in
//      backend: Instruction Combining did not reach a fixpoint after 1 iterations
// Plain clang -O2 compiles the file.
// Recursion that writes: fill a[i], a[i+s], a[i+2s] ... depth levels.
__device__ __noinline__ void rec_fill(float *a, int i, int s, int depth) {
  if (depth <= 0) return;
  a[i] = (float)depth;
  rec_fill(a, i + s, s, depth - 1);
  a[i] += 0.0f; // keeps it from being a tail call
}
// Truth: writes a[t + k*64] for k < depth (and reads them: a[i] += 0 is a
// read of its own store, same value -> byte idempotent, but reads what it writes).
// GMEM-EXPECT: recursive_fill non-idempotent
// GMEM-RUN: recursive_fill grid=1 block=64 args=buf:f32:1024:zero i32:4
// GMEM-RUN: recursive_fill grid=1 block=64 args=buf:f32:1024:zero i32:16
__global__ void recursive_fill(float *a, int depth) {
  rec_fill(a, threadIdx.x, 64, depth);
}

