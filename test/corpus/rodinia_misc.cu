// Assorted kernels shaped after Rodinia: particlefilter (each particle finds
// the first CDF entry >= its draw, by linear or binary search, and copies
// that particle's position), streamcluster (pgain's per-point cost pass into
// a switch array and a per-point row of a work array), cfd (the step factor
// and the Runge-Kutta update over a struct-of-arrays, variable v of element
// i at [i + v*nelr]) and lud (in-place LU factorisation of one 16x16
// diagonal block in shared memory).

// Linear search, as in the benchmark's plain find-index kernel.  With xj
// aliasing u, each thread overwrites its own draw: a second launch searches
// for a different value.
// GMEM-EXPECT: pf_find_index conditional
// GMEM-RUN: pf_find_index grid=8 block=128 args=buf:f64:1000:rand buf:f64:1000:rand buf:f64:1000:iota buf:f64:1000:iota buf:f64:1000:zero buf:f64:1000:zero i32:1000
// GMEM-RUN: pf_find_index grid=8 block=128 args=buf:f64:1000:rand buf:f64:1000:rand buf:f64:1000:iota buf:f64:1000:iota ptr:3+0 buf:f64:1000:zero i32:1000
__global__ void pf_find_index(const double *arrayX, const double *arrayY, const double *cdf,
                              const double *u, double *xj, double *yj, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = u[i];
  int idx = -1;
  for (int x = 0; x < n; ++x) {
    if (cdf[x] >= v) {
      idx = x;
      break;
    }
  }
  if (idx == -1) idx = n - 1;
  xj[i] = arrayX[idx];
  yj[i] = arrayY[idx];
}

// Binary search (lower bound) over cdf[0, n); not found means the last one.
// GMEM-EXPECT: pf_find_index_bin conditional
// GMEM-RUN: pf_find_index_bin grid=16 block=256 args=buf:f64:4000:rand buf:f64:4000:rand buf:f64:4000:iota buf:f64:4000:iota buf:f64:4000:zero buf:f64:4000:zero i32:4000
// GMEM-RUN: pf_find_index_bin grid=16 block=256 args=buf:f64:4000:rand buf:f64:4000:rand buf:f64:4000:iota buf:f64:4000:iota ptr:3+0 buf:f64:4000:zero i32:4000
__global__ void pf_find_index_bin(const double *arrayX, const double *arrayY, const double *cdf,
                                  const double *u, double *xj, double *yj, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = u[i];
  int lo = 0, hi = n - 1, idx = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (cdf[mid] >= v) {
      idx = mid;
      hi = mid - 1;
    } else {
      lo = mid + 1;
    }
  }
  xj[i] = arrayX[idx];
  yj[i] = arrayY[idx];
}

// Thread 0 turns the weights into a CDF serially (cdf[x] = cdf[x-1] + w[x]).
// Every cdf element it reads it has written just before, so a second launch
// recomputes the same values: the precise class is conditional (cdf must not
// overlap w).  gmem-analyze sees cdf read and written at a constant distance
// and says non-idempotent (sound, below the precise class).  With w = cdf + 1
// element, step x reads cdf[x+1] before writing it, so a second launch reads
// the first launch's sums and changes memory.
// GMEM-EXPECT: pf_cdf_serial non-idempotent
// GMEM-RUN: pf_cdf_serial grid=1 block=32 args=buf:f64:4000:zero buf:f64:4000:rand i32:4000
// GMEM-RUN: pf_cdf_serial grid=1 block=32 args=buf:f64:4000:rand ptr:0+8 i32:3999
__global__ void pf_cdf_serial(double *cdf, const double *w, int n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  cdf[0] = w[0];
  for (int x = 1; x < n; ++x) cdf[x] = cdf[x - 1] + w[x];
}

// pgain cost pass for candidate centre x.  Points are stored column-major
// (coordinate k of point p at coord[k*num + p]); point p owns work row
// [p*stride, p*stride + stride) with stride >= K + 1.  Accumulates into the
// row in place.  2-D grid linearised as blockIdx.x + gridDim.x*blockIdx.y.
// GMEM-EXPECT: sc_compute_cost non-idempotent
// GMEM-RUN: sc_compute_cost grid=8,2 block=256 args=i32:4096 i32:8 i32:17 buf:f32:32768:rand buf:f32:4096:rand buf:f32:4096:rand buf:i32:4096:randint:0:4096 buf:i32:4096:randint:0:15 buf:u8:4096:zero buf:f32:65536:zero i32:15 i32:16
__global__ void sc_compute_cost(int num, int dim, int x, const float *coord, const float *weight,
                                const float *cost, const int *assign, const int *center_table,
                                unsigned char *switch_membership, float *work, int K,
                                int stride) {
  int bid = blockIdx.x + gridDim.x * blockIdx.y;
  int p = blockDim.x * bid + threadIdx.x;
  if (p >= num) return;
  float *row = work + p * stride;
  float d = 0.0f;
  for (int k = 0; k < dim; ++k) {
    float diff = coord[k * num + p] - coord[k * num + x];
    d += diff * diff;
  }
  float x_cost = d * weight[p];
  if (x_cost < cost[p]) {
    switch_membership[p] = 1;
    row[K] += x_cost - cost[p];
  } else {
    row[center_table[assign[p]]] += cost[p] - x_cost;
  }
}

// Same pass storing instead of accumulating, with the flag written either
// way: the work row slot comes from two levels of indirection.
// GMEM-EXPECT: sc_compute_cost_store conditional
// GMEM-RUN: sc_compute_cost_store grid=8,2 block=256 args=i32:4096 i32:8 i32:17 buf:f32:32768:rand buf:f32:4096:rand buf:f32:4096:rand buf:i32:4096:randint:0:4096 buf:i32:4096:randint:0:15 buf:u8:4096:const:7 buf:f32:65536:zero i32:15 i32:16
__global__ void sc_compute_cost_store(int num, int dim, int x, const float *coord,
                                      const float *weight, const float *cost, const int *assign,
                                      const int *center_table, unsigned char *switch_membership,
                                      float *work, int K, int stride) {
  int bid = blockIdx.x + gridDim.x * blockIdx.y;
  int p = blockDim.x * bid + threadIdx.x;
  if (p >= num) return;
  float d = 0.0f;
  for (int k = 0; k < dim; ++k) {
    float diff = coord[k * num + p] - coord[k * num + x];
    d += diff * diff;
  }
  float x_cost = d * weight[p];
  bool gain = x_cost < cost[p];
  switch_membership[p] = gain ? 1 : 0;
  int slot = gain ? K : center_table[assign[p]];
  work[p * stride + slot] = gain ? x_cost - cost[p] : cost[p] - x_cost;
}

#define CFD_NVAR 5
#define CFD_GAMMA 1.4f
#define CFD_RK 3

struct cfd_vec3 {
  float x, y, z;
};

__device__ inline cfd_vec3 cfd_velocity(float rho, cfd_vec3 mom) {
  cfd_vec3 v = {mom.x / rho, mom.y / rho, mom.z / rho};
  return v;
}

__device__ inline float cfd_pressure(float rho, float rhoE, float speed_sqd) {
  return (CFD_GAMMA - 1.0f) * (rhoE - 0.5f * rho * speed_sqd);
}

__device__ inline float cfd_sound_speed(float rho, float pressure) {
  return sqrtf(fabsf(CFD_GAMMA * pressure / rho));
}

// step_factors[i] = 0.5 / (sqrt(area) * (|velocity| + speed of sound)).
// With step_factors aliasing areas each thread rewrites its own area.
// GMEM-EXPECT: cfd_step_factor conditional
// GMEM-RUN: cfd_step_factor grid=40 block=256 args=i32:10000 buf:f32:50000:rand buf:f32:10000:const:2.0 buf:f32:10000:zero
// GMEM-RUN: cfd_step_factor grid=40 block=256 args=i32:10000 buf:f32:50000:rand buf:f32:10000:const:2.0 ptr:2+0
__global__ void cfd_step_factor(int nelr, const float *variables, const float *areas,
                                float *step_factors) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= nelr) return;
  float rho = variables[i];
  cfd_vec3 mom = {variables[i + 1 * nelr], variables[i + 2 * nelr], variables[i + 3 * nelr]};
  float rhoE = variables[i + 4 * nelr];
  cfd_vec3 vel = cfd_velocity(rho, mom);
  float speed_sqd = vel.x * vel.x + vel.y * vel.y + vel.z * vel.z;
  float p = cfd_pressure(rho, rhoE, speed_sqd);
  float c = cfd_sound_speed(rho, p);
  step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + c));
}

// Runge-Kutta stage j: variables = old_variables + factor * fluxes for all
// five variables of element i.  With variables aliasing old_variables each
// element is read and written by one thread.
// GMEM-EXPECT: cfd_time_step conditional
// GMEM-RUN: cfd_time_step grid=40 block=256 args=i32:1 i32:10000 buf:f32:50000:rand buf:f32:50000:zero buf:f32:10000:rand buf:f32:50000:rand
// GMEM-RUN: cfd_time_step grid=40 block=256 args=i32:1 i32:10000 buf:f32:50000:rand ptr:2+0 buf:f32:10000:rand buf:f32:50000:rand
__global__ void cfd_time_step(int j, int nelr, const float *old_variables, float *variables,
                              const float *step_factors, const float *fluxes) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= nelr) return;
  float factor = step_factors[i] / float(CFD_RK + 1 - j);
  for (int v = 0; v < CFD_NVAR; ++v)
    variables[i + v * nelr] = old_variables[i + v * nelr] + factor * fluxes[i + v * nelr];
}

#define LUD_B 16

// Factor the 16x16 block at (offset, offset) of a dim x dim matrix in place
// (L below the diagonal with unit diagonal implied, U on and above it).
// Launch with one block of 16 threads.  Rows 1..15 are written back; a
// second launch factors the factors.
// GMEM-EXPECT: lud_diagonal non-idempotent
// GMEM-RUN: lud_diagonal grid=1 block=16 args=buf:f32:4096:rand i32:64 i32:16
// GMEM-RUN: lud_diagonal grid=1 block=16 args=buf:f32:4096:rand i32:64 i32:48
__global__ void lud_diagonal(float *m, int dim, int offset) {
  __shared__ float sh[LUD_B][LUD_B];
  int tx = threadIdx.x;
  int base = offset * dim + offset;
  for (int r = 0; r < LUD_B; ++r) sh[r][tx] = m[base + r * dim + tx];
  __syncthreads();

  for (int k = 0; k < LUD_B - 1; ++k) {
    if (tx > k) {  // column k of L
      float s = sh[tx][k];
      for (int q = 0; q < k; ++q) s -= sh[tx][q] * sh[q][k];
      sh[tx][k] = s / sh[k][k];
    }
    __syncthreads();
    if (tx > k) {  // row k+1 of U
      float s = sh[k + 1][tx];
      for (int q = 0; q <= k; ++q) s -= sh[k + 1][q] * sh[q][tx];
      sh[k + 1][tx] = s;
    }
    __syncthreads();
  }
  for (int r = 1; r < LUD_B; ++r) m[base + r * dim + tx] = sh[r][tx];
}
