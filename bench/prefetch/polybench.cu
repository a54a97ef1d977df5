// PolyBench-GPU-like workloads for the oversubscription benchmark: gemm,
// 2mm, atax, bicg, mvt, gesummv, 2dconv, 3dconv. Kernels follow
// PolyBench-GPU's decompositions (one thread per output element, 32x8 or
// 256-thread blocks; 3dconv launches one kernel per plane); the matrix and
// 2D kernels are launched per row panel (pointer offsets into the matrices)
// so that one launch touches about an eighth of the footprint (apps.h).
#include "apps.h"
#include "common.h"

namespace pf {

__global__ void gemmKernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                           int Rows, int NJ, int NK, float Alpha, float Beta) {
  int J = blockIdx.x * blockDim.x + threadIdx.x, I = blockIdx.y * blockDim.y + threadIdx.y;
  if (I < Rows && J < NJ) {
    float Acc = 0;
    for (int K = 0; K < NK; ++K)
      Acc += A[I * NK + K] * B[K * NJ + J];
    C[I * NJ + J] = Alpha * Acc + Beta * C[I * NJ + J];
  }
}

__global__ void mm2Kernel1(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ Tmp,
                           int Rows, int NJ, int NK, float Alpha) {
  int J = blockIdx.x * blockDim.x + threadIdx.x, I = blockIdx.y * blockDim.y + threadIdx.y;
  if (I < Rows && J < NJ) {
    float Acc = 0;
    for (int K = 0; K < NK; ++K)
      Acc += Alpha * A[I * NK + K] * B[K * NJ + J];
    Tmp[I * NJ + J] = Acc;
  }
}

__global__ void mm2Kernel2(const float *__restrict__ Tmp, const float *__restrict__ C, float *__restrict__ D,
                           int Rows, int NL, int NJ, float Beta) {
  int L = blockIdx.x * blockDim.x + threadIdx.x, I = blockIdx.y * blockDim.y + threadIdx.y;
  if (I < Rows && L < NL) {
    float Acc = D[I * NL + L] * Beta;
    for (int J = 0; J < NJ; ++J)
      Acc += Tmp[I * NJ + J] * C[J * NL + L];
    D[I * NL + L] = Acc;
  }
}

// tmp = A x (one thread per row of the panel).
__global__ void ataxKernel1(const float *__restrict__ A, const float *__restrict__ X, float *__restrict__ Tmp,
                            int Rows, int NY) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Rows) {
    float S = 0;
    for (int J = 0; J < NY; ++J)
      S += A[I * NY + J] * X[J];
    Tmp[I] = S;
  }
}

// y (+)= A^T tmp over the panel's rows (one thread per column).
__global__ void ataxKernel2(const float *__restrict__ A, const float *__restrict__ Tmp, float *__restrict__ Y,
                            int Rows, int NY, int Accumulate) {
  int J = blockIdx.x * blockDim.x + threadIdx.x;
  if (J < NY) {
    float S = Accumulate ? Y[J] : 0.0f;
    for (int I = 0; I < Rows; ++I)
      S += A[I * NY + J] * Tmp[I];
    Y[J] = S;
  }
}

// s (+)= r^T A over the panel's rows (one thread per column).
__global__ void bicgKernel1(const float *__restrict__ A, const float *__restrict__ R, float *__restrict__ S,
                            int Rows, int NY, int Accumulate) {
  int J = blockIdx.x * blockDim.x + threadIdx.x;
  if (J < NY) {
    float Acc = Accumulate ? S[J] : 0.0f;
    for (int I = 0; I < Rows; ++I)
      Acc += R[I] * A[I * NY + J];
    S[J] = Acc;
  }
}

// q = A p (one thread per row of the panel).
__global__ void bicgKernel2(const float *__restrict__ A, const float *__restrict__ P, float *__restrict__ Q,
                            int Rows, int NY) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Rows) {
    float Acc = 0;
    for (int J = 0; J < NY; ++J)
      Acc += A[I * NY + J] * P[J];
    Q[I] = Acc;
  }
}

// x1 += A y1 (rows of the panel).
__global__ void mvtKernel1(const float *__restrict__ A, const float *__restrict__ Y1, float *__restrict__ X1,
                           int Rows, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Rows) {
    float Acc = X1[I];
    for (int J = 0; J < N; ++J)
      Acc += A[I * N + J] * Y1[J];
    X1[I] = Acc;
  }
}

// x2 += A^T y2 over the panel's rows (one thread per column).
__global__ void mvtKernel2(const float *__restrict__ A, const float *__restrict__ Y2, float *__restrict__ X2,
                           int Rows, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    float Acc = X2[I];
    for (int J = 0; J < Rows; ++J)
      Acc += A[J * N + I] * Y2[J];
    X2[I] = Acc;
  }
}

// tmp = A x; y = alpha tmp + beta B x (rows of the panel).
__global__ void gesummvKernel(const float *__restrict__ A, const float *__restrict__ B, const float *__restrict__ X,
                              float *__restrict__ Tmp, float *__restrict__ Y, int Rows, int N, float Alpha,
                              float Beta) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Rows) {
    float T = 0, U = 0;
    for (int J = 0; J < N; ++J) {
      T += A[I * N + J] * X[J];
      U += B[I * N + J] * X[J];
    }
    Tmp[I] = T;
    Y[I] = Alpha * T + Beta * U;
  }
}

// 3x3 convolution of a band: In points at the row above the band's first
// output row, Out at that row; interior columns only (PolyBench's borders).
__global__ void conv2dKernel(const float *__restrict__ In, float *__restrict__ Out, int Rows, int NJ) {
  int J = blockIdx.x * blockDim.x + threadIdx.x, I = blockIdx.y * blockDim.y + threadIdx.y;
  if (I < Rows && J >= 1 && J < NJ - 1) {
    const float *U = In + I * NJ, *M = U + NJ, *D = M + NJ;
    Out[I * NJ + J] = 0.2f * U[J - 1] + 0.5f * M[J - 1] - 0.8f * D[J - 1] - 0.3f * U[J] + 0.6f * M[J] -
                      0.9f * D[J] + 0.4f * U[J + 1] + 0.7f * M[J + 1] + 0.1f * D[J + 1];
  }
}

// One plane of PolyBench's 3D convolution: In points at plane i-1, Out at
// plane i (interior rows and columns).
__global__ void conv3dKernel(const float *__restrict__ In, float *__restrict__ Out, int NJ, int NK) {
  int K = blockIdx.x * blockDim.x + threadIdx.x, J = blockIdx.y * blockDim.y + threadIdx.y;
  if (J >= 1 && J < NJ - 1 && K >= 1 && K < NK - 1) {
    const int P = NJ * NK;
    const float *Am = In, *A0 = In + P, *Ap = In + 2 * P;
    auto At = [&](const float *Pl, int Jj, int Kk) { return Pl[Jj * NK + Kk]; };
    Out[J * NK + K] = 2 * At(Am, J - 1, K - 1) + 4 * At(Ap, J - 1, K - 1) + 5 * At(Am, J - 1, K - 1) +
                      7 * At(Ap, J - 1, K - 1) - 8 * At(Am, J - 1, K - 1) + 10 * At(Ap, J - 1, K - 1) -
                      3 * At(A0, J - 1, K) + 6 * At(A0, J, K) - 9 * At(A0, J + 1, K) +
                      2 * At(Am, J - 1, K + 1) + 4 * At(Ap, J - 1, K + 1) + 5 * At(Am, J, K + 1) +
                      7 * At(Ap, J, K + 1) - 8 * At(Am, J + 1, K + 1) + 10 * At(Ap, J + 1, K + 1);
  }
}

namespace {

constexpr int TX = 32, TY = 8, T1 = 256;

unsigned blocks(size_t N, unsigned Per) { return (unsigned)((N + Per - 1) / Per); }

void check() { PF_CHECK(cudaGetLastError()); }

// Largest multiple of M not above X (at least M).
size_t floorTo(size_t X, size_t M) { return std::max(M, X / M * M); }

} // namespace

float *addBuffer(App &A, const std::string &Name, size_t Elems, bool Output) {
  AppBuffer B;
  B.Name = Name;
  B.Elems = Elems;
  B.Output = Output;
  PF_CHECK(cudaMallocManaged(&B.Ptr, B.bytes()));
  A.Buffers.push_back(B);
  return B.Ptr;
}

bool makePolybenchApp(const std::string &Name, size_t T, App &A) {
  A.Name = Name;
  char Shape[128];
  if (Name == "gemm") {
    // C (NI x NJ) = alpha A (NI x NK) B (NK x NJ) + beta C; tall panels.
    const int NJ = 1024, NK = 1024;
    int NI = (int)floorTo((T - (size_t)NK * NJ * 4) / ((size_t)(NK + NJ) * 4), Panels * TY);
    float *Am = addBuffer(A, "A", (size_t)NI * NK, false), *Bm = addBuffer(A, "B", (size_t)NK * NJ, false);
    float *Cm = addBuffer(A, "C", (size_t)NI * NJ, true);
    int Rows = NI / Panels;
    A.Run = [=] {
      for (int P = 0; P < Panels; ++P) {
        gemmKernel<<<dim3(blocks(NJ, TX), blocks(Rows, TY)), dim3(TX, TY)>>>(
            Am + (size_t)P * Rows * NK, Bm, Cm + (size_t)P * Rows * NJ, Rows, NJ, NK, 1.5f, 0.5f);
        check();
      }
    };
    A.LaunchesPerRep = Panels;
    A.MaxLaunchBytes = ((size_t)Rows * (NK + NJ) + (size_t)NK * NJ) * 4;
    std::snprintf(Shape, sizeof Shape, "NI=%d NJ=%d NK=%d", NI, NJ, NK);
  } else if (Name == "2mm") {
    // tmp = alpha A B; D = tmp C + beta D; NK = NJ = NL.
    const int N2 = 512;
    int NI = (int)floorTo((T - 2 * (size_t)N2 * N2 * 4) / ((size_t)3 * N2 * 4), Panels * TY);
    float *Am = addBuffer(A, "A", (size_t)NI * N2, false), *Bm = addBuffer(A, "B", (size_t)N2 * N2, false);
    float *Tmp = addBuffer(A, "tmp", (size_t)NI * N2, true), *Cm = addBuffer(A, "C", (size_t)N2 * N2, false);
    float *Dm = addBuffer(A, "D", (size_t)NI * N2, true);
    int Rows = NI / Panels;
    A.Run = [=] {
      dim3 Grid(blocks(N2, TX), blocks(Rows, TY)), Block(TX, TY);
      for (int P = 0; P < Panels; ++P) {
        mm2Kernel1<<<Grid, Block>>>(Am + (size_t)P * Rows * N2, Bm, Tmp + (size_t)P * Rows * N2, Rows, N2, N2, 1.5f);
        check();
      }
      for (int P = 0; P < Panels; ++P) {
        mm2Kernel2<<<Grid, Block>>>(Tmp + (size_t)P * Rows * N2, Cm, Dm + (size_t)P * Rows * N2, Rows, N2, N2, 0.5f);
        check();
      }
    };
    A.LaunchesPerRep = 2 * Panels;
    A.MaxLaunchBytes = ((size_t)2 * Rows * N2 + (size_t)N2 * N2) * 4;
    std::snprintf(Shape, sizeof Shape, "NI=%d NJ=NK=NL=%d", NI, N2);
  } else if (Name == "atax" || Name == "bicg") {
    const int NY = 2048;
    int NX = (int)floorTo(T / ((size_t)NY * 4 + 8), Panels * T1);
    int Rows = NX / Panels;
    float *Am = addBuffer(A, "A", (size_t)NX * NY, false);
    if (Name == "atax") {
      float *X = addBuffer(A, "x", NY, false), *Tmp = addBuffer(A, "tmp", NX, true);
      float *Y = addBuffer(A, "y", NY, true);
      A.Run = [=] {
        for (int P = 0; P < Panels; ++P) {
          const float *Ap = Am + (size_t)P * Rows * NY;
          ataxKernel1<<<blocks(Rows, T1), T1>>>(Ap, X, Tmp + (size_t)P * Rows, Rows, NY);
          check();
          ataxKernel2<<<blocks(NY, T1), T1>>>(Ap, Tmp + (size_t)P * Rows, Y, Rows, NY, P > 0);
          check();
        }
      };
    } else {
      float *R = addBuffer(A, "r", NX, false), *S = addBuffer(A, "s", NY, true);
      float *Pv = addBuffer(A, "p", NY, false), *Q = addBuffer(A, "q", NX, true);
      A.Run = [=] {
        for (int P = 0; P < Panels; ++P) {
          const float *Ap = Am + (size_t)P * Rows * NY;
          bicgKernel1<<<blocks(NY, T1), T1>>>(Ap, R + (size_t)P * Rows, S, Rows, NY, P > 0);
          check();
          bicgKernel2<<<blocks(Rows, T1), T1>>>(Ap, Pv, Q + (size_t)P * Rows, Rows, NY);
          check();
        }
      };
    }
    A.LaunchesPerRep = 2 * Panels;
    A.MaxLaunchBytes = ((size_t)Rows * NY + Rows + NY) * 4;
    std::snprintf(Shape, sizeof Shape, "NX=%d NY=%d", NX, NY);
  } else if (Name == "mvt") {
    int N = (int)floorTo((size_t)std::sqrt((double)T / 4) - 8, Panels * 32);
    int Rows = N / Panels;
    float *Am = addBuffer(A, "A", (size_t)N * N, false);
    float *X1 = addBuffer(A, "x1", N, true), *X2 = addBuffer(A, "x2", N, true);
    float *Y1 = addBuffer(A, "y1", N, false), *Y2 = addBuffer(A, "y2", N, false);
    A.Run = [=] {
      for (int P = 0; P < Panels; ++P) {
        mvtKernel1<<<blocks(Rows, T1), T1>>>(Am + (size_t)P * Rows * N, Y1, X1 + (size_t)P * Rows, Rows, N);
        check();
      }
      for (int P = 0; P < Panels; ++P) {
        mvtKernel2<<<blocks(N, T1), T1>>>(Am + (size_t)P * Rows * N, Y2 + (size_t)P * Rows, X2, Rows, N);
        check();
      }
    };
    A.LaunchesPerRep = 2 * Panels;
    A.MaxLaunchBytes = ((size_t)Rows * N + 2 * (size_t)N) * 4;
    std::snprintf(Shape, sizeof Shape, "N=%d", N);
  } else if (Name == "gesummv") {
    int N = (int)floorTo((size_t)std::sqrt((double)T / 8) - 8, Panels * 32);
    int Rows = N / Panels;
    float *Am = addBuffer(A, "A", (size_t)N * N, false), *Bm = addBuffer(A, "B", (size_t)N * N, false);
    float *X = addBuffer(A, "x", N, false), *Tmp = addBuffer(A, "tmp", N, true);
    float *Y = addBuffer(A, "y", N, true);
    A.Run = [=] {
      for (int P = 0; P < Panels; ++P) {
        size_t Off = (size_t)P * Rows;
        gesummvKernel<<<blocks(Rows, T1), T1>>>(Am + Off * N, Bm + Off * N, X, Tmp + Off, Y + Off, Rows, N, 1.5f,
                                                1.2f);
        check();
      }
    };
    A.LaunchesPerRep = Panels;
    A.MaxLaunchBytes = ((size_t)2 * Rows * N + N + 2 * Rows) * 4;
    std::snprintf(Shape, sizeof Shape, "N=%d", N);
  } else if (Name == "2dconv") {
    const int NJ = 8192;
    int NI = (int)floorTo(T / ((size_t)NJ * 8), Panels);
    float *In = addBuffer(A, "A", (size_t)NI * NJ, false), *Out = addBuffer(A, "B", (size_t)NI * NJ, true);
    // Output rows 1 .. NI-2 in Panels bands.
    int Band = (NI - 2 + Panels - 1) / Panels;
    A.Run = [=] {
      for (int R0 = 1; R0 < NI - 1; R0 += Band) {
        int Rows = std::min(Band, NI - 1 - R0);
        conv2dKernel<<<dim3(blocks(NJ, TX), blocks(Rows, TY)), dim3(TX, TY)>>>(
            In + (size_t)(R0 - 1) * NJ, Out + (size_t)R0 * NJ, Rows, NJ);
        check();
      }
    };
    A.LaunchesPerRep = Panels;
    A.MaxLaunchBytes = ((size_t)(2 * Band + 2) * NJ) * 4;
    std::snprintf(Shape, sizeof Shape, "NI=%d NJ=%d", NI, NJ);
  } else if (Name == "3dconv") {
    const int NJ = 1024, NK = 1024;
    int NI = (int)floorTo(T / ((size_t)NJ * NK * 8), 1);
    float *In = addBuffer(A, "A", (size_t)NI * NJ * NK, false);
    float *Out = addBuffer(A, "B", (size_t)NI * NJ * NK, true);
    A.Run = [=] {
      size_t Plane = (size_t)NJ * NK;
      for (int I = 1; I < NI - 1; ++I) {
        conv3dKernel<<<dim3(blocks(NK, TX), blocks(NJ, TY)), dim3(TX, TY)>>>(In + (I - 1) * Plane, Out + I * Plane,
                                                                           NJ, NK);
        check();
      }
    };
    A.LaunchesPerRep = NI - 2;
    A.MaxLaunchBytes = (size_t)4 * NJ * NK * 4;
    std::snprintf(Shape, sizeof Shape, "NI=%d NJ=%d NK=%d", NI, NJ, NK);
  } else {
    return false;
  }
  A.Shape = Shape;
  return true;
}

} // namespace pf
