// A CUDA source that does not compile: the first clang error, on one line,
// exit status 1.
// RUN: not %gmem-analyze %s 2>&1 | FileCheck %s
// CHECK: gmem-analyze: error: {{.*}}cuda_compile_error.cu: device compile failed: {{.*}}cuda_compile_error.cu:{{[0-9]+}}:{{[0-9]+}}: error: use of undeclared identifier 'undefined_thing'
// CHECK-NOT: {{.}}
__global__ void k(int *p) { p[0] = undefined_thing; }
