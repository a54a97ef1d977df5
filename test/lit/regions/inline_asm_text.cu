// Inline asm is judged by its text: PTX reaches memory only through memory
// instructions. A volatile warp shuffle (as CUB emits) touches nothing; a
// texture fetch reads memory the analysis cannot name; a store through an
// asm pointer operand writes the bytes its type says, there.
// RUN: %gmem-analyze %s | FileCheck %s
// CHECK-LABEL: kernel shuffle_sum
// CHECK:       class:  conditional -- reads 'in' and writes 'out'
// CHECK-NOT:   unknown memory
// CHECK-LABEL: kernel tex_read
// CHECK:       class:  unknown -- reads memory it cannot bound (inline asm may touch any memory)
// CHECK-NOT:   unknown memory write
// CHECK-LABEL: kernel asm_store
// CHECK:       #0 out : ptr  W
// CHECK-NEXT:      write: [0, 4*blockDim.x)
__global__ void shuffle_sum(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f, r;
  asm volatile("{ .reg .pred p; shfl.sync.down.b32 %0|p, %1, 1, 31, -1; }" : "=f"(r) : "f"(v));
  if (i < n) out[i] = v + r;
}
__global__ void tex_read(cudaTextureObject_t t, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i);
}
__global__ void asm_store(float *out, float v) {
  asm volatile("st.global.f32 [%0], %1;" :: "l"(out + threadIdx.x), "f"(v));
}
