; Per-thread loop checkpoints in a kernel without barriers. Every kind moves
; the loop's real exit test into gmem.ckpt.sel, which tells a real exit from
; a due check; the check (gmem.ckpt) reads the request (volatile) and leaves
; through gmem.abort on 2 (the thread counts as aborted at the unified exit:
; its CTA gets no done bit).
;  IV kind (GMEM_CHECKPOINT_LIMIT=0, and loops whose exit test no limit
;    fits): one extra compare per iteration, iv.next != `at` (a header phi
;    K steps ahead); with several IVs, the one the exit test compares
;    (unrolled: niter).
;  Counter kind (halve: no integer IV): a work counter starts at the budget
;    (512), loses the body's cost per iteration, checks below zero.
;  Limit kind (default): the loop is strip-mined;
;    its exit compare runs against the segment's `limit`, the nearer of the
;    bound and K steps ahead: no extra instruction per iteration. (Checked
;    here without the short-entry copy, GMEM_CHECKPOINT_VERSION=0, which
;    nvptx_loop_version.ll tests.)
; K = ceil(512 / body cost): scale_gs 22 -> 24, count_ne 5 -> 103,
; scan_until 13 -> 40, halve 11 -> 47, unrolled 9 -> 57 (x4 = 228 ahead);
; loads/stores cost 8, others 1.
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_LIMIT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_VERSION=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=LIMIT
; A smaller budget means more frequent checks (K = ceil(64/22) = 3); below a
; body's cost, every iteration checks, without any counter or bound.
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_LIMIT=0 GMEM_CHECKPOINT_BUDGET=64 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=B64
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_BUDGET=8 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=EVERY
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_LIMIT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 \
; RUN:   | FileCheck %s --check-prefix=PTX
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s \
; RUN:   -o - | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTXLIMIT

; CHECK: @__gmem_pre_info__Z8scale_gsPfif = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1, i32 1, i32 24]
; CHECK: @__gmem_pre_info__Z7count_nePfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1, i32 1, i32 103]
; CHECK: @__gmem_pre_info__Z10scan_untilPfPi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1, i32 1, i32 40]
; CHECK: @__gmem_pre_info__Z5halvePff = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1, i32 1, i32 47]
; CHECK: @__gmem_pre_info__Z8unrolledPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1, i32 1, i32 57]
; No loop checkpoint site (flags 0, 0 sites).
; CHECK: @__gmem_pre_info__Z5eightPf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0, i32 0, i32 0]
; LIMIT: @__gmem_pre_info__Z5eightPf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0, i32 0, i32 0]
; B64: @__gmem_pre_info__Z8scale_gsPfif = {{.*}} [i32 827346247, i32 2, i32 1, i32 1, i32 3]
; EVERY: @__gmem_pre_info__Z8scale_gsPfif = {{.*}} [i32 827346247, i32 2, i32 1, i32 1, i32 1]

; CHECK-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; The bound starts K strides past the first index.
; CHECK:       entry:
; CHECK:         %[[KS:.*]] = mul i32 %stride, 24
; CHECK-NEXT:    %[[AT0:.*]] = add i32 %i0, %[[KS]]
; CHECK-NEXT:    br i1 %c0, label %loop, label %exit
; CHECK:       loop:
; CHECK-NEXT:    %gmem.ckpt.at = phi i32 [ %[[AT0]], %entry ], [ %gmem.ckpt.at, %loop ], [ %[[AT1:.*]], %gmem.ckpt ]
; CHECK-NEXT:    %i = phi i32 [ %i0, %entry ], [ %i.next, %loop ], [ %i.next, %gmem.ckpt ]
; CHECK:         %i.next = add i32 %i, %stride
; CHECK-NEXT:    %c = icmp slt i32 %i.next, %n
; CHECK-NEXT:    %gmem.not.due = icmp ne i32 %i.next, %gmem.ckpt.at
; CHECK-NEXT:    %[[STAY:.*]] = and i1 %c, %gmem.not.due
; CHECK-NEXT:    br i1 %[[STAY]], label %loop, label %gmem.ckpt.sel
; An aborted thread counts 0x10001 at the exit: its CTA gets no done bit.
; CHECK:       gmem.exit:
; CHECK-NEXT:    %gmem.aborted.0 = phi i1 [ true, %gmem.abort ], [ false, %exit ]
; CHECK-NEXT:    select i1 %gmem.aborted.0, i32 65537, i32 1
; CHECK:       gmem.abort:
; CHECK-NEXT:    br label %gmem.exit
; CHECK:       gmem.ckpt:
; CHECK-NEXT:    %gmem.request = load volatile i32, ptr addrspace(1) %gmem.ctl, align 4
; CHECK-NEXT:    %[[IS2:.*]] = icmp eq i32 %gmem.request, 2
; CHECK-NEXT:    %[[KS2:.*]] = mul i32 %stride, 24
; CHECK-NEXT:    %[[AT1]] = add i32 %i.next, %[[KS2]]
; CHECK-NEXT:    br i1 %[[IS2]], label %gmem.abort, label %loop
; Leaving the loop for real, or for a check.
; CHECK:       gmem.ckpt.sel:
; CHECK-NEXT:    br i1 %c, label %gmem.ckpt, label %exit

; CHECK-LABEL: define void @__gmem_pre__Z7count_nePfi(
; CHECK:       loop:
; CHECK:         %gmem.ckpt.at = phi i32 [ 103, %entry ]
; CHECK:         %done = icmp eq i32 %k.next, %n
; CHECK-NEXT:    %gmem.not.due = icmp ne i32 %k.next, %gmem.ckpt.at
; CHECK:       gmem.ckpt.sel:
; CHECK-NEXT:    br i1 %done, label %exit, label %gmem.ckpt

; CHECK-LABEL: define void @__gmem_pre__Z10scan_untilPfPi(
; CHECK:       loop:
; CHECK:         %gmem.ckpt.at = phi i32 [ 40, %entry ], [ %gmem.ckpt.at, %loop ], [ %[[AT3:.*]], %gmem.ckpt ]
; CHECK:         %pos = fcmp ogt float %v, 0.000000e+00
; CHECK-NEXT:    %gmem.not.due = icmp ne i32 %i.next, %gmem.ckpt.at
; CHECK-NEXT:    %[[STAY3:.*]] = and i1 %pos, %gmem.not.due
; CHECK-NEXT:    br i1 %[[STAY3]], label %loop, label %gmem.ckpt.sel
; CHECK:       gmem.ckpt:
; CHECK:         %[[AT3]] = add i32 %i.next, 40
; CHECK:       gmem.ckpt.sel:
; CHECK-NEXT:    br i1 %pos, label %gmem.ckpt, label %exit

; CHECK-LABEL: define void @__gmem_pre__Z5halvePff(
; CHECK:       loop:
; CHECK:         %[[LEFT:.*]] = phi i32 [ 512, %entry ], [ %[[NEXT:.*]], %loop ], [ 512, %gmem.ckpt ]
; CHECK:         %[[NEXT]] = sub i32 %[[LEFT]], 11
; CHECK-NEXT:    %gmem.not.due = icmp sge i32 %[[NEXT]], 0
; CHECK:         br i1 %{{.*}}, label %loop, label %gmem.ckpt.sel
; CHECK:       gmem.ckpt:
; CHECK-NEXT:    load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK-NEXT:    %[[STOP4:.*]] = icmp eq i32 %{{.*}}, 2
; CHECK-NEXT:    br i1 %[[STOP4]], label %gmem.abort, label %loop

; The unrolled loop counts with niter, the IV its exit test compares.
; CHECK-LABEL: define void @__gmem_pre__Z8unrolledPfi(
; CHECK:       loop:
; CHECK:         %gmem.ckpt.at = phi i32 [ 228, %entry ]
; CHECK:         %gmem.not.due = icmp ne i32 %niter.next, %gmem.ckpt.at

; The Limit kind strip-mines: gmem.ckpt.seg starts each segment of at most K
; iterations (from the entry and from a check that did not stop), takes over
; the header's phis and computes the segment's limit once; the inner loop
; compares against it and keeps only the segment start and its own latch as
; predecessors, so the inner loop is a plain counted loop.
; LIMIT-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; LIMIT:       entry:
; LIMIT:         br i1 %c0, label %gmem.ckpt.seg, label %exit
; LIMIT:       gmem.ckpt.seg:
; LIMIT-NEXT:    %i.seg = phi i32 [ %i0, %entry ], [ %i.next, %gmem.ckpt ]
; LIMIT-NEXT:    %[[KS:.*]] = mul i32 %stride, 24
; LIMIT-NEXT:    %[[AHEAD:.*]] = add i32 %i.seg, %[[KS]]
; Within 1.5 K (36 strides) of the bound, the segment runs to the bound.
; LIMIT-NEXT:    %[[KS2:.*]] = mul i32 %stride, 36
; LIMIT-NEXT:    %[[PROBE:.*]] = add i32 %i.seg, %[[KS2]]
; LIMIT-NEXT:    %gmem.ckpt.far = icmp slt i32 %[[PROBE]], %n
; LIMIT-NEXT:    %[[NEAR:.*]] = call i32 @llvm.smin.i32(i32 %n, i32 %[[AHEAD]])
; LIMIT-NEXT:    %gmem.ckpt.limit = select i1 %gmem.ckpt.far, i32 %[[NEAR]], i32 %n
; LIMIT-NEXT:    br label %loop
; LIMIT:       loop:
; LIMIT-NEXT:    %i = phi i32 [ %i.next, %loop ], [ %i.seg, %gmem.ckpt.seg ]
; LIMIT-NOT:     phi
; LIMIT:         %c = icmp slt i32 %i.next, %n
; LIMIT-NEXT:    %gmem.cont = icmp slt i32 %i.next, %gmem.ckpt.limit
; LIMIT-NEXT:    br i1 %gmem.cont, label %loop, label %gmem.ckpt.sel
; LIMIT:       gmem.ckpt:
; LIMIT:         br i1 %{{.*}}, label %gmem.abort, label %gmem.ckpt.seg
; LIMIT:       gmem.ckpt.sel:
; LIMIT-NEXT:    br i1 %c, label %gmem.ckpt, label %exit
; LIMIT-LABEL: define void @__gmem_pre__Z7count_nePfi(
; LIMIT:       gmem.ckpt.seg:
; LIMIT-NEXT:    %k.seg = phi i32 [ 0, %entry ], [ %k.next, %gmem.ckpt ]
; LIMIT-NEXT:    %x.seg = phi float [ 1.000000e+00, %entry ], [ %x.next, %gmem.ckpt ]
; LIMIT-NEXT:    %[[A1:.*]] = add i32 %k.seg, 103
; LIMIT-NEXT:    %[[D1:.*]] = sub i32 %n, %k.seg
; LIMIT-NEXT:    %gmem.ckpt.far = icmp ugt i32 %[[D1]], 154
; LIMIT-NEXT:    %gmem.ckpt.limit = select i1 %gmem.ckpt.far, i32 %[[A1]], i32 %n
; LIMIT:       loop:
; LIMIT-NEXT:    %k = phi i32 [ %k.next, %loop ], [ %k.seg, %gmem.ckpt.seg ]
; LIMIT-NEXT:    %x = phi float [ %x.next, %loop ], [ %x.seg, %gmem.ckpt.seg ]
; LIMIT:         %gmem.cont = icmp ne i32 %k.next, %gmem.ckpt.limit
; A value used after the loop still comes from its last iteration.
; LIMIT:       exit:
; LIMIT-NEXT:    %r = phi float [ 1.000000e+00, %entry ], [ %x.next, %gmem.ckpt.sel ]
; The IV kind stays where no limit fits (exit on loaded data).
; LIMIT-LABEL: define void @__gmem_pre__Z10scan_untilPfPi(
; LIMIT:         %gmem.not.due = icmp ne i32 %i.next, %gmem.ckpt.at
; LIMIT-LABEL: define void @__gmem_pre__Z8unrolledPfi(
; LIMIT:       gmem.ckpt.seg:
; LIMIT:         %niter.seg = phi i32 [ 0, %entry ], [ %niter.next, %gmem.ckpt ]
; LIMIT:         %[[U1:.*]] = add i32 %niter.seg, 228
; LIMIT-NEXT:    %[[UD:.*]] = sub i32 %trips, %niter.seg
; LIMIT-NEXT:    %gmem.ckpt.far = icmp ugt i32 %[[UD]], 342
; LIMIT-NEXT:    %gmem.ckpt.limit = select i1 %gmem.ckpt.far, i32 %[[U1]], i32 %trips
; LIMIT:       loop:
; LIMIT:         %gmem.cont = icmp ne i32 %niter.next, %gmem.ckpt.limit

; Budget 8 < body cost: the back edge always goes through the check.
; EVERY-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; EVERY-NOT:   gmem.ckpt.at
; EVERY:         br i1 %c, label %gmem.ckpt, label %exit
; EVERY:       gmem.ckpt:
; EVERY-NEXT:    load volatile i32, ptr addrspace(1) %gmem.ctl
; EVERY-NEXT:    %[[S:.*]] = icmp eq i32 %{{.*}}, 2
; EVERY-NEXT:    br i1 %[[S]], label %gmem.abort, label %loop

; PTX-LABEL: .visible .entry __gmem_pre__Z8scale_gsPfif(
; PTX:         ld.volatile.global.u32
; PTX:         bar.red.or.pred
; PTX:         ld.volatile.global.u32
; PTX:         atom.shared.add.u32
; PTX:         atom.global.or.b32
; PTXLIMIT-LABEL: .visible .entry __gmem_pre__Z8scale_gsPfif(
; PTXLIMIT:    min.s32

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @_Z8scale_gsPfif(ptr %a, i32 %n, float %s) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %m = mul i32 %ctaid, %ntid
  %i0 = add i32 %m, %tid
  %stride = mul i32 %ntid, %nctaid
  %c0 = icmp slt i32 %i0, %n
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ %i0, %entry ], [ %i.next, %loop ]
  %idx = sext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %idx
  %v = load float, ptr %p
  %w = fmul float %v, %s
  store float %w, ptr %p
  %i.next = add i32 %i, %stride
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; for (k = 0; k != n; ++k) x = x * 0.5 + 1; *out = x;  (exit when k.next == n)
define void @_Z7count_nePfi(ptr %out, i32 %n) {
entry:
  %c0 = icmp ne i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %x = phi float [ 1.0, %entry ], [ %x.next, %loop ]
  %h = fmul float %x, 0.5
  %x.next = fadd float %h, 1.0
  %k.next = add i32 %k, 1
  %done = icmp eq i32 %k.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 1.0, %entry ], [ %x.next, %loop ]
  store float %r, ptr %out
  ret void
}

; i = 0; while (a[i] > 0) ++i; *last = i;  (exit test on loaded data)
define void @_Z10scan_untilPfPi(ptr %a, ptr %last) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %idx = zext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %idx
  %v = load float, ptr %p
  %i.next = add i32 %i, 1
  %pos = fcmp ogt float %v, 0.0
  br i1 %pos, label %loop, label %exit

exit:
  store i32 %i.next, ptr %last
  ret void
}

; while (x > 1) { x *= 0.5; *out = x; } : no integer induction variable.
define void @_Z5halvePff(ptr %out, float %x0) {
entry:
  %c0 = fcmp ogt float %x0, 1.0
  br i1 %c0, label %loop, label %exit

loop:
  %x = phi float [ %x0, %entry ], [ %h, %loop ]
  %h = fmul float %x, 0.5
  store float %h, ptr %out
  %c = fcmp ogt float %h, 1.0
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; An unrolled loop: k steps by 4, but the exit test counts niter (step 4,
; `niter.next != trips`): the limit goes on niter, no extra instruction.
define void @_Z8unrolledPfi(ptr %out, i32 %trips) {
entry:
  %c0 = icmp ne i32 %trips, 0
  br i1 %c0, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %niter = phi i32 [ 0, %entry ], [ %niter.next, %loop ]
  %x = phi float [ 1.0, %entry ], [ %x4, %loop ]
  %f = uitofp i32 %k to float
  %x1 = fadd float %x, %f
  %x2 = fmul float %x1, 0.5
  %x3 = fadd float %x2, %f
  %x4 = fmul float %x3, 0.5
  %k.next = add i32 %k, 4
  %niter.next = add i32 %niter, 4
  %done = icmp eq i32 %niter.next, %trips
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 1.0, %entry ], [ %x4, %loop ]
  store float %r, ptr %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

; Eight iterations at most (SCEV's constant maximum) with K = 47: an IV check
; restarts at every entry, so it could never fire; the loop gets none.
define void @_Z5eightPf(ptr %out) {
entry:
  br label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %x = phi float [ 1.0, %entry ], [ %x.next, %loop ]
  %x.next = fmul float %x, 1.5
  %k.next = add i32 %k, 1
  %c = icmp ult i32 %k.next, 8
  br i1 %c, label %loop, label %exit

exit:
  store float %x.next, ptr %out
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5}
!0 = !{ptr @_Z8scale_gsPfif, !"kernel", i32 1}
!1 = !{ptr @_Z7count_nePfi, !"kernel", i32 1}
!2 = !{ptr @_Z10scan_untilPfPi, !"kernel", i32 1}
!3 = !{ptr @_Z5halvePff, !"kernel", i32 1}
!4 = !{ptr @_Z8unrolledPfi, !"kernel", i32 1}
!5 = !{ptr @_Z5eightPf, !"kernel", i32 1}
