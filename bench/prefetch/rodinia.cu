// Rodinia-like workloads for the oversubscription benchmark:
//   hotspot     thermal simulation, 2 time steps per repetition ping-ponging
//               between two temperature grids, each step launched in row
//               bands (a band reads its rows and the two next to it)
//   pathfinder  dynamic programming down the rows of a wall, one launch per
//               row (Rodinia launches a pyramid of rows per kernel; one row
//               keeps each launch's footprint exact)
#include "apps.h"
#include "common.h"

namespace pf {

// One hotspot step on the band of Rows rows starting at row R0 of a
// RowsTotal x Cols grid. Neighbour rows and columns are clamped at the
// grid's border; indices are computed with min/max (not by choosing between
// pointers) so the analysis bounds the band's reads exactly.
__global__ void hotspotKernel(const float *__restrict__ T, const float *__restrict__ Power,
                              float *__restrict__ Out, int R0, int Rows, int RowsTotal, int Cols) {
  int C = blockIdx.x * blockDim.x + threadIdx.x, R = blockIdx.y * blockDim.y + threadIdx.y;
  if (R >= Rows || C >= Cols)
    return;
  const float StepDivCap = 0.1f, Rx1 = 0.1f, Ry1 = 0.1f, Rz1 = 0.05f, Amb = 0.5f;
  int Row = R0 + R;
  int Up = max(Row - 1, 0), Down = min(Row + 1, RowsTotal - 1);
  int Left = max(C - 1, 0), Right = min(C + 1, Cols - 1);
  float Mid = T[Row * Cols + C];
  float N = T[Up * Cols + C], S = T[Down * Cols + C], W = T[Row * Cols + Left], E = T[Row * Cols + Right];
  Out[Row * Cols + C] = Mid + StepDivCap * (Power[Row * Cols + C] + (S + N - 2 * Mid) * Ry1 +
                                            (E + W - 2 * Mid) * Rx1 + (Amb - Mid) * Rz1);
}

__global__ void pathInitKernel(const float *__restrict__ Row0, float *__restrict__ Src, int Cols) {
  int C = blockIdx.x * blockDim.x + threadIdx.x;
  if (C < Cols)
    Src[C] = Row0[C];
}

// dst[c] = wall[c] + min(src[c-1], src[c], src[c+1]) for one row of the wall.
__global__ void pathRowKernel(const float *__restrict__ Wall, const float *__restrict__ Src, float *__restrict__ Dst,
                              int Cols) {
  int C = blockIdx.x * blockDim.x + threadIdx.x;
  if (C < Cols) {
    float M = Src[C];
    if (C > 0)
      M = fminf(M, Src[C - 1]);
    if (C < Cols - 1)
      M = fminf(M, Src[C + 1]);
    Dst[C] = Wall[C] + M;
  }
}

bool makeRodiniaApp(const std::string &Name, size_t Target, App &A) {
  A.Name = Name;
  char Shape[128];
  if (Name == "hotspot") {
    const int Cols = 8192, Steps = 2;
    int RowsTotal = (int)(Target / ((size_t)Cols * 4 * 3) / Panels * Panels);
    float *Temp = addBuffer(A, "temp", (size_t)RowsTotal * Cols, true);
    float *Power = addBuffer(A, "power", (size_t)RowsTotal * Cols, false);
    float *Temp2 = addBuffer(A, "temp2", (size_t)RowsTotal * Cols, false);
    int Band = RowsTotal / Panels;
    A.Run = [=] {
      float *In = Temp, *Out = Temp2;
      for (int S = 0; S < Steps; ++S) {
        for (int P = 0; P < Panels; ++P) {
          hotspotKernel<<<dim3((Cols + 31) / 32, (Band + 7) / 8), dim3(32, 8)>>>(In, Power, Out, P * Band, Band,
                                                                                RowsTotal, Cols);
          PF_CHECK(cudaGetLastError());
        }
        std::swap(In, Out); // after an even number of steps the result is in temp
      }
    };
    A.LaunchesPerRep = Steps * Panels;
    A.MaxLaunchBytes = ((size_t)3 * Band + 2) * Cols * 4;
    std::snprintf(Shape, sizeof Shape, "rows=%d cols=%d steps=%d", RowsTotal, Cols, Steps);
  } else if (Name == "pathfinder") {
    const int Cols = 1 << 20;
    // Even, so that the Rows - 1 steps leave the result in dst.
    int Rows = (int)(Target / ((size_t)Cols * 4) - 2) / 2 * 2;
    float *Wall = addBuffer(A, "wall", (size_t)Rows * Cols, false);
    float *Src = addBuffer(A, "src", Cols, false), *Dst = addBuffer(A, "dst", Cols, true);
    A.Run = [=] {
      pathInitKernel<<<Cols / 256, 256>>>(Wall, Src, Cols);
      PF_CHECK(cudaGetLastError());
      float *From = Src, *To = Dst;
      for (int R = 1; R < Rows; ++R) {
        pathRowKernel<<<Cols / 256, 256>>>(Wall + (size_t)R * Cols, From, To, Cols);
        PF_CHECK(cudaGetLastError());
        std::swap(From, To);
      }
    };
    A.LaunchesPerRep = Rows;
    A.MaxLaunchBytes = (size_t)3 * Cols * 4;
    std::snprintf(Shape, sizeof Shape, "rows=%d cols=%d", Rows, Cols);
  } else {
    return false;
  }
  A.Shape = Shape;
  return true;
}

} // namespace pf
