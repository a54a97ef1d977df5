// Adversarial round 48: kernels that read no global memory but write
// values (or at places) that change from one launch to the next: clock
// counters, the global timer, the SM and warp-slot ids. A second launch on
// the first one's output does not reproduce it byte for byte, so under the
// literal definition (run again on its own output, same memory) none of
// these is idempotent, although re-running a block is harmless for most
// uses. They check that definition; hand-checked (inline PTX, no host
// emulation).

// A timestamp per thread.
// GMEM-EXPECT: stamp_clock64 non-idempotent
// GMEM-RUN: stamp_clock64 grid=2 block=64 args=buf:u64:128:zero
__global__ void stamp_clock64(unsigned long long *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = clock64();
}

// The global nanosecond timer.
// GMEM-EXPECT: stamp_globaltimer non-idempotent
// GMEM-RUN: stamp_globaltimer grid=1 block=32 args=buf:u64:32:zero
__global__ void stamp_globaltimer(unsigned long long *out) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  out[threadIdx.x] = t;
}

// The SM a block ran on (differs between launches of a multi-block grid).
// GMEM-EXPECT: record_smid non-idempotent
// GMEM-RUN: record_smid grid=264 block=32 args=buf:u32:264:zero
__global__ void record_smid(unsigned *out) {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

// Control: %laneid is a function of the thread, so this one is idempotent.
// GMEM-EXPECT: laneid_reg idempotent
// GMEM-RUN: laneid_reg grid=1 block=96 args=buf:f32:64:zero
__global__ void laneid_reg(float *p) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  p[lane * 2] = 6.0f;
}
