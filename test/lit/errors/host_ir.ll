; Host (x86_64) IR is no GPU device code: one-line error, exit status 1.
; RUN: not %gmem-analyze %s 2>&1 | FileCheck %s
; CHECK: gmem-analyze: error: {{.*}}host_ir.ll: not GPU device code (target triple 'x86_64-unknown-linux-gnu'); give a .cu/.hip source or NVPTX/AMDGPU IR
; CHECK-NOT: {{.}}
; The opt plugin reports no kernels for a host module (and does not fail).
; RUN: %opt -load-pass-plugin=%gmem_plugin -passes=gmem-print -disable-output %s | count 0

target triple = "x86_64-unknown-linux-gnu"

define void @f(ptr %p) {
  store i32 0, ptr %p
  ret void
}
