; Every-trip checks of loops with chained loads (an ELL row: x[col[k]] and
; v[idx[k]] each wait for two dependent misses) read the request from the
; cp.async landing area on sm_80+, as paced loops do: where the cache's
; deadline has passed the check moves it and issues a copy of the control
; word that nobody waits for. A synchronous refresh made the warp wait for
; the control word's L2 round trip behind the row's own misses (spmv_ell's
; clone +7.7% against +2.2% without refreshes, H200, bench/preempt/results/
; session39). A loop without chained loads, and GMEM_CHECKPOINT_CHAIN_REFRESH
; =sync, keep the synchronous refresh; so does sm_75 (no cp.async).
; RUN: env GMEM_CHECKPOINT_VERSION=0 GMEM_CHECKPOINT_BUDGET=16 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s
; RUN: env GMEM_CHECKPOINT_VERSION=0 GMEM_CHECKPOINT_BUDGET=16 GMEM_CHECKPOINT_CHAIN_REFRESH=sync opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=SYNC
; RUN: env GMEM_CHECKPOINT_VERSION=0 GMEM_CHECKPOINT_BUDGET=16 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - \
; RUN:   | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

; CHECK-LABEL: define void @__gmem_pre_ell(
; CHECK:       gmem.ckpt:
; CHECK-NEXT:    %[[NOW:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; CHECK-NEXT:    %[[DL:.*]] = load volatile i32, ptr addrspace(3) getelementptr inbounds ([8 x i32], ptr addrspace(3) @__gmem_landing___gmem_pre_ell, i32 0, i32 4)
; CHECK-NEXT:    %[[LATE:.*]] = sub i32 %[[NOW]], %[[DL]]
; CHECK-NEXT:    %gmem.cache.due = icmp sge i32 %[[LATE]], 0
; CHECK-NEXT:    br i1 %gmem.cache.due, label %gmem.cache.prefetch, label
; CHECK:       gmem.cache.prefetch:
; CHECK-NEXT:    %[[NOW1:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; CHECK-NEXT:    %[[NEXT:.*]] = add i32 %[[NOW1]], 1024
; CHECK-NEXT:    store volatile i32 %[[NEXT]], ptr addrspace(3) getelementptr inbounds ([8 x i32], ptr addrspace(3) @__gmem_landing___gmem_pre_ell, i32 0, i32 4)
; CHECK-NEXT:    call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) @__gmem_landing___gmem_pre_ell, ptr addrspace(1) %gmem.ctl)
; CHECK:         %gmem.request.landed = load volatile i32, ptr addrspace(3) @__gmem_landing___gmem_pre_ell
; CHECK-NEXT:    icmp eq i32 %gmem.request.landed, 2
; No copy lands after the CTA has left.
; CHECK:         call void @llvm.nvvm.cp.async.wait.all()
; CHECK-NEXT:    ret void
; CHECK-LABEL: define void @__gmem_pre_dense(
; CHECK:       gmem.cache.refresh:
; CHECK:         call i32 asm sideeffect "ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l"(ptr addrspace(1) %gmem.ctl)
; CHECK-LABEL: define void @__gmem_pre_ell_sm75(
; CHECK-NOT:     cp.async
; CHECK:       gmem.cache.refresh:
; CHECK:         call i32 asm sideeffect "ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l"(ptr addrspace(1) %gmem.ctl)
; CHECK:       }

; SYNC-LABEL: define void @__gmem_pre_ell(
; SYNC-NOT:     cp.async
; SYNC:       gmem.cache.refresh:
; SYNC:         call i32 asm sideeffect "ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l"(ptr addrspace(1) %gmem.ctl)
; SYNC:       }

; PTX-LABEL: .entry __gmem_pre_ell(
; PTX:         cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
; PTX:         cp.async.wait_all;

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; y[row] = sum over k < width of v[idx[k*n+row]] * x[col[k*n+row]]
define void @ell(ptr addrspace(1) %col, ptr addrspace(1) %idx, ptr addrspace(1) %v, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n, i32 %width) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %bdim
  %row = add i32 %base, %tid
  %in = icmp slt i32 %row, %n
  %go = icmp sgt i32 %width, 0
  %both = and i1 %in, %go
  br i1 %both, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %kn = mul i32 %k, %n
  %at = add i32 %kn, %row
  %at64 = sext i32 %at to i64
  %pc = getelementptr inbounds i32, ptr addrspace(1) %col, i64 %at64
  %c = load i32, ptr addrspace(1) %pc, align 4
  %c64 = sext i32 %c to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %c64
  %xv = load float, ptr addrspace(1) %px, align 4
  %pi = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %at64
  %i = load i32, ptr addrspace(1) %pi, align 4
  %i64 = sext i32 %i to i64
  %pv = getelementptr inbounds float, ptr addrspace(1) %v, i64 %i64
  %vv = load float, ptr addrspace(1) %pv, align 4
  %p = fmul float %xv, %vv
  %s.next = fadd float %s, %p
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %width
  br i1 %more, label %loop, label %store

store:
  %row64 = sext i32 %row to i64
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %row64
  store float %s.next, ptr addrspace(1) %py, align 4
  br label %exit

exit:
  ret void
}

; Two independent loads an iteration: under a budget of 16 (the RUN lines)
; also checked every trip, but without chains: refreshed in place.
define void @dense(ptr addrspace(1) %x, ptr addrspace(1) %w, ptr addrspace(1) %y, i32 %n, i32 %width) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %go = icmp sgt i32 %width, 0
  br i1 %go, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %kn = mul i32 %k, %n
  %at = add i32 %kn, %tid
  %at64 = sext i32 %at to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %at64
  %xv = load float, ptr addrspace(1) %px, align 4
  %pw = getelementptr inbounds float, ptr addrspace(1) %w, i64 %at64
  %wv = load float, ptr addrspace(1) %pw, align 4
  %p = fmul float %xv, %wv
  %s.next = fadd float %s, %p
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %width
  br i1 %more, label %loop, label %store

store:
  %t64 = sext i32 %tid to i64
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %t64
  store float %s.next, ptr addrspace(1) %py, align 4
  br label %exit

exit:
  ret void
}

define void @ell_sm75(ptr addrspace(1) %col, ptr addrspace(1) %idx, ptr addrspace(1) %v, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n, i32 %width) #1 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %go = icmp sgt i32 %width, 0
  br i1 %go, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %kn = mul i32 %k, %n
  %at = add i32 %kn, %tid
  %at64 = sext i32 %at to i64
  %pc = getelementptr inbounds i32, ptr addrspace(1) %col, i64 %at64
  %c = load i32, ptr addrspace(1) %pc, align 4
  %c64 = sext i32 %c to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %c64
  %xv = load float, ptr addrspace(1) %px, align 4
  %pi = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %at64
  %i = load i32, ptr addrspace(1) %pi, align 4
  %i64 = sext i32 %i to i64
  %pv = getelementptr inbounds float, ptr addrspace(1) %v, i64 %i64
  %vv = load float, ptr addrspace(1) %pv, align 4
  %p = fmul float %xv, %vv
  %s.next = fadd float %s, %p
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %width
  br i1 %more, label %loop, label %store

store:
  %t64 = sext i32 %tid to i64
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %t64
  store float %s.next, ptr addrspace(1) %py, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { "target-cpu"="sm_75" }

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @ell, !"kernel", i32 1}
!1 = !{ptr @dense, !"kernel", i32 1}
!2 = !{ptr @ell_sm75, !"kernel", i32 1}
