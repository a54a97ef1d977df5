; Loops that hold or are followed by warp collectives (a wmma k-loop, a
; warp-per-row loop of shuffles) had no loop checkpoint: one lane leaving
; alone would leave its warp-mates waiting at the collective. Where whole
; warps run the loop alike (every branch that decides whether a thread gets
; to one of its blocks, its exits included, is warp-uniform) the latch
; check leaves on `vote.any.sync(-1, request == 2)`: the warp leaves
; together, at the same trip. Only in persistent forms, whose info then
; carries WarpAlignedBlock (2048) so that the runtime runs them with
; whole-warp rows only; counted by IV or Limit, never by the per-thread
; work counter (lanes could reach the vote at different trips), and a paced
; segment takes lane 0's length by a shuffle at the segment's start.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -pass-remarks-analysis=gmem-checkpoint -S %s -o %t.ll 2> %t.remarks
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=PTX
; Without persistent clones: no vote, no loop checkpoint.
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=GRID

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; warp_rows: 1 site, flags: 1 loop checkpoints + 16 persistent + 32 light +
; 64 alternate + 256 batched + 2048 WarpAlignedBlock.
; CHECK-DAG: @__gmem_pre_info_warp_rows = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 6513, i32 1,
; A CTA barrier after the loop: no vote can satisfy it.
; CHECK-DAG: @__gmem_pre_info_rows_then_sync = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 {{[0-9]+}}, i32 0, i32 0]
; No induction variable (a loop over loaded links): no count every lane keeps alike.
; CHECK-DAG: @__gmem_pre_info_chase_links = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 {{[0-9]+}}, i32 0, i32 0]

; CHECK-LABEL: define void @__gmem_pre_warp_rows(
; CHECK:         %gmem.pace.warp = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %gmem.pace, i32 0, i32 31)
; CHECK:         %gmem.warp.stop = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1
; CHECK-NEXT:    br i1 %gmem.warp.stop, label %gmem.abort

; REMARK: loop checkpoint left by a warp vote
; REMARK: no loop checkpoint: a barrier or warp collective follows the loop
; REMARK: no loop checkpoint: warp collectives in or after the loop, and no induction variable

; PTX-LABEL: .entry __gmem_pre_warp_rows(
; PTX:         vote.sync.any.pred

; GRID: @__gmem_pre_info_warp_rows = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0, i32 0, i32 0]
; GRID-NOT: vote.any.sync

; One warp per row, the warps of the grid striding over the rows; each row
; summed by a shuffle per element.
define void @warp_rows(ptr %a, i32 %rows) {
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

; The same loop, then __syncthreads.
define void @rows_then_sync(ptr %a, i32 %rows) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %w0 = lshr i32 %tid, 5
  %go = icmp slt i32 %w0, %rows
  br i1 %go, label %loop, label %done

loop:
  %row = phi i32 [ %w0, %entry ], [ %row.next, %loop ]
  %ri = sext i32 %row to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ri
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  %row.next = add i32 %row, 8
  %more = icmp slt i32 %row.next, %rows
  br i1 %more, label %loop, label %done

done:
  call void @llvm.nvvm.barrier0()
  ret void
}

; A warp walks a linked list it loaded (the same links in every lane):
; uniform, but no induction variable.
define void @chase_links(ptr %next, ptr %out, i32 %start) {
entry:
  br label %loop

loop:
  %at = phi i32 [ %start, %entry ], [ %n, %loop ]
  %ai = sext i32 %at to i64
  %p = getelementptr inbounds i32, ptr %next, i64 %ai
  %n = load i32, ptr %p, align 4
  %f = sitofp i32 %n to float
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %f, i32 1, i32 31)
  %q = getelementptr inbounds float, ptr %out, i64 %ai
  store float %s, ptr %q, align 4
  %more = icmp sgt i32 %n, 0
  br i1 %more, label %loop, label %ret

ret:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @warp_rows, !"kernel", i32 1}
!1 = !{ptr @rows_then_sync, !"kernel", i32 1}
!2 = !{ptr @chase_links, !"kernel", i32 1}
