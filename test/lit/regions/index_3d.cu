// 3D indexing: the z dimension (blockIdx.z * blockDim.z + threadIdx.z) is
// modelled like x and y, with its own launch variables.
// RUN: %gmem-analyze %s > %t.txt
// RUN: FileCheck %s --check-prefix=PLANES < %t.txt
// RUN: FileCheck %s --check-prefix=VOLUME < %t.txt
// RUN: %gmem-analyze %s --kernel volume --grid 2,2,2 --block 8,4,2 \
// RUN:   --alloc 0x100000:0x100000 --alloc 0x300000:0x100000 \
// RUN:   --arg i32:8 --arg i32:4 --arg i32:2 --arg ptr:0x100000 --arg ptr:0x300000 \
// RUN:   | FileCheck %s --check-prefix=INST

// Guards on z and on the in-plane index bound both factors of z*plane + p.
// PLANES:      kernel planes(int, int, float*)
// PLANES:      #2 out : ptr  W
// PLANES-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, plane - 1) + 4*min(blockDim.z*gridDim.z - 1, nz - 1)*plane + 4)
__global__ void planes(int nz, int plane, float *out) {
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (z < nz && p < plane)
    out[z * plane + p] = 0.0f;
}

// A full (z*Y + y)*X + x volume: all three guards bound the region, through
// the flattened sum (y) and the nested products (z).
// VOLUME:      kernel volume(int, int, int, float const*, float*)
// VOLUME:      class:  conditional
// VOLUME:      #3 in : ptr  R
// VOLUME-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, X - 1) + 4*min(blockDim.y*gridDim.y - 1, Y - 1)*X + 4*min(blockDim.z*gridDim.z - 1, Z - 1)*X*Y + 4)
// VOLUME-NEXT: #4 out : ptr  W
// VOLUME-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, X - 1) + 4*min(blockDim.y*gridDim.y - 1, Y - 1)*X + 4*min(blockDim.z*gridDim.z - 1, Z - 1)*X*Y + 4)
__global__ void volume(int X, int Y, int Z, const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < X && y < Y && z < Z)
    out[(z * Y + y) * X + x] = in[(z * Y + y) * X + x] + 1.0f;
}

// X=8, Y=4, Z=2 on a 16x8x4 thread grid: the kernel really touches floats
// 0..63, i.e. [0x100000, 0x100100), and the analysis gives exactly that
// (x up to 7, y up to 3, z up to 1 by the guards: (1*4 + 3)*8 + 7 = 63).
// INST:      #3 in  read [0x100000, 0x100100)
// INST-NEXT: #4 out  write [0x300000, 0x300100)
// INST-NEXT: idempotent: yes
