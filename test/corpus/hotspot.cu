// One explicit time step of a HotSpot-like thermal simulation (Rodinia
// hotspot, without the pyramid blocking): reads power and the current
// temperature grid, writes the next temperature grid.

// GMEM-EXPECT: hotspot_step conditional
// GMEM-RUN: hotspot_step grid=16,32 block=32,16 args=buf:f32:262144:rand buf:f32:262144:rand buf:f32:262144:zero i32:512 i32:512 f32:0.5 f32:2.0 f32:2.0 f32:4.0 f32:0.01 f32:80.0
// GMEM-RUN: hotspot_step grid=16,32 block=32,16 args=buf:f32:262144:rand buf:f32:262144:rand ptr:0+0 i32:512 i32:512 f32:0.5 f32:2.0 f32:2.0 f32:4.0 f32:0.01 f32:80.0
__global__ void hotspot_step(const float *power, const float *temp_src, float *temp_dst,
                             int rows, int cols, float Cap, float Rx, float Ry, float Rz,
                             float step, float amb_temp) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= cols) return;

  int N = r > 0 ? r - 1 : r;
  int S = r < rows - 1 ? r + 1 : r;
  int W = c > 0 ? c - 1 : c;
  int E = c < cols - 1 ? c + 1 : c;

  int idx = r * cols + c;
  float t = temp_src[idx];
  float delta = (step / Cap) *
                (power[idx] +
                 (temp_src[S * cols + c] + temp_src[N * cols + c] - 2.0f * t) / Ry +
                 (temp_src[r * cols + E] + temp_src[r * cols + W] - 2.0f * t) / Rx +
                 (amb_temp - t) / Rz);
  temp_dst[idx] = t + delta;
}
