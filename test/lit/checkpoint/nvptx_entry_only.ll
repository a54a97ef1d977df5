; Kernels the pass cannot make preemptible inside loops, or at all.
;  grid_sync: cooperative groups' grid.sync() (reads %envreg): skipping one
;    CTA at entry would leave the others waiting in grid.sync forever, so no
;    clone; the info global says why (flags 2|4|8 = entry-only, barriers,
;    no clone).
;  cluster_sync: a cluster barrier, same reason (flags 2|8).
;  asm_exit: inline asm `exit;` ends a thread without reaching the unified
;    exit, so its CTA could never be counted done: no clone (flags 2|8).
;  opaque_call: a call to an external function that might synchronise: a
;    clone with the entry checkpoint only, no loop checkpoint (flags 2).
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; Each kernel left without a clone says why in a remark (CUB's onesweep
; radix sort, with its asm `exit`, said nothing before):
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -pass-remarks-analysis=gmem-checkpoint -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; REMARK-DAG: remark: {{.*}}no preemptible clone: inline asm '%envreg (cooperative groups grid sync)'
; REMARK-DAG: remark: {{.*}}no preemptible clone: intrinsic 'llvm.nvvm.barrier.cluster.arrive'
; REMARK-DAG: remark: {{.*}}no preemptible clone: inline asm 'exit'

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__gmem_pre_info__Z9grid_syncPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 14, i32 0, i32 0]
; CHECK: @__gmem_pre_info__Z12cluster_syncPf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 10, i32 0, i32 0]
; CHECK: @__gmem_pre_info__Z8asm_exitPf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 10, i32 0, i32 0]
; CHECK: @__gmem_pre_info__Z11opaque_callPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 2, i32 0, i32 0]
; CHECK-NOT: define {{.*}}@__gmem_pre__Z9grid_syncPfi
; CHECK-NOT: define {{.*}}@__gmem_pre__Z12cluster_syncPf
; CHECK-NOT: define {{.*}}@__gmem_pre__Z8asm_exitPf
; CHECK-LABEL: define void @__gmem_pre__Z11opaque_callPfi(
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK-NOT:     gmem.ckpt
; CHECK-NOT:     gmem.abort
; CHECK:         call void @helper(
; CHECK-NOT:     gmem.ckpt
; CHECK-NOT:     gmem.abort
; CHECK:         atomicrmw or ptr addrspace(1)
; CHECK:       }

define void @_Z9grid_syncPfi(ptr %a, i32 %n) {
entry:
  %ws = call i32 asm "mov.u32 $0, %envreg2;", "=r"()
  call void @llvm.nvvm.barrier.sync(i32 0)
  store float 1.0, ptr %a
  ret void
}

define void @_Z12cluster_syncPf(ptr %a) {
entry:
  store float 1.0, ptr %a
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  ret void
}

define void @_Z8asm_exitPf(ptr %a) {
entry:
  store float 1.0, ptr %a
  call void asm sideeffect "exit;", ""()
  ret void
}

define void @_Z11opaque_callPfi(ptr %a, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  call void @helper(ptr %a, i32 %i)
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

declare void @helper(ptr, i32)
declare void @llvm.nvvm.barrier.sync(i32)
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @_Z9grid_syncPfi, !"kernel", i32 1}
!1 = !{ptr @_Z12cluster_syncPf, !"kernel", i32 1}
!2 = !{ptr @_Z8asm_exitPf, !"kernel", i32 1}
!3 = !{ptr @_Z11opaque_callPfi, !"kernel", i32 1}
