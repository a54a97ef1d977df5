; The request cache of NVPTX clones (GMEM_CHECKPOINT_REFRESH, default 1024
; SM cycles). Per-thread latch checks read a shared-memory copy of the
; request, and only a warp that finds the copy's deadline passed reads the
; control word (L2) again. Every thread reading one L2 line at every check
; was most of im2col's clone cost (bench/preempt/RESULTS.md).
;  * thread 0 initialises the cache (value 0, deadline now) before the
;    entry's bar.red.or, so no thread reads it uninitialised and the first
;    check refreshes;
;  * thread 0 between virtual CTAs, at joined barriers and for the redo
;    decision at a stop still reads the control word itself;
;  * clones without latch checks (and light twins) have no cache;
;  * GMEM_CHECKPOINT_REFRESH=0: no cache and no clock, every check reads
;    the control word (the other checkpoint tests show that form).
; (GMEM_CHECKPOINT_VSTOP=light: the bar.red.or decision after a virtual CTA;
; nvptx_stamped_stop.ll checks the default, a stop word for kernels
; without shared memory.)
; (GMEM_CHECKPOINT_LATE=0: the late read at the end of a virtual CTA has its
; own test, nvptx_late_read.ll.)
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_REFRESH=100 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s --check-prefix=R100
; GMEM_CHECKPOINT_REFRESH_ORDER=after (experiments): the deadline moves
; after the load, so warps that come to the check while it is in flight read
; the word too instead of the previous check's value.
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_REFRESH_ORDER=after opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s --check-prefix=AFTER
; AFTER-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; AFTER:       gmem.cache.refresh:
; AFTER-NEXT:    %[[FRESH:.*]] = load volatile i32, ptr addrspace(1) %gmem.ctl
; AFTER-NEXT:    store volatile i32 %[[FRESH]], ptr addrspace(3) @__gmem_reqcache___gmem_pre__Z8scale_gsPfif
; AFTER-NEXT:    %[[NOW1:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; AFTER-NEXT:    %[[NEXT:.*]] = add i32 %[[NOW1]], 1024
; AFTER-NEXT:    store volatile i32 %[[NEXT]], ptr addrspace(3) getelementptr inbounds ([2 x i32], ptr addrspace(3) @__gmem_reqcache___gmem_pre__Z8scale_gsPfif, i32 0, i32 1)
; GMEM_CHECKPOINT_REFRESH_ORDER=sparse (experiments): that order only at
; checks taken every trip of a body that costs the budget (here forced by a
; budget of 8); elsewhere the deadline still moves first.
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_REFRESH_ORDER=sparse GMEM_CHECKPOINT_BUDGET=8 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s --check-prefix=AFTER
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_REFRESH_ORDER=sparse opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s --check-prefix=GRID
; RUN: env GMEM_CHECKPOINT_PACE=0 GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 \
; RUN:   | FileCheck %s --check-prefix=PTX

; CHECK: @__gmem_reqcache___gmem_pre__Z8scale_gsPfif = internal addrspace(3) global [2 x i32] undef, align 8
; CHECK-NOT: @__gmem_reqcache___gmem_prl_
; CHECK-NOT: @__gmem_reqcache___gmem_pre__Z7vec_addPfi
; OFF-NOT: @__gmem_reqcache
; OFF-NOT: sreg.clock

; CHECK-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; The loop check: deadline passed -> move it, read the word, publish it.
; CHECK:       gmem.ckpt:
; CHECK-NEXT:    %[[NOW:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; CHECK-NEXT:    %[[DL:.*]] = load volatile i32, ptr addrspace(3) getelementptr inbounds ([2 x i32], ptr addrspace(3) @__gmem_reqcache___gmem_pre__Z8scale_gsPfif, i32 0, i32 1)
; CHECK-NEXT:    %[[LATE:.*]] = sub i32 %[[NOW]], %[[DL]]
; CHECK-NEXT:    %gmem.cache.due = icmp sge i32 %[[LATE]], 0
; CHECK-NEXT:    br i1 %gmem.cache.due, label %gmem.cache.refresh, label %gmem.cache.hit
; CHECK:       gmem.cache.refresh:
; CHECK-NEXT:    %[[NOW1:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; CHECK-NEXT:    %[[NEXT:.*]] = add i32 %[[NOW1]], 1024
; CHECK-NEXT:    store volatile i32 %[[NEXT]], ptr addrspace(3) getelementptr inbounds ([2 x i32], ptr addrspace(3) @__gmem_reqcache___gmem_pre__Z8scale_gsPfif, i32 0, i32 1)
; CHECK-NEXT:    %[[FRESH:.*]] = load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK-NEXT:    store volatile i32 %[[FRESH]], ptr addrspace(3) @__gmem_reqcache___gmem_pre__Z8scale_gsPfif
; CHECK:       gmem.cache.hit:
; CHECK-NEXT:    %gmem.request.cached = load volatile i32, ptr addrspace(3) @__gmem_reqcache___gmem_pre__Z8scale_gsPfif
; CHECK:       gmem.cache.seen:
; CHECK-NEXT:    %gmem.request.seen = phi i32 [ %[[FRESH]], %gmem.cache.refresh ], [ %gmem.request.cached, %gmem.cache.hit ]
; CHECK-NEXT:    %[[IS2:.*]] = icmp eq i32 %gmem.request.seen, 2
; CHECK:         br i1 %[[IS2]], label %gmem.abort, label %gmem.ckpt.seg
; Thread 0 at entry: reads the word, notes the time, initialises the cache;
; then the barrier.
; CHECK:       gmem.p.read:
; CHECK-NEXT:    %[[R0:.*]] = load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK-NEXT:    store volatile i32 0, ptr addrspace(3) @__gmem_reqcache___gmem_pre__Z8scale_gsPfif
; CHECK-NEXT:    %[[T1:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; CHECK-NEXT:    store volatile i32 %[[T1]], ptr addrspace(3) getelementptr inbounds ([2 x i32], ptr addrspace(3) @__gmem_reqcache___gmem_pre__Z8scale_gsPfif, i32 0, i32 1)
; CHECK-NEXT:    br label %gmem.p.decide
; CHECK:       gmem.p.decide:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; Between virtual CTAs: thread 0 reads the control word.
; CHECK:       gmem.p.req:
; CHECK-NEXT:    load volatile i32, ptr addrspace(1) %gmem.ctl
; The redo word comes from the threads' loop-abort flags, OR-ed on the stop
; path, not from the control word (a relaunch may have reset it already).
; CHECK:       gmem.p.stop:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:       gmem.p.save:
; CHECK-NEXT:    add i32 %gmem.vcta.0, 1
; CHECK-NEXT:    %gmem.p.redo = select i1

; The light twin (no loop checks) and a clone without loops have no cache
; and read no clock.
; CHECK-LABEL: define void @__gmem_prl__Z8scale_gsPfif(
; CHECK-NOT:     {{reqcache|sreg.clock}}
; CHECK:       }
; CHECK-LABEL: define void @__gmem_pre__Z7vec_addPfi(
; CHECK-NOT:     {{reqcache|sreg.clock}}
; CHECK:       }

; OFF-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; OFF:       gmem.ckpt:
; OFF-NEXT:    %gmem.request{{.*}} = load volatile i32, ptr addrspace(1) %gmem.ctl

; R100:      gmem.cache.refresh:
; R100-NEXT:   call i32 @llvm.nvvm.read.ptx.sreg.clock()
; R100-NEXT:   add i32 %{{.*}}, 100

; The per-CTA (grid) form: thread 0 initialises the cache where it clears
; the exit counter, before the entry barrier.
; GRID-LABEL: define void @__gmem_pre__Z8scale_gsPfif(
; GRID:         br i1 %gmem.tid0, label %[[T0B:.*]], label %[[ALL:.*]]
; GRID:       [[T0B]]:
; GRID-NEXT:    store i32 0, ptr addrspace(3) @__gmem_state___gmem_pre__Z8scale_gsPfif
; GRID-NEXT:    store volatile i32 0, ptr addrspace(3) @__gmem_reqcache___gmem_pre__Z8scale_gsPfif
; GRID-NEXT:    %[[GT:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; GRID-NEXT:    store volatile i32 %[[GT]], ptr addrspace(3) getelementptr inbounds ([2 x i32], ptr addrspace(3) @__gmem_reqcache___gmem_pre__Z8scale_gsPfif, i32 0, i32 1)
; GRID:       [[ALL]]:
; GRID:         call i32 @llvm.nvvm.barrier0.or(
; GRID:       gmem.cache.refresh:

; ptxas-level form: %clock and volatile shared accesses.
; PTX-LABEL: .entry __gmem_pre__Z8scale_gsPfif(
; PTX: .shared .align 8 .b8 __gmem_reqcache___gmem_pre__Z8scale_gsPfif[8];
; PTX: mov.u32 {{.*}}%clock;
; PTX-DAG: ld.volatile.shared.u32 {{.*}}[__gmem_reqcache___gmem_pre__Z8scale_gsPfif+4];
; PTX-DAG: ld.volatile.shared.u32 {{.*}}[__gmem_reqcache___gmem_pre__Z8scale_gsPfif];
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; A grid-stride loop without barriers: per-thread latch checks.
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

; No loop: no loop checks, so no cache.
define void @_Z7vec_addPfi(ptr %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %ctaid, %ntid
  %i = add i32 %m, %tid
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit

body:
  %idx = sext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %idx
  %v = load float, ptr %p
  %w = fadd float %v, 1.0
  store float %w, ptr %p
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @_Z8scale_gsPfif, !"kernel", i32 1}
!1 = !{ptr @_Z7vec_addPfi, !"kernel", i32 1}
