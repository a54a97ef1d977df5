; clang runs gmem-checkpoint-reserve at the start of its pipeline: it
; declares each kernel's clone and twins (light, alternate, free) with the
; kernel's annotations (LLVM 19's NVPTX annotation cache must never see a
; clone's address before that: a function created late can land where a
; deleted one was and inherit its empty entry, a .func instead of an
; .entry), kept alive through llvm.compiler.used. gmem-checkpoint at the end
; fills the declarations in; those it does not fill (twins a kernel does
; not get, every form of a kernel that gets no clone) it removes, with
; their annotations.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint-reserve -S %s \
; RUN:   | FileCheck %s --check-prefix=RESERVED
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint-reserve,gmem-checkpoint -S %s \
; RUN:   | FileCheck %s --check-prefix=FILLED

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; RESERVED: @llvm.compiler.used = appending global [8 x ptr] [ptr @__gmem_pre__Z4fillPfi, ptr @__gmem_prl__Z4fillPfi, ptr @__gmem_pra__Z4fillPfi, ptr @__gmem_prf__Z4fillPfi, ptr @__gmem_pre__Z9grid_syncPf, ptr @__gmem_prl__Z9grid_syncPf, ptr @__gmem_pra__Z9grid_syncPf, ptr @__gmem_prf__Z9grid_syncPf]
; RESERVED: declare void @__gmem_pre__Z4fillPfi(ptr, i32, ptr addrspace(1), i32, i32, i32)
; RESERVED: declare void @__gmem_prl__Z4fillPfi(ptr, i32, ptr addrspace(1), i32, i32, i32)
; RESERVED: declare void @__gmem_pra__Z4fillPfi(ptr, i32, ptr addrspace(1), i32, i32, i32)
; RESERVED: declare void @__gmem_prf__Z4fillPfi(ptr, i32, ptr addrspace(1), i32, i32, i32)
; RESERVED: declare void @__gmem_pre__Z9grid_syncPf(ptr, ptr addrspace(1), i32, i32, i32)
; RESERVED: !nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7, !8, !9, !10, !11, !12, !13, !14}
; RESERVED: !3 = !{ptr @__gmem_pre__Z4fillPfi, !"kernel", i32 1}
; RESERVED: !4 = !{ptr @__gmem_pre__Z4fillPfi, !"maxntidx", i32 64}
; RESERVED: !9 = !{ptr @__gmem_prf__Z4fillPfi, !"kernel", i32 1}
; RESERVED: !11 = !{ptr @__gmem_pre__Z9grid_syncPf, !"kernel", i32 1}

; FILLED-NOT: llvm.compiler.used
; FILLED-NOT: declare {{.*}}__gmem_pr
; FILLED:     define void @__gmem_pre__Z4fillPfi(ptr %a, i32 %n, ptr addrspace(1) noundef %gmem.ctl, i32 noundef %gmem.grid.x, i32 noundef %gmem.grid.y, i32 noundef %gmem.grid.z)
; FILLED-NOT: __gmem_pre__Z9grid_syncPf(
; FILLED:     !nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7, !8}
; FILLED:     !2 = !{ptr @_Z9grid_syncPf, !"kernel", i32 1}
; FILLED:     !3 = !{ptr @__gmem_pre__Z4fillPfi, !"kernel", i32 1}
; FILLED:     !4 = !{ptr @__gmem_pre__Z4fillPfi, !"maxntidx", i32 64}
; The light twin and the free form (filled in; the alternate reservation,
; which the kernel does not get, is gone).
; FILLED:     !5 = !{ptr @__gmem_prl__Z4fillPfi, !"kernel", i32 1}
; FILLED:     !6 = !{ptr @__gmem_prl__Z4fillPfi, !"maxntidx", i32 64}
; FILLED:     !7 = !{ptr @__gmem_prf__Z4fillPfi, !"kernel", i32 1}
; FILLED:     !8 = !{ptr @__gmem_prf__Z4fillPfi, !"maxntidx", i32 64}
; FILLED-NOT: !{ptr

define void @_Z4fillPfi(ptr %a, i32 %n) {
entry:
  store float 1.0, ptr %a
  ret void
}

define void @_Z9grid_syncPf(ptr %a) {
entry:
  %ws = call i32 asm "mov.u32 $0, %envreg2;", "=r"()
  store float 1.0, ptr %a
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @_Z4fillPfi, !"kernel", i32 1}
!1 = !{ptr @_Z4fillPfi, !"maxntidx", i32 64}
!2 = !{ptr @_Z9grid_syncPf, !"kernel", i32 1}
