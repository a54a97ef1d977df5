; A thread may leave a loop alone only if nobody will wait for it: no
; barrier and no warp collective may be reachable from the loop. With
; deferred stops off (GMEM_CHECKPOINT_DEFER=0) such loops get no checkpoint;
; nvptx_deferred_stop.ll has what they get by default.
;  sum_then_sync: barrier-free loop, then __syncthreads: no loop checkpoint
;                 (flags 4: uses barriers, no loop checkpoints).
;  sum_then_shfl: barrier-free loop, then a warp shuffle: no loop checkpoint.
;  sync_then_loop: the loop comes after the last barrier: checked per thread.
; RUN: env GMEM_CHECKPOINT_DEFER=0 GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__gmem_pre_info__Z13sum_then_syncPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4, i32 0, i32 0]
; CHECK: @__gmem_pre_info__Z13sum_then_shflPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0, i32 0, i32 0]
; CHECK: @__gmem_pre_info__Z14sync_then_loopPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 5, i32 1, i32 {{[0-9]+}}]

; CHECK-LABEL: define void @__gmem_pre__Z13sum_then_syncPfi(
; CHECK-NOT:     gmem.ckpt
; CHECK-NOT:     gmem.abort
; CHECK:         call void @llvm.nvvm.barrier0()
; CHECK-NOT:     gmem.ckpt
; CHECK:       }
; CHECK-LABEL: define void @__gmem_pre__Z13sum_then_shflPfi(
; CHECK-NOT:     gmem.ckpt
; CHECK:         call i32 @llvm.nvvm.shfl.sync.down.i32(
; CHECK-NOT:     gmem.ckpt
; CHECK:       }
; CHECK-LABEL: define void @__gmem_pre__Z14sync_then_loopPfi(
; CHECK:         call void @llvm.nvvm.barrier0()
; CHECK:         %gmem.cont = icmp {{.*}} i32 %i.next, %gmem.ckpt.limit
; CHECK:       gmem.ckpt:
; CHECK-NEXT:    load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK:       }

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

define void @_Z14sync_then_loopPfi(ptr %a, i32 %n) {
entry:
  call void @llvm.nvvm.barrier0()
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %i64
  store float 1.0, ptr %p
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @_Z13sum_then_syncPfi, !"kernel", i32 1}
!1 = !{ptr @_Z13sum_then_shflPfi, !"kernel", i32 1}
!2 = !{ptr @_Z14sync_then_loopPfi, !"kernel", i32 1}
