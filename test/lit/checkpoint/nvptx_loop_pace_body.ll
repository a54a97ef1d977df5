; Paced loops that touch memory are checked inside their body
; (CheckpointLatchCheck.cpp, checkPacedInBody; GMEM_CHECKPOINT_PACE_FORM,
; default auto) where the clone has a cp.async landing area (sm_80+): no
; strip-mining. The header gets two phis, the pace (start clock and s) and
; the trips left in the segment; the latch goes on while the loop does and
; left - 1 != 0; otherwise `sel` tells the loop's real exit from a due
; check. The check updates the pace, starts the next segment at 2^s trips,
; reads the landing area (refreshing it with cp.async where its deadline has
; passed) and leaves or goes back to the loop's own header.
; A memory-free paced loop keeps its strip-mined segments, whose trips carry
; no instruction of the check; so does a loop without a landing area
; (sm_75). GMEM_CHECKPOINT_PACE_FORM=segment strip-mines every paced loop,
; =body checks every one with a landing area in its body. A warp-vote site
; takes lane 0's segment length by a shuffle at the check.
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_VERSION=0 opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_VERSION=0 GMEM_CHECKPOINT_PACE_FORM=segment opt \
; RUN:   -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=SEG
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_VERSION=0 GMEM_CHECKPOINT_PACE_FORM=body opt \
; RUN:   -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=BODY
; RUN: env GMEM_CHECKPOINT_VERSION=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s --check-prefix=VOTE
; An unknown setting is said and read as auto.
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_VERSION=0 GMEM_CHECKPOINT_PACE_FORM=bodies opt \
; RUN:   -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 \
; RUN:   | FileCheck %s --check-prefix=PTX

; CHECK-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; CHECK-NOT:     gmem.ckpt.seg
; CHECK:       loop:
; CHECK-NEXT:    %gmem.pace.left = phi i32 [ 4, %{{.*}} ], [ %gmem.pace.left.next, %loop ], [ %gmem.pace.left.new, %gmem.ckpt.stop ]
; CHECK-NEXT:    %gmem.pace = phi i32 [ %gmem.pace.start, %{{.*}} ], [ %gmem.pace, %loop ], [ %gmem.pace.next, %gmem.ckpt.stop ]
; CHECK-NEXT:    %i = phi i32 [ %i0, %{{.*}} ], [ %i.next, %loop ], [ %i.next, %gmem.ckpt.stop ]
; CHECK:         %c = icmp slt i32 %i.next, %n
; CHECK-NEXT:    %gmem.pace.left.next = sub i32 %gmem.pace.left, 1
; CHECK-NEXT:    %gmem.not.due = icmp ne i32 %gmem.pace.left.next, 0
; CHECK-NEXT:    %[[CONT:.*]] = and i1 %c, %gmem.not.due
; CHECK-NEXT:    br i1 %[[CONT]], label %loop, label %gmem.ckpt.sel
; The check: the pace's update, the next segment's length, the landed request.
; CHECK:       gmem.ckpt:
; CHECK-NEXT:    %gmem.request.landed = load volatile i32, ptr addrspace(3) @__gmem_landing___gmem_pre__Z8scale_gsPfif
; CHECK:         %gmem.pace.next = or i32
; CHECK:         %gmem.pace.left.new = shl i32 1, %{{.*}}
; CHECK:         br i1 %gmem.cache.due, label %gmem.cache.prefetch, label
; CHECK:       gmem.cache.prefetch:
; CHECK:         call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) @__gmem_landing___gmem_pre__Z8scale_gsPfif, ptr addrspace(1) %gmem.ctl)
; CHECK:       gmem.ckpt.stop:
; CHECK-NEXT:    %gmem.pace.stop = icmp eq i32 %gmem.request.landed, 2
; CHECK-NEXT:    br i1 %gmem.pace.stop, label %gmem.abort, label %loop
; CHECK:       gmem.ckpt.sel:
; CHECK-NEXT:    br i1 %c, label %gmem.ckpt, label %exit
; CHECK:         call void @llvm.nvvm.cp.async.wait.all()
; CHECK-NEXT:    ret void

; A memory-free loop: strip-mined segments (the segment's own limit).
; CHECK-LABEL: define void @__gmem_pre__Z7computePfii(
; CHECK:       gmem.ckpt.seg:
; CHECK:         %gmem.ckpt.limit = select
; CHECK-NOT:     %gmem.pace.left
; CHECK:         ret void

; sm_75, no landing area: strip-mined, the request loaded at the start.
; CHECK-LABEL: define void @__gmem_pre__Z7old_gpuPfi(
; CHECK:       gmem.ckpt.seg:
; CHECK:         %gmem.request.pending = phi i32
; CHECK-NOT:     %gmem.pace.left
; CHECK:         ret void

; SEG-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; SEG:       gmem.ckpt.seg:
; SEG:         %gmem.ckpt.limit = select
; SEG-NOT:     %gmem.pace.left
; SEG-LABEL: define void @__gmem_pre__Z7computePfii(
; SEG:       gmem.ckpt.seg:

; BODY-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; BODY:         %gmem.pace.left = phi i32
; BODY-LABEL: define void @__gmem_pre__Z7computePfii(
; BODY-NOT:     gmem.ckpt.seg
; BODY:         %gmem.pace.left = phi i32
; BODY-LABEL: define void @__gmem_pre__Z7old_gpuPfi(
; BODY:       gmem.ckpt.seg:

; BAD: gmem: warning: GMEM_CHECKPOINT_PACE_FORM=bodies is not auto, segment or body; using auto
; BAD-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; BAD:         %gmem.pace.left = phi i32
; BAD-LABEL: define void @__gmem_pre__Z7computePfii(
; BAD:       gmem.ckpt.seg:

; The persistent full clone of warp_rows: every lane of a warp reaches the
; vote on the same trip, so the next segment's length is lane 0's.
; VOTE-LABEL: define void @__gmem_pre_warp_rows(
; VOTE:         %gmem.pace.warp = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %gmem.pace.next, i32 0, i32 31)
; VOTE-NEXT:    %[[S:.*]] = and i32 %gmem.pace.warp, 63
; VOTE-NEXT:    %gmem.pace.left.new = shl i32 1, %[[S]]
; VOTE:         %gmem.warp.stop = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %gmem.pace.stop)

; PTX-LABEL: .visible .entry __gmem_pre__Z8scale_gsPfif(
; PTX:         cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
; PTX:         cp.async.wait_all;
; PTX-LABEL: .visible .entry __gmem_pre_warp_rows(
; PTX:         shfl.sync.idx.b32
; PTX:         vote.sync.any.pred

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; for (i = gid; i < n; i += stride) a[i] *= s;
define void @_Z8scale_gsPfif(ptr %a, i32 %n, float %s) #0 {
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

; v = a[gid]; for (k = 0; k < iters; ++k) v = v * 0.5 + 1; a[gid] = v;
define void @_Z7computePfii(ptr %a, i32 %iters, i32 %unused) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = sext i32 %tid to i64
  %p = getelementptr float, ptr %a, i64 %idx
  %v0 = load float, ptr %p
  %go = icmp sgt i32 %iters, 0
  br i1 %go, label %loop, label %done

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %v = phi float [ %v0, %entry ], [ %v.next, %loop ]
  %h = fmul float %v, 5.000000e-01
  %v.next = fadd float %h, 1.000000e+00
  %k.next = add nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %iters
  br i1 %more, label %loop, label %done

done:
  %r = phi float [ %v0, %entry ], [ %v.next, %loop ]
  store float %r, ptr %p
  ret void
}

; for (i = tid; i < n; i += ntid) a[i] += 1;
define void @_Z7old_gpuPfi(ptr %a, i32 %n) #1 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %c0 = icmp slt i32 %tid, %n
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %loop ]
  %idx = sext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %idx
  %v = load float, ptr %p
  %w = fadd float %v, 1.0
  store float %w, ptr %p
  %i.next = add i32 %i, %ntid
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; One warp per row, the warps of the grid striding over the rows; each row
; element shuffled down by one lane (nvptx_warp_vote.ll's kernel, on sm_90).
define void @warp_rows(ptr %a, i32 %rows) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nb = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %base = mul i32 %bid, %bdim
  %g = add i32 %base, %tid
  %w0 = lshr i32 %g, 5
  %all = mul i32 %nb, %bdim
  %warps = lshr i32 %all, 5
  %go = icmp slt i32 %w0, %rows
  br i1 %go, label %loop, label %ret

loop:
  %row = phi i32 [ %w0, %entry ], [ %row.next, %loop ]
  %ri = sext i32 %row to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ri
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  %row.next = add i32 %row, %warps
  %more = icmp slt i32 %row.next, %rows
  br i1 %more, label %loop, label %ret

ret:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { "target-cpu"="sm_75" }

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @_Z8scale_gsPfif, !"kernel", i32 1}
!1 = !{ptr @_Z7computePfii, !"kernel", i32 1}
!2 = !{ptr @_Z7old_gpuPfi, !"kernel", i32 1}
!3 = !{ptr @warp_rows, !"kernel", i32 1}
