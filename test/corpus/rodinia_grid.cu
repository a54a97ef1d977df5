// Grid kernels shaped after Rodinia gaussian (the Fan1 / Fan2 elimination
// steps of one pivot t on an n x n row-major system a x = b), srad (speckle
// reducing anisotropic diffusion: directional derivatives through clamped
// neighbour index tables, then the divergence update) and nw
// (Needleman-Wunsch: one anti-diagonal of 16x16 blocks of the score matrix,
// each block filled in shared memory from its top row and left column) and
// hotspot with pyramid blocking (several time steps per launch in shared
// memory).

// Multipliers of pivot t: m[r][t] = a[r][t] / a[t][t] for rows r > t.  With
// m aliasing a, each thread rewrites the element it read (the pivot row is
// never written), so a second launch divides once more.
// GMEM-EXPECT: gauss_fan1 conditional
// GMEM-RUN: gauss_fan1 grid=2 block=128 args=buf:f32:65536:rand buf:f32:65536:zero i32:256 i32:10
// GMEM-RUN: gauss_fan1 grid=2 block=128 args=buf:f32:65536:rand ptr:0+0 i32:256 i32:10
__global__ void gauss_fan1(const float *a, float *m, int n, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1 - t) return;
  int r = i + t + 1;
  m[r * n + t] = a[r * n + t] / a[t * n + t];
}

// Elimination of column t below the pivot: a[r][c] -= m[r][t] * a[t][c] for
// r > t, c >= t, and b[r] -= m[r][t] * b[t].  In place on a and b.
// GMEM-EXPECT: gauss_fan2 non-idempotent
// GMEM-RUN: gauss_fan2 grid=16,16 block=16,16 args=buf:f32:65536:rand buf:f32:65536:rand buf:f32:256:rand i32:256 i32:10
__global__ void gauss_fan2(const float *m, float *a, float *b, int n, int t) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n - 1 - t || y >= n - t) return;
  int r = x + 1 + t;
  int c = y + t;
  float mult = m[r * n + t];
  a[r * n + c] -= mult * a[t * n + c];
  if (y == 0) b[r] -= mult * b[t];
}

// Fan1 with the multipliers packed behind the matrix in the same buffer
// (ab[n*n + r*n + t]).  With 0 <= t < n the rows read (< n) never reach the
// rows written, so a second launch reads the same values: idempotent.  The
// guard on t leaves the read bounds too complex for gmem-analyze, which says
// unknown (below the precise class, but sound).
// GMEM-EXPECT: gauss_fan1_packed unknown
// GMEM-RUN: gauss_fan1_packed grid=2 block=128 args=buf:f32:131072:rand i32:256 i32:10
__global__ void gauss_fan1_packed(float *ab, int n, int t) {
  if (t < 0 || t >= n) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1 - t) return;
  int r = i + t + 1;
  ab[n * n + r * n + t] = ab[r * n + t] / ab[t * n + t];
}

// SRAD pass 1: derivatives towards the four neighbours, whose row/column
// come from index tables and are clamped into the grid, and the diffusion
// coefficient, each into its own array.
// GMEM-EXPECT: srad_derivs conditional
// GMEM-RUN: srad_derivs grid=16,12 block=16,16 args=buf:f32:49152:rand buf:i32:192:randint:0:192 buf:i32:192:randint:0:192 buf:i32:256:randint:0:256 buf:i32:256:randint:0:256 buf:f32:49152:zero buf:f32:49152:zero buf:f32:49152:zero buf:f32:49152:zero buf:f32:49152:zero i32:192 i32:256 f32:0.05
__global__ void srad_derivs(const float *J, const int *iN, const int *iS, const int *jW,
                            const int *jE, float *dN, float *dS, float *dW, float *dE,
                            float *coef, int rows, int cols, float q0sqr) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;

  int rn = min(max(iN[i], 0), rows - 1);
  int rs = min(max(iS[i], 0), rows - 1);
  int cw = min(max(jW[j], 0), cols - 1);
  int ce = min(max(jE[j], 0), cols - 1);

  int k = i * cols + j;
  float Jc = J[k];
  float gN = J[rn * cols + j] - Jc;
  float gS = J[rs * cols + j] - Jc;
  float gW = J[i * cols + cw] - Jc;
  float gE = J[i * cols + ce] - Jc;

  float inv = 1.0f / (Jc * Jc + 1e-6f);
  float G2 = (gN * gN + gS * gS + gW * gW + gE * gE) * inv;
  float L = (gN + gS + gW + gE) / (Jc + 1e-3f);
  float num = 0.5f * G2 - 0.0625f * L * L;
  float den = 1.0f + 0.25f * L;
  float qsqr = num / (den * den + 1e-6f);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float cc = 1.0f / (1.0f + den);
  cc = cc < 0.0f ? 0.0f : (cc > 1.0f ? 1.0f : cc);

  dN[k] = gN;
  dS[k] = gS;
  dW[k] = gW;
  dE[k] = gE;
  coef[k] = cc;
}

// SRAD pass 2: J += lambda/4 * divergence, with the south and east
// coefficients fetched through the (unclamped) index tables.  In place on J.
// GMEM-EXPECT: srad_update non-idempotent
// GMEM-RUN: srad_update grid=16,12 block=16,16 args=buf:f32:49152:rand buf:f32:49152:rand buf:i32:192:randint:0:192 buf:i32:256:randint:0:256 buf:f32:49152:rand buf:f32:49152:rand buf:f32:49152:rand buf:f32:49152:rand i32:192 i32:256 f32:0.5
__global__ void srad_update(float *J, const float *coef, const int *iS, const int *jE,
                            const float *dN, const float *dS, const float *dW, const float *dE,
                            int rows, int cols, float lambda) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;
  int k = i * cols + j;
  float cN = coef[k];
  float cS = coef[iS[i] * cols + j];
  float cW = coef[k];
  float cE = coef[i * cols + jE[j]];
  float div = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
  J[k] = J[k] + 0.25f * lambda * div;
}

#define NW_B 16

// One anti-diagonal `diag` of 16x16 blocks, block columns bx0 .. bx0+grid-1.
// score has `cols` columns; row 0 and column 0 are the border.  A block reads
// its north-west corner, the row above and the column left of it (cells of
// blocks on earlier diagonals) and writes its 16x16 interior.  Within a launch
// those never meet when cols >= 16 * (blocks per row) + 1, but for a small
// cols a block's left column is its own interior: in general reads and
// writes of score overlap, which gmem-analyze reports as unknown (the
// distance between a read and a write is not constant).
// GMEM-EXPECT: nw_diagonal unknown
// GMEM-RUN: nw_diagonal grid=5 block=16 args=buf:i32:16641:randint:-10:10 buf:i32:16641:randint:-50:50 i32:129 i32:10 i32:4 i32:0
// GMEM-RUN: nw_diagonal grid=5 block=16 args=buf:i32:16641:randint:-10:10 buf:i32:16641:randint:-50:50 i32:129 i32:10 i32:10 i32:3
__global__ void nw_diagonal(const int *ref, int *score, int cols, int penalty, int diag,
                            int bx0) {
  __shared__ int s[NW_B + 1][NW_B + 1];
  __shared__ int rf[NW_B][NW_B];
  int tx = threadIdx.x;
  int bx = bx0 + blockIdx.x;
  int by = diag - bx;
  int base = by * NW_B * cols + bx * NW_B;  // north-west corner cell

  if (tx == 0) s[0][0] = score[base];
  for (int y = 0; y < NW_B; ++y) rf[y][tx] = ref[base + (y + 1) * cols + tx + 1];
  s[tx + 1][0] = score[base + (tx + 1) * cols];
  s[0][tx + 1] = score[base + tx + 1];
  __syncthreads();

  // 2*16-1 waves; in wave w thread tx fills cell (w - tx + 1, tx + 1).
  for (int w = 0; w < 2 * NW_B - 1; ++w) {
    int x = tx + 1;
    int y = w - tx + 1;
    if (y >= 1 && y <= NW_B) {
      int d = s[y - 1][x - 1] + rf[y - 1][x - 1];
      int up = s[y - 1][x] - penalty;
      int left = s[y][x - 1] - penalty;
      s[y][x] = max(d, max(up, left));
    }
    __syncthreads();
  }
  for (int y = 1; y <= NW_B; ++y) score[base + y * cols + tx + 1] = s[y][tx + 1];
}

#define HS_B 16

// HotSpot with pyramid blocking (Rodinia hotspot proper): each 16x16 block
// loads a tile with a halo of `iteration` cells (border_* = iteration),
// advances it `iteration` time steps in shared memory, the valid part
// shrinking by one ring per step, and writes only the cells still valid at
// the end (tile origin span*block - border, span = 16 - 2*iteration).  The
// written cells of neighbouring blocks do not overlap.  gmem-analyze finds
// all three index bounds too complex and reports whole allocations.
// GMEM-EXPECT: hotspot_pyramid conditional
// GMEM-RUN: hotspot_pyramid grid=43,43 block=16,16 args=i32:2 buf:f32:262144:rand buf:f32:262144:rand buf:f32:262144:zero i32:512 i32:512 i32:2 i32:2 f32:0.5 f32:2.0 f32:2.0 f32:4.0 f32:0.01
// GMEM-RUN: hotspot_pyramid grid=32,50 block=16,16 args=i32:3 buf:f32:160000:rand buf:f32:160000:rand buf:f32:160000:zero i32:320 i32:500 i32:3 i32:3 f32:0.5 f32:2.0 f32:2.0 f32:4.0 f32:0.01
__global__ void hotspot_pyramid(int iteration, const float *power, const float *temp_src,
                                float *temp_dst, int grid_cols, int grid_rows, int border_cols,
                                int border_rows, float Cap, float Rx, float Ry, float Rz,
                                float step) {
  __shared__ float t_on[HS_B][HS_B], p_on[HS_B][HS_B], t_nx[HS_B][HS_B];
  int tx = threadIdx.x, ty = threadIdx.y;
  int span = HS_B - 2 * iteration;
  int y0 = span * blockIdx.y - border_rows, x0 = span * blockIdx.x - border_cols;
  int y = y0 + ty, x = x0 + tx;
  int idx = grid_cols * y + x;
  if (y >= 0 && y < grid_rows && x >= 0 && x < grid_cols) {
    t_on[ty][tx] = temp_src[idx];
    p_on[ty][tx] = power[idx];
  }
  __syncthreads();

  // Part of the tile inside the grid, and clamped neighbours within it.
  int ylo = y0 < 0 ? -y0 : 0, xlo = x0 < 0 ? -x0 : 0;
  int yhi = y0 + HS_B - 1 > grid_rows - 1 ? grid_rows - 1 - y0 : HS_B - 1;
  int xhi = x0 + HS_B - 1 > grid_cols - 1 ? grid_cols - 1 - x0 : HS_B - 1;
  int n = max(ty - 1, ylo), s = min(ty + 1, yhi);
  int w = max(tx - 1, xlo), e = min(tx + 1, xhi);

  bool done = false;
  for (int it = 0; it < iteration; ++it) {
    done = false;
    if (tx > it && tx < HS_B - 1 - it && ty > it && ty < HS_B - 1 - it && tx >= xlo &&
        tx <= xhi && ty >= ylo && ty <= yhi) {
      done = true;
      float c = t_on[ty][tx];
      t_nx[ty][tx] = c + (step / Cap) * (p_on[ty][tx] + (t_on[s][tx] + t_on[n][tx] - 2.0f * c) / Ry +
                                         (t_on[ty][e] + t_on[ty][w] - 2.0f * c) / Rx +
                                         (80.0f - c) / Rz);
    }
    __syncthreads();
    if (it == iteration - 1) break;
    if (done) t_on[ty][tx] = t_nx[ty][tx];
    __syncthreads();
  }
  if (done) temp_dst[idx] = t_nx[ty][tx];
}
