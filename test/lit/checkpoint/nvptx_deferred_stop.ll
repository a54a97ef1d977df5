; Deferred stops: a loop followed by a barrier or a warp collective keeps
; per-thread checks, but a check that fires jumps to a meeting point right
; before that sync point, where everyone taking part decides together.
;  sum_then_sync: the barrier becomes a (non-.aligned) barrier.red.or over
;                 "jumped here, or (thread 0) saw request 2 here"; the values
;                 skipped by the jump are poison on its path; the CTA leaves
;                 through gmem.abort.
;  sum_then_shfl: a vote.sync.any with the shuffle's mask, over "jumped
;                 here, or saw request 2 here", comes before the shuffle,
;                 which stays; the warp leaves when any lane voted.
;  shfl_then_sync: a CTA barrier follows the shuffle: a warp that left would
;                 be waited for there, so a warp that stops skips on to the
;                 barrier's meeting point, which decides for the CTA.
;  part_then_sync: the same with a partial shuffle mask: lanes outside it
;                 would meet skipped lanes later, so no checkpoint.
;  shfl_any_mask: the shuffle's mask is not a constant: no checkpoint.
;  two_ways:      the loop's exits reach two different barriers: no
;                 checkpoint.
;  grid_then_sync: a grid-stride loop (its step reads %nctaid) before the
;                 barrier: its deferred checks are paced, where a row loop's
;                 (sum_then_sync: a step of 1) count the static K.
;  region_uses:   the loop also breaks out on data, and the code between it
;                 and the barrier branches (a conditional store) and defines
;                 the value stored after the barrier: a jump skips all of
;                 it, so that value gets a phi with poison from the jump.
;  tile_loop:     an inner loop between the two barriers of a tile loop that
;                 joins its first barrier: the tile loop stops there every
;                 iteration, the inner loop gets no check of its own and the
;                 second barrier stays a plain one.
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=PACED
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -pass-remarks-analysis=gmem-checkpoint -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o %t.bc
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 %t.bc -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Flags: 5 = barriers + loop checkpoints, 1 = loop checkpoints, 4 = barriers only.
; CHECK: @__gmem_pre_info__Z13sum_then_syncPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 5, i32 1, i32 {{[0-9]+}}]
; CHECK: @__gmem_pre_info__Z13sum_then_shflPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1, i32 1, i32 {{[0-9]+}}]
; CHECK: @__gmem_pre_info__Z14shfl_then_syncPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 5, i32 1, i32 {{[0-9]+}}]
; CHECK: @__gmem_pre_info__Z14part_then_syncPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4, i32 0, i32 0]
; CHECK: @__gmem_pre_info__Z13shfl_any_maskPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0, i32 0, i32 0]
; CHECK: @__gmem_pre_info__Z8two_waysPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4, i32 0, i32 0]
; CHECK: @__gmem_pre_info__Z9tile_loopPfii = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 5, i32 1, i32 {{[0-9]+}}]

; CHECK-LABEL: define void @__gmem_pre__Z13sum_then_syncPfi(
; CHECK:       after:
; CHECK-NEXT:    %r = phi float
; CHECK-NEXT:    br label %gmem.meet
; CHECK:       gmem.meet.jump:
; CHECK-NEXT:    br label %gmem.meet
; CHECK:       gmem.meet:
; CHECK-NEXT:    %[[R:.*]] = phi float [ %r, %after ], [ poison, %gmem.meet.jump ]
; CHECK-NEXT:    %gmem.meet.aborted = phi i1 [ false, %after ], [ true, %gmem.meet.jump ]
; CHECK-NEXT:    br i1 %gmem.tid0, label %[[READ:.*]], label %[[DECIDE:.*]]
; CHECK:       [[READ]]:
; CHECK-NEXT:    load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK:       [[DECIDE]]:
; CHECK-NEXT:    %gmem.meet.saw = phi i1
; CHECK-NEXT:    %gmem.meet.mine = or i1 %gmem.meet.aborted, %gmem.meet.saw
; CHECK:         barrier.red.or.pred
; CHECK:         br i1 %gmem.meet.stop, label %gmem.abort, label %after.gmem.after
; CHECK:       after.gmem.after:
; CHECK-NEXT:    store float %[[R]], ptr %a
; CHECK:       gmem.ckpt:
; CHECK-NEXT:    %[[Q:gmem.request[0-9]*]] = load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK-NEXT:    %[[D:.*]] = icmp eq i32 %[[Q]], 2
; CHECK-NEXT:    br i1 %[[D]], label %gmem.meet.jump, label %gmem.ckpt.seg
; CHECK-NOT:     call void @llvm.nvvm.barrier0()
; CHECK:       }

; CHECK-LABEL: define void @__gmem_pre__Z13sum_then_shflPfi(
; CHECK:       gmem.meet:
; CHECK-NEXT:    %[[R2:.*]] = phi i32 [ %r, %after ], [ poison, %gmem.meet.jump ]
; CHECK-NEXT:    %gmem.meet.aborted = phi i1
; CHECK-NEXT:    %gmem.request = load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK-NEXT:    %[[SAW:.*]] = icmp eq i32 %gmem.request, 2
; CHECK-NEXT:    %gmem.meet.mine = or i1 %gmem.meet.aborted, %[[SAW]]
; CHECK-NEXT:    %gmem.meet.stop = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %gmem.meet.mine)
; CHECK-NEXT:    br i1 %gmem.meet.stop, label %gmem.abort, label %after.gmem.after
; CHECK:       after.gmem.after:
; CHECK-NEXT:    call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %[[R2]], i32 16, i32 31)
; CHECK:       gmem.ckpt:
; CHECK:         br i1 %{{.*}}, label %gmem.meet.jump, label %gmem.ckpt.seg
; CHECK:       }

; CHECK-LABEL: define void @__gmem_pre__Z14shfl_then_syncPfi(
; CHECK:       [[WARP:gmem.meet[0-9]+]]:
; CHECK:         %[[WS:.*]] = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %gmem.meet.mine{{[0-9]*}})
; CHECK-NEXT:    br i1 %[[WS]], label %[[ON:gmem.meet.jump[0-9]*]], label %[[SHFL:.*]]
; CHECK:       [[SHFL]]:
; CHECK-NEXT:    %x = call i32 @llvm.nvvm.shfl.sync.down.i32(
; CHECK-NEXT:    br label %gmem.meet{{$}}
; CHECK:       [[ON]]:
; CHECK-NEXT:    br label %gmem.meet{{$}}
; CHECK:       gmem.meet:
; CHECK-NEXT:    %[[X:.*]] = phi i32 [ %x, %[[SHFL]] ], [ poison, %[[ON]] ]
; CHECK-NEXT:    %gmem.meet.aborted = phi i1 [ false, %[[SHFL]] ], [ true, %[[ON]] ]
; CHECK:         barrier.red.or.pred
; CHECK:         br i1 %gmem.meet.stop, label %gmem.abort,
; CHECK:         store i32 %[[X]], ptr %a
; CHECK:       gmem.ckpt:
; CHECK:         br i1 %{{.*}}, label %gmem.meet.jump{{[0-9]+}}, label %gmem.ckpt.seg
; CHECK-NOT:     call void @llvm.nvvm.barrier0()
; CHECK:       }
; CHECK-LABEL: define void @__gmem_pre__Z14part_then_syncPfi(
; CHECK-NOT:     gmem.ckpt
; CHECK-NOT:     gmem.meet
; CHECK:       }
; CHECK-LABEL: define void @__gmem_pre__Z13shfl_any_maskPfi(
; CHECK-NOT:     gmem.ckpt
; CHECK-NOT:     gmem.meet
; CHECK:       }
; CHECK-LABEL: define void @__gmem_pre__Z8two_waysPfi(
; CHECK-NOT:     gmem.ckpt
; CHECK-NOT:     gmem.meet
; CHECK:       }

; PACED-LABEL: define void @__gmem_pre__Z13sum_then_syncPfi(
; PACED-NOT:     gmem.pace
; PACED:       }
; PACED-LABEL: define void @__gmem_pre__Z14grid_then_syncPfi(
; PACED:         %gmem.pace = phi i32
; PACED:         br i1 %{{.*}}, label %gmem.meet.jump, label %gmem.ckpt.seg
; PACED:       }

; CHECK-LABEL: define void @__gmem_pre__Z11region_usesPfPii(
; CHECK:       join:
; CHECK-NEXT:    %q = phi float [ %half, %then ], [ %r, %after ]
; CHECK-NEXT:    br label %gmem.meet
; CHECK:       gmem.meet:
; CHECK-NEXT:    %[[Q:.*]] = phi float [ %q, %join ], [ poison, %gmem.meet.jump ]
; CHECK-NEXT:    %gmem.meet.aborted = phi i1 [ false, %join ], [ true, %gmem.meet.jump ]
; CHECK:         store float %[[Q]], ptr %a
; CHECK:       }

; CHECK-LABEL: define void @__gmem_pre__Z9tile_loopPfii(
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK-NOT:     gmem.meet
; CHECK:         call void @llvm.nvvm.barrier0()
; CHECK-NOT:     gmem.meet
; CHECK:       }

; Each decision is an analysis remark (-Rpass-analysis=gmem-checkpoint in
; clang), in the order of the kernels above.
; REMARK: loop checkpoint deferred to the CTA barrier after the loop
; REMARK: loop checkpoint deferred to the warp collective after the loop
; REMARK: loop checkpoint deferred to the warp collective and then the CTA barrier after the loop
; REMARK: no loop checkpoint: a barrier or warp collective follows the loop (a partial-mask collective before a CTA barrier)
; REMARK: no loop checkpoint: a barrier or warp collective follows the loop (the sync point is not a CTA barrier or a masked warp collective)
; REMARK: no loop checkpoint: a barrier or warp collective follows the loop (paths reach different sync points)
; REMARK: loop checkpoint deferred to the CTA barrier after the loop
; REMARK: loop checkpoint deferred to the CTA barrier after the loop
; REMARK: no loop checkpoint: an enclosing loop stops at its barrier every iteration

; ptxas-level shape: the meeting points are real instructions.
; PTX-LABEL: .entry __gmem_pre__Z13sum_then_syncPfi(
; PTX:         barrier.red.or.pred
; PTX-LABEL: .entry __gmem_pre__Z13sum_then_shflPfi(
; PTX:         vote.sync.any.pred

define void @_Z13sum_then_syncPfi(ptr %a, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %after

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %i64
  %v = load float, ptr %p
  %s.next = fadd float %s, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  call void @llvm.nvvm.barrier0()
  store float %r, ptr %a
  ret void
}

define void @_Z13sum_then_shflPfi(ptr %a, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %after

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr i32, ptr %a, i64 %i64
  %v = load i32, ptr %p
  %s.next = add i32 %s, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %r = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %x = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %r, i32 16, i32 31)
  %y = add i32 %r, %x
  store i32 %y, ptr %a
  ret void
}

define void @_Z14shfl_then_syncPfi(ptr %a, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %after

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr i32, ptr %a, i64 %i64
  %v = load i32, ptr %p
  %s.next = add i32 %s, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %r = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %x = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %r, i32 16, i32 31)
  call void @llvm.nvvm.barrier0()
  store i32 %x, ptr %a
  ret void
}

define void @_Z14part_then_syncPfi(ptr %a, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %after

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr i32, ptr %a, i64 %i64
  %v = load i32, ptr %p
  %s.next = add i32 %s, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %r = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %x = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 65535, i32 %r, i32 8, i32 31)
  call void @llvm.nvvm.barrier0()
  store i32 %x, ptr %a
  ret void
}

define void @_Z13shfl_any_maskPfi(ptr %a, i32 %n) {
entry:
  %m = call i32 @llvm.nvvm.activemask()
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %after

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr i32, ptr %a, i64 %i64
  %v = load i32, ptr %p
  %s.next = add i32 %s, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %r = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %x = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 %m, i32 %r, i32 16, i32 31)
  store i32 %x, ptr %a
  ret void
}

define void @_Z8two_waysPfi(ptr %a, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %after

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %body ]
  %i64 = zext i32 %i to i64
  %p = getelementptr i32, ptr %a, i64 %i64
  %v = load i32, ptr %p
  %neg = icmp slt i32 %v, 0
  br i1 %neg, label %early, label %body

body:
  %s.next = add i32 %s, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

early:
  call void @llvm.nvvm.barrier0()
  store i32 %s, ptr %a
  ret void

after:
  %r = phi i32 [ 0, %entry ], [ %s.next, %body ]
  call void @llvm.nvvm.barrier0()
  store i32 %r, ptr %a
  ret void
}

define void @_Z14grid_then_syncPfi(ptr %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %stride = mul i32 %ntid, %nctaid
  %c0 = icmp slt i32 %tid, %n
  br i1 %c0, label %loop, label %after

loop:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %i64
  %v = load float, ptr %p
  %s.next = fadd float %s, %v
  %i.next = add nsw i32 %i, %stride
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  call void @llvm.nvvm.barrier0()
  store float %r, ptr %a
  ret void
}

define void @_Z11region_usesPfPii(ptr %a, ptr %flags, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %after

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %latch ]
  %i64 = zext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %i64
  %v = load float, ptr %p
  %neg = fcmp olt float %v, -1.000000e+01
  br i1 %neg, label %after, label %latch

latch:
  %s.next = fadd float %s, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %r = phi float [ 0.0, %entry ], [ %s, %loop ], [ %s.next, %latch ]
  %big = fcmp ogt float %r, 1.0
  br i1 %big, label %then, label %join

then:
  %half = fmul float %r, 0.5
  store i32 1, ptr %flags
  br label %join

join:
  %q = phi float [ %half, %then ], [ %r, %after ]
  call void @llvm.nvvm.barrier0()
  store float %q, ptr %a
  ret void
}

define void @_Z9tile_loopPfii(ptr %a, i32 %n, i32 %m) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %tile, label %done

tile:
  %t = phi i32 [ 0, %entry ], [ %t.next, %tile.end ]
  %acc = phi float [ 0.0, %entry ], [ %acc.out, %tile.end ]
  call void @llvm.nvvm.barrier0()
  %cm = icmp sgt i32 %m, 0
  br i1 %cm, label %inner, label %tile.end

inner:
  %k = phi i32 [ 0, %tile ], [ %k.next, %inner ]
  %s = phi float [ %acc, %tile ], [ %s.next, %inner ]
  %k64 = zext i32 %k to i64
  %p = getelementptr float, ptr %a, i64 %k64
  %v = load float, ptr %p
  %s.next = fadd float %s, %v
  %k.next = add i32 %k, 1
  %ck = icmp slt i32 %k.next, %m
  br i1 %ck, label %inner, label %tile.end

tile.end:
  %acc.out = phi float [ %acc, %tile ], [ %s.next, %inner ]
  call void @llvm.nvvm.barrier0()
  %t.next = add i32 %t, 1
  %ct = icmp slt i32 %t.next, %n
  br i1 %ct, label %tile, label %done

done:
  %r = phi float [ 0.0, %entry ], [ %acc.out, %tile.end ]
  store float %r, ptr %a
  ret void
}

declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.activemask()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7, !8}
!0 = !{ptr @_Z13sum_then_syncPfi, !"kernel", i32 1}
!1 = !{ptr @_Z13sum_then_shflPfi, !"kernel", i32 1}
!2 = !{ptr @_Z14shfl_then_syncPfi, !"kernel", i32 1}
!3 = !{ptr @_Z13shfl_any_maskPfi, !"kernel", i32 1}
!4 = !{ptr @_Z8two_waysPfi, !"kernel", i32 1}
!5 = !{ptr @_Z14part_then_syncPfi, !"kernel", i32 1}
!6 = !{ptr @_Z9tile_loopPfii, !"kernel", i32 1}
!7 = !{ptr @_Z14grid_then_syncPfi, !"kernel", i32 1}
!8 = !{ptr @_Z11region_usesPfPii, !"kernel", i32 1}
