// The pass plugin under clang (-fpass-plugin): a CUDA device-only compile
// writes the report to the file GMEM_REPORT names. clang discards value
// names, so parameters are argN here; regions and class are those of
// gmem-analyze. The compile itself succeeds and produces the object.
// RUN: rm -rf %t.stub %t.txt && mkdir -p %t.stub
// RUN: touch %t.stub/texture_fetch_functions.h %t.stub/texture_indirect_functions.h
// RUN: env GMEM_REPORT=%t.txt %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-path=/usr/local/cuda -isystem %t.stub \
// RUN:   -fpass-plugin=%gmem_plugin -O2 -c -emit-llvm %s -o %t.bc
// RUN: FileCheck %s < %t.txt
// RUN: test -s %t.bc
// GMEM_REPORT appends, and GMEM_REPORT_FORMAT=json switches to JSON: a
// second compile adds the JSON report after the text one.
// RUN: env GMEM_REPORT=%t.txt GMEM_REPORT_FORMAT=json %clang -x cuda --cuda-device-only \
// RUN:   --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version --cuda-path=/usr/local/cuda \
// RUN:   -isystem %t.stub -fpass-plugin=%gmem_plugin -O2 -c -emit-llvm %s -o %t.bc
// RUN: FileCheck %s --check-prefix=APPEND < %t.txt
// (Host compiles and compiles without GMEM_REPORT: clang_host_no_report.test.)

// CHECK:      kernel saxpy(int, float, float const*, float*)  [nvptx]
// CHECK-NEXT:   symbol: _Z5saxpyifPKfPf
// CHECK-NEXT:   class:  non-idempotent -- 'arg3' is read and written at the same offset (read-modify-write)
// CHECK-NEXT:   #0 arg0 : i32
// CHECK-NEXT:   #1 arg1 : f32
// CHECK-NEXT:   #2 arg2 : ptr  R
// CHECK-NEXT:       read:  [0, 4*min(blockDim.x*gridDim.x - 1, arg0 - 1) + 4)
// CHECK-NEXT:   #3 arg3 : ptr  RW
// CHECK-NEXT:       read:  [0, 4*min(blockDim.x*gridDim.x - 1, arg0 - 1) + 4)
// CHECK-NEXT:       write: [0, 4*min(blockDim.x*gridDim.x - 1, arg0 - 1) + 4)

// APPEND:      kernel saxpy(int, float, float const*, float*)  [nvptx]
// APPEND:      "schema": 1,
// APPEND:      "symbol": "_Z5saxpyifPKfPf",
// APPEND:      "class": "non-idempotent",
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
