// One row step of the Rodinia pathfinder dynamic program:
// next[c] = wall[row][c] + min(prev[c-1], prev[c], prev[c+1]).

// The second instance points `next` at row `row` of the wall itself.
// GMEM-EXPECT: pathfinder_row conditional
// GMEM-RUN: pathfinder_row grid=40 block=256 args=buf:i32:1000000:randint:0:10 buf:i32:10000:randint:0:100 buf:i32:10000:zero i32:10000 i32:5
// GMEM-RUN: pathfinder_row grid=40 block=256 args=buf:i32:1000000:randint:0:10 buf:i32:10000:randint:0:100 ptr:0+200000 i32:10000 i32:5
__global__ void pathfinder_row(const int *wall, const int *prev, int *next, int cols, int row) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    int best = prev[c];
    if (c > 0) best = prev[c - 1] < best ? prev[c - 1] : best;
    if (c < cols - 1) best = prev[c + 1] < best ? prev[c + 1] : best;
    next[c] = wall[row * cols + c] + best;
  }
}
