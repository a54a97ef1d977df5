; Deferred stops: a jump to the meeting point skips the code between the
; loop and the barrier, so a value defined there and used after the barrier
; no longer dominates its uses (CheckpointDeferredStop.cpp, finish).
;  sum_then_red:    &red[tid] is computed again at the meeting point from
;                   what is available there (tid, the shared array's cast):
;                   no phi, nothing carried past the barrier. Under LLVM 19
;                   a phi of it with poison from the jump made the clones'
;                   accesses generic (InferAddressSpaces joins poison to the
;                   generic space): ld.f32/st.f32 instead of ld/st.shared.
;  cast_after_loop: the cast is an instruction after the loop: computed
;                   again too.
;  loaded_ptr:      the address comes from a load: not computed again (a
;                   load is not); a phi with poison from the jump.
; GMEM_CHECKPOINT_JUMP_VALUE (experiments): `cast` computes nothing again
; and gives a pointer's phi the constant cast its address comes from where
; there is one (poison otherwise); `poison` gives every phi poison, as
; before session 45.
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_JUMP_VALUE=cast opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=CAST
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_JUMP_VALUE=poison opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=POISON
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o %t.bc
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 %t.bc -o - | FileCheck %s --check-prefix=PTX
; RUN: env GMEM_CHECKPOINT_JUMP_VALUE=poison opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o %t.poison.bc
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 %t.poison.bc -o - | FileCheck %s --check-prefix=PTX-POISON

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@red = internal addrspace(3) global [256 x float] undef, align 4
@red2 = internal addrspace(3) global [256 x float] undef, align 4

; CHECK-LABEL: define void @__gmem_pre__Z12sum_then_redPKfPfi(
; CHECK:       gmem.meet:
; CHECK-NOT:     phi ptr
; CHECK:         %idx.meet = zext i32 %tid to i64
; CHECK-NEXT:    %slot.meet = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @red to ptr), i64 0, i64 %idx.meet
; CHECK:         %x = load float, ptr %slot.meet
; CHECK:         store float %y, ptr %slot.meet
; CHECK:         getelementptr inbounds float, ptr %out, i64 %idx.meet
; CHECK-LABEL: define void @__gmem_pre__Z13cast_after_loopPKfPfi(
; CHECK:       gmem.meet:
; CHECK-NOT:     phi ptr
; CHECK:         %base.meet = addrspacecast ptr addrspace(3) @red2 to ptr
; CHECK:         %slot.meet = getelementptr inbounds [256 x float], ptr %base.meet
; CHECK-LABEL: define void @__gmem_pre__Z10loaded_ptrPKfPfPS1_i(
; CHECK:       gmem.meet:
; CHECK:         phi ptr [ %slot, %after ], [ poison, %gmem.meet.jump ]

; CAST-LABEL: define void @__gmem_pre__Z12sum_then_redPKfPfi(
; CAST:       gmem.meet:
; CAST:         phi ptr [ %slot, %after ], [ addrspacecast (ptr addrspace(3) @red to ptr), %gmem.meet.jump ]
; CAST-LABEL: define void @__gmem_pre__Z13cast_after_loopPKfPfi(
; CAST:       gmem.meet:
; CAST:         phi ptr [ %slot, %after ], [ poison, %gmem.meet.jump ]

; POISON-LABEL: define void @__gmem_pre__Z12sum_then_redPKfPfi(
; POISON:       gmem.meet:
; POISON:         phi ptr [ %slot, %after ], [ poison, %gmem.meet.jump ]

; The clones with a deferred stop keep the kernel's four shared accesses and
; make no generic float load or store; with poison they did.
; PTX-LABEL: .entry __gmem_pre__Z12sum_then_redPKfPfi(
; PTX-NOT:     {{(ld|st)}}.f32
; PTX-COUNT-4: {{(ld|st)}}.shared.f32
; PTX-NOT:     {{(ld|st)}}.f32
; PTX:         ret;
; PTX-LABEL: .entry __gmem_pra__Z12sum_then_redPKfPfi(
; PTX-NOT:     {{(ld|st)}}.f32
; PTX-COUNT-4: {{(ld|st)}}.shared.f32
; PTX-NOT:     {{(ld|st)}}.f32
; PTX:         ret;
; PTX-POISON-LABEL: .entry __gmem_pre__Z12sum_then_redPKfPfi(
; PTX-POISON:         {{^	}}ld.f32
; PTX-POISON:         ret;


define void @_Z12sum_then_redPKfPfi(ptr %in, ptr %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %has = icmp slt i32 %tid, %n
  br i1 %has, label %loop, label %after

loop:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr inbounds float, ptr %in, i32 %i
  %v = load float, ptr %p, align 4
  %acc.next = fadd float %acc, %v
  %i.next = add nsw i32 %i, 256
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %sum = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %idx = zext i32 %tid to i64
  %slot = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @red to ptr), i64 0, i64 %idx
  store float %sum, ptr %slot, align 4
  call void @llvm.nvvm.barrier0()
  %x = load float, ptr %slot, align 4
  %y = fmul float %x, 2.0
  store float %y, ptr %slot, align 4
  call void @llvm.nvvm.barrier0()
  %first = load float, ptr addrspacecast (ptr addrspace(3) @red to ptr), align 4
  %o = getelementptr inbounds float, ptr %out, i64 %idx
  store float %first, ptr %o, align 4
  ret void
}


define void @_Z13cast_after_loopPKfPfi(ptr %in, ptr %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %has = icmp slt i32 %tid, %n
  br i1 %has, label %loop, label %after

loop:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr inbounds float, ptr %in, i32 %i
  %v = load float, ptr %p, align 4
  %acc.next = fadd float %acc, %v
  %i.next = add nsw i32 %i, 256
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %sum = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %idx = zext i32 %tid to i64
  %base = addrspacecast ptr addrspace(3) @red2 to ptr
  %slot = getelementptr inbounds [256 x float], ptr %base, i64 0, i64 %idx
  store float %sum, ptr %slot, align 4
  call void @llvm.nvvm.barrier0()
  %x = load float, ptr %slot, align 4
  %y = fmul float %x, 2.0
  store float %y, ptr %slot, align 4
  call void @llvm.nvvm.barrier0()
  %first = load float, ptr addrspacecast (ptr addrspace(3) @red2 to ptr), align 4
  %o = getelementptr inbounds float, ptr %out, i64 %idx
  store float %first, ptr %o, align 4
  ret void
}


define void @_Z10loaded_ptrPKfPfPS1_i(ptr %in, ptr %out, ptr %tab, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %has = icmp slt i32 %tid, %n
  br i1 %has, label %loop, label %after

loop:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr inbounds float, ptr %in, i32 %i
  %v = load float, ptr %p, align 4
  %acc.next = fadd float %acc, %v
  %i.next = add nsw i32 %i, 256
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %sum = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %idx = zext i32 %tid to i64
  %row = load ptr, ptr %tab, align 8
  %slot = getelementptr inbounds float, ptr %row, i64 %idx
  store float %sum, ptr %slot, align 4
  call void @llvm.nvvm.barrier0()
  %x = load float, ptr %slot, align 4
  %y = fmul float %x, 2.0
  store float %y, ptr %slot, align 4
  call void @llvm.nvvm.barrier0()
  %first = load float, ptr addrspacecast (ptr addrspace(3) @red to ptr), align 4
  %o = getelementptr inbounds float, ptr %out, i64 %idx
  store float %first, ptr %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @_Z12sum_then_redPKfPfi, !"kernel", i32 1}
!1 = !{ptr @_Z13cast_after_loopPKfPfi, !"kernel", i32 1}
!2 = !{ptr @_Z10loaded_ptrPKfPfPS1_i, !"kernel", i32 1}
