// The plugin under clang: device modules get the clones by default, at the
// end of the optimisation pipeline, after the descriptors were embedded; the
// descriptors and the report cover the user's kernels only. The PTX passes
// ptxas. GMEM_CHECKPOINTS=0 leaves the module as it was before this pass.
// RUN: rm -rf %t.stub %t.txt && mkdir -p %t.stub
// RUN: touch %t.stub/texture_fetch_functions.h %t.stub/texture_indirect_functions.h
// RUN: env GMEM_REPORT=%t.txt %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-path=/usr/local/cuda -isystem %t.stub \
// RUN:   -fpass-plugin=%gmem_plugin -fverify-intermediate-code -fno-discard-value-names -O2 -S \
// RUN:   -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-path=/usr/local/cuda -isystem %t.stub -fpass-plugin=%gmem_plugin -O2 -S %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: env GMEM_CHECKPOINTS=0 %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-path=/usr/local/cuda -isystem %t.stub \
// RUN:   -fpass-plugin=%gmem_plugin -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// gmem-analyze (which compiles with the plugin) reports the kernel once.
// RUN: %gmem-analyze %s | FileCheck %s --check-prefix=TOOL

// CHECK-DAG: @__gmem_desc__Z8saxpy_gsifPKfPf = addrspace(1) constant
// CHECK-DAG: @__gmem_pre_info__Z8saxpy_gsifPKfPf = addrspace(1) constant [6 x i32] [i32 827346247, i32 2, i32 12785, i32 1, i32 {{[0-9]+}}, i32 1572864]
// CHECK-NOT: @__gmem_desc___gmem_pre_
// CHECK:     define dso_local void @_Z8saxpy_gsifPKfPf(
// CHECK:     define dso_local void @__gmem_pre__Z8saxpy_gsifPKfPf({{.*}}, ptr addrspace(1) noundef %gmem.ctl, i32 noundef %gmem.grid.x, i32 noundef %gmem.grid.y, i32 noundef %gmem.grid.z)
// CHECK-DAG:   %gmem.P = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
// CHECK-DAG:   call i32 asm sideeffect "ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l"(ptr addrspace(1) %gmem.ctl)
// CHECK-DAG:   call i32 @llvm.nvvm.barrier0.or(
// CHECK-DAG:   %gmem.pace.left = phi i32
// CHECK-DAG: define dso_local void @__gmem_prf__Z8saxpy_gsifPKfPf({{.*}}, ptr addrspace(1) noundef %gmem.ctl,
// CHECK:     !{ptr @__gmem_pre__Z8saxpy_gsifPKfPf, !"kernel", i32 1}

// REPORT:     kernel saxpy_gs(int, float, float const*, float*)  [nvptx]
// REPORT-NOT: gmem_pre

// PTX: .visible .global .align 4 .b8 __gmem_pre_info__Z8saxpy_gsifPKfPf[24] = {71, 77, 80, 49, 2, 0, 0, 0, 241, 49, 0, 0, 1
// PTX: .visible .entry _Z8saxpy_gsifPKfPf(
// PTX: .visible .entry __gmem_pre__Z8saxpy_gsifPKfPf(
// PTX-DAG:   mov.u32 {{.*}}%nctaid.x
// PTX-DAG:   ld.relaxed.gpu.global.u32
// PTX-DAG:   bar.red.or.pred
// PTX-NOT:   atom.global.or.b32
// Its light twin (no loop checkpoint), for launches whose CTAs are short.
// PTX: .visible .entry __gmem_prl__Z8saxpy_gsifPKfPf(

// OFF:     @__gmem_desc__Z8saxpy_gsifPKfPf
// OFF-NOT: __gmem_pre

// TOOL:     kernel saxpy_gs(int, float, float const*, float*)  [nvptx]
// TOOL-NOT: gmem_pre

__global__ void saxpy_gs(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
