; Device IR without kernels is not an error: a note on stderr, an empty
; report on stdout, exit status 0.
; RUN: %gmem-analyze %s 2>&1 >/dev/null | FileCheck %s
; RUN: %gmem-analyze %s 2>/dev/null | count 0
; CHECK: gmem-analyze: note: no GPU kernels in the input

target triple = "nvptx64-nvidia-cuda"

define void @helper(ptr %p) {
  store i32 0, ptr %p
  ret void
}
