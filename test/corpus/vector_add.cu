// Element-wise vector addition, shaped after the CUDA samples' vectorAdd.

// C = A + B, out of place: A/B/C may alias at a launch.
// GMEM-EXPECT: vec_add conditional
// GMEM-RUN: vec_add grid=3907 block=256 args=buf:f32:1000000:rand buf:f32:1000000:rand buf:f32:1000000:zero i32:1000000
// GMEM-RUN: vec_add grid=3907 block=256 args=buf:f32:1000000:rand buf:f32:1000000:rand ptr:0+0 i32:1000000
__global__ void vec_add(const float *A, const float *B, float *C, int numElements) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < numElements) {
    C[i] = A[i] + B[i];
  }
}
