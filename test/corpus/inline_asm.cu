// Memory accessed through inline PTX, as hand-tuned kernels do for cache
// hints (ld.global.nc, st.global.cs). The analysis reads the asm's text:
// a load or store at a pointer operand, of the width its type says, is an
// access like any other (AsmMemoryAccesses.cpp).

// y[i] = 2 * x[i], the load through asm. In place (y == x) it doubles again
// on a second run.
// GMEM-EXPECT: asm_load_scale conditional
// GMEM-RUN: asm_load_scale grid=16 block=256 args=buf:f32:4096:rand buf:f32:4096:zero i32:4096
// GMEM-RUN: asm_load_scale grid=16 block=256 args=buf:f32:4096:rand ptr:0+0 i32:4096
__global__ void asm_load_scale(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v;
  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(x + i));
  y[i] = 2.0f * v;
}

// acc[i] += x[i], the store through asm (streaming hint).
// GMEM-EXPECT: asm_store_accumulate non-idempotent
// GMEM-RUN: asm_store_accumulate grid=16 block=256 args=buf:f32:4096:rand buf:f32:4096:rand i32:4096
__global__ void asm_store_accumulate(const float *x, float *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = acc[i] + x[i];
  asm volatile("st.global.cs.f32 [%0], %1;" :: "l"(acc + i), "f"(s) : "memory");
}

// Register-only asm (a funnel shift) next to ordinary accesses: the analysis
// may still see every access.
// GMEM-EXPECT: asm_register_only conditional
// GMEM-RUN: asm_register_only grid=16 block=256 args=buf:u32:4096:rand buf:u32:4096:zero i32:4096
__global__ void asm_register_only(const unsigned *x, unsigned *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = x[i], r;
  asm("shf.l.wrap.b32 %0, %1, %1, 7;" : "=r"(r) : "r"(v));
  y[i] = r;
}
