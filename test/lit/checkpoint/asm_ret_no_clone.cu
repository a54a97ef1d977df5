// A `ret` (or `exit`) in the kernel's own inline PTX ends the thread. In the
// kernel that skips one CTA's item; in a clone it would sit inside the loop
// over virtual CTAs and end the thread for every virtual CTA after it (their
// items never written), and a returned thread 0 would skip the stop's saves.
// The pass cannot move an asm statement's return to the end of a virtual
// CTA, so such a kernel gets no clone: launched as compiled, gated, not
// preemptible (an adversarial corpus, session 51). A `trap` still allows
// clones: the launch ends there.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK-LABEL: kernel asm_ret(
// CHECK:         preempt: not preemptible (no clone{{.*}}inline asm 'ret'
__global__ void asm_ret(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (v < 0.0f)
    asm volatile("ret;");
  out[i] = v * 2.0f;
}

// CHECK-LABEL: kernel asm_predicated_ret(
// CHECK:         preempt: not preemptible (no clone{{.*}}inline asm 'ret'
__global__ void asm_predicated_ret(const int *sel, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = sel[i];
  asm volatile("{ .reg .pred p; setp.eq.s32 p, %0, 0; @p ret; }" ::"r"(s));
  out[i] = s + 10;
}

// CHECK-LABEL: kernel asm_exit(
// CHECK:         preempt: not preemptible (no clone{{.*}}inline asm 'exit'
__global__ void asm_exit(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] < 0.0f)
    asm volatile("exit;");
  out[i] = in[i];
}

// CHECK-LABEL: kernel asm_trap(
// CHECK:         preempt: between CTAs{{.*}}persistent forms: full
__global__ void asm_trap(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] < 0.0f)
    asm volatile("trap;");
  out[i] = in[i];
}
