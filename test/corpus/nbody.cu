// All-pairs N-body (GPU Gems 3 ch. 31 / CUDA samples nbody): tiled force
// computation through shared memory, and the in-place integration step.

// acc[i] = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + eps^2)^(3/2); pos.w is the mass.
// GMEM-EXPECT: nbody_forces conditional
// GMEM-RUN: nbody_forces grid=32 block=256 args=buf:f32:32768:rand buf:f32:32768:zero i32:8192 f32:0.01
__global__ void nbody_forces(const float4 *pos, float4 *acc, int n, float soft2) {
  __shared__ float4 sh[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 pi = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float ax = 0.0f, ay = 0.0f, az = 0.0f;

  for (int tile = 0; tile < n; tile += blockDim.x) {
    int j = tile + threadIdx.x;
    sh[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    int cnt = n - tile;
    if (cnt > (int)blockDim.x) cnt = blockDim.x;
    for (int k = 0; k < cnt; k++) {
      float4 pj = sh[k];
      float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
      float r2 = dx * dx + dy * dy + dz * dz + soft2;
      float inv = rsqrtf(r2);
      float s = pj.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  if (i < n) acc[i] = make_float4(ax, ay, az, 0.0f);
}

// GMEM-EXPECT: nbody_integrate non-idempotent
// GMEM-RUN: nbody_integrate grid=32 block=256 args=buf:f32:32768:rand buf:f32:32768:rand buf:f32:32768:rand f32:0.01 f32:0.995 i32:8192
__global__ void nbody_integrate(float4 *pos, float4 *vel, const float4 *acc, float dt, float damping, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = pos[i];
  float4 v = vel[i];
  float4 a = acc[i];
  v.x = (v.x + a.x * dt) * damping;
  v.y = (v.y + a.y * dt) * damping;
  v.z = (v.z + a.z * dt) * damping;
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;
  pos[i] = p;
  vel[i] = v;
}
