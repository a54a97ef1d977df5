; --json for accesses through a pointer loaded from memory: they are not
; attributed to any parameter but to "unknown_read" / "unknown_write",
; regions of kind "anything" with the reason; the class is unknown.
; RUN: %gmem-analyze %s --json | FileCheck %s

; CHECK:      "plain_name": "load_through",
; CHECK:      "class": "unknown",
; CHECK-NEXT: "class_reason": "reads memory it cannot bound (pointer loaded from memory)",
; CHECK:      "name": "ptrs", {{.*}}"read_region": {"kind": "bounded",
; CHECK:      "unknown_read": {"kind": "anything", "ranges": [], {{.*}}"reason": "pointer loaded from memory"},
; CHECK-NEXT: "unknown_write": null
; CHECK:      "plain_name": "store_through",
; CHECK:      "class": "unknown",
; CHECK-NEXT: "class_reason": "writes memory it cannot bound (pointer loaded from memory)",
; CHECK:      "unknown_read": null,
; CHECK-NEXT: "unknown_write": {"kind": "anything", "ranges": [], {{.*}}"reason": "pointer loaded from memory"}

target triple = "nvptx64-nvidia-cuda"

; out[t] = ptrs[t][0]
define ptx_kernel void @load_through(ptr %ptrs, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %t to i64
  %pp = getelementptr inbounds ptr, ptr %ptrs, i64 %te
  %p = load ptr, ptr %pp, align 8
  %v = load float, ptr %p, align 4
  %po = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %po, align 4
  ret void
}

; ptrs[t][0] = in[t]
define ptx_kernel void @store_through(ptr %ptrs, ptr %in) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %t to i64
  %pi = getelementptr inbounds float, ptr %in, i64 %te
  %v = load float, ptr %pi, align 4
  %pp = getelementptr inbounds ptr, ptr %ptrs, i64 %te
  %p = load ptr, ptr %pp, align 8
  store float %v, ptr %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
