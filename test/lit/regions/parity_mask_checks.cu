// `2 * t + (phase & 1)`: the mask is bounded by its type (0 or 1) with no
// check. An earlier walk of it on the side (whose checks, phase in [-2, 1]
// for the 2-bit truncation SCEV writes, were not used) leaked them into the
// memo of the expressions around it, so every launch with an odd phase
// failed "phase <= 0" and got the whole allocation.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel odd_even_step --grid 1 --block 64 --alloc 0x100000:0x100000 \
// RUN:   --arg ptr:0x100000 --arg i32:100 --arg i32:1 | FileCheck %s --check-prefix=ODD
// CHECK-LABEL: kernel odd_even_step(
// CHECK-NOT:   phase
// CHECK:       #1 n
// 64 threads, phase 1: i = 2t + 1 <= 127, guarded i + 1 < 100: a[i] in
// a[0..98] (the guard read as i <= 98), a[i + 1] in a[1..99].
// ODD: #0 a  read [0x100000, 0x10018c)  read [0x100004, 0x100190)
__global__ void odd_even_step(int *a, int n, int phase) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + (phase & 1);
  if (i + 1 < n) {
    int x = a[i];
    int y = a[i + 1];
    if (x > y) {
      a[i] = y;
      a[i + 1] = x;
    }
  }
}
