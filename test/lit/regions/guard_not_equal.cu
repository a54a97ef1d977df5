// `t != ignore_index` bounds nothing, and must cost the launch nothing: the
// loss kernel's target t is bounded by `t >= 0 && t < vocab` alone, so with
// PyTorch's ignore_index = -100 the read of logits is still the rows the
// grid covers (it once required ignore_index >= 0 and fell back to the whole
// allocation).
// RUN: %gmem-analyze %s --kernel nll_loss --grid 4 --block 32 \
// RUN:   --alloc 0x100000:0x10000 --alloc 0x200000:0x1000 --alloc 0x300000:0x1000 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg ptr:0x300000 --arg i32:100 --arg i32:-100 \
// RUN:   | FileCheck %s
// CHECK: #0 logits{{.*}}read [0x100000, 0x100640)
// CHECK-NOT: fails
__global__ void nll_loss(const float *logits, const int *targets, float *loss, int vocab,
                         int ignore_index) {
  int row = blockIdx.x;
  int t = targets[row];
  if (threadIdx.x == 0 && t >= 0 && t < vocab)
    loss[row] = t != ignore_index ? -logits[(size_t)row * vocab + t] : 0.0f;
}
