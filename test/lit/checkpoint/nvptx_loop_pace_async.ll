; Paced loops on sm_80+ refresh the request with cp.async
; (CheckpointLoopPace.cpp): a segment whose start clock is past the deadline
; (word 4 of the 16-byte aligned landing area) moves it and copies the
; control block's first 16 bytes into words 0-3, and nobody waits for the
; copy: the check reads word 0. Every return first waits for the thread's
; copies (cp.async.wait_all), so none lands after the CTA has left.
; GMEM_CHECKPOINT_PREFETCH=load, or a target below sm_80, issue a volatile
; load at the segment's start instead (nvptx_loop_pace.ll).
; The strip-mined segments are what GMEM_CHECKPOINT_PACE_FORM=segment gives
; a loop that touches memory (by default it is checked in its body,
; nvptx_loop_pace_body.ll); the sm_75 kernel has no landing area and keeps
; its segments in every form.
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_VERSION=0 GMEM_CHECKPOINT_PACE_FORM=segment opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_VERSION=0 GMEM_CHECKPOINT_PREFETCH=load opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=LOAD
; RUN: env GMEM_CHECKPOINT_VERSION=0 GMEM_CHECKPOINT_PACE_FORM=segment opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

; CHECK: @__gmem_landing___gmem_pre__Z8scale_gsPfif = internal addrspace(3) global [8 x i32] undef, align 16
; CHECK-NOT: @__gmem_landing___gmem_pre__Z7old_gpuPfi
; CHECK-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; Thread 0 at the entry: request 0, deadline now.
; CHECK:         store volatile i32 0, ptr addrspace(3) @__gmem_landing___gmem_pre__Z8scale_gsPfif
; CHECK-NEXT:    %[[NOW0:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; CHECK-NEXT:    store volatile i32 %[[NOW0]], ptr addrspace(3) getelementptr inbounds ([8 x i32], ptr addrspace(3) @__gmem_landing___gmem_pre__Z8scale_gsPfif, i32 0, i32 4)
; CHECK:       gmem.ckpt.seg:
; CHECK:         %[[T:.*]] = and i32 %gmem.pace, -64
; CHECK-NEXT:    %[[DL:.*]] = load volatile i32, ptr addrspace(3) getelementptr inbounds ([8 x i32], ptr addrspace(3) @__gmem_landing___gmem_pre__Z8scale_gsPfif, i32 0, i32 4)
; CHECK-NEXT:    %[[LATE:.*]] = sub i32 %[[T]], %[[DL]]
; CHECK-NEXT:    %gmem.cache.due = icmp sge i32 %[[LATE]], 0
; CHECK-NEXT:    br i1 %gmem.cache.due, label %gmem.cache.prefetch, label
; CHECK:       gmem.cache.prefetch:
; CHECK-NEXT:    %[[NEXT:.*]] = add i32 %[[T]], 1024
; CHECK-NEXT:    store volatile i32 %[[NEXT]], ptr addrspace(3) getelementptr inbounds ([8 x i32], ptr addrspace(3) @__gmem_landing___gmem_pre__Z8scale_gsPfif, i32 0, i32 4)
; CHECK-NEXT:    call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) @__gmem_landing___gmem_pre__Z8scale_gsPfif, ptr addrspace(1) %gmem.ctl)
; CHECK:       gmem.ckpt:
; CHECK:         %gmem.pace.next = or i32
; CHECK-NEXT:    %gmem.request.landed = load volatile i32, ptr addrspace(3) @__gmem_landing___gmem_pre__Z8scale_gsPfif
; CHECK-NEXT:    %[[STOP:.*]] = icmp eq i32 %gmem.request.landed, 2
; CHECK-NEXT:    br i1 %[[STOP]], label %gmem.abort, label %gmem.ckpt.seg
; CHECK:         call void @llvm.nvvm.cp.async.wait.all()
; CHECK-NEXT:    ret void
; sm_75: no cp.async; the segment's start loads the request.
; CHECK-LABEL: define void @__gmem_pre__Z7old_gpuPfi(
; CHECK-NOT:     cp.async
; CHECK:         %gmem.request.pending = phi i32
; CHECK-NOT:     cp.async
; CHECK:         ret void

; LOAD-NOT:    @__gmem_landing_
; LOAD-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; LOAD-NOT:      cp.async
; LOAD:          %gmem.request.pending = phi i32

; PTX-LABEL: .visible .entry __gmem_pre__Z8scale_gsPfif(
; PTX:         cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
; PTX:         cp.async.wait_all;

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

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { "target-cpu"="sm_75" }

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @_Z8scale_gsPfif, !"kernel", i32 1}
!1 = !{ptr @_Z7old_gpuPfi, !"kernel", i32 1}
