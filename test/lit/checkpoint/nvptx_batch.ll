; Check intervals (info flag bit 8, Batched): set where some form of the
; kernel may skip checks; then every persistent form masks grid_z to its low
; 16 bits; the high 16 bits are K (0 counts as 1). Forms
; that may skip their between-virtual-CTA check do so for K - 1 of every K
; virtual CTAs, with a counter every thread keeps alike: the CTA protocol's
; skip path has no barrier and no request read, so it is taken only where
; nothing needs that barrier (no shared memory of the kernel's; loop stops
; only at joined barriers, so Aborted is the same in every thread; loop state
; in registers). The free form counts on its own and looks through the CTA's
; request cache every K-th virtual CTA instead of gating on %clock.
; (GMEM_CHECKPOINT_VSTOP=light: the bar.red.or decision after a virtual CTA;
; nvptx_stamped_stop.ll checks the default, a stop word for kernels
; without shared memory.)
; (GMEM_CHECKPOINT_LATE=0: the late read at the end of a virtual CTA has its
; own test, nvptx_late_read.ll.)
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=PTX
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_SEG_SCALE=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; Flags: 16 persistent + 128 free + 256 batched; tiled has barriers (4), no
; free form and no form that may skip (shared memory): not batched (its
; alternate form, 64, hands out a balanced tail instead: 512 + 25 << 16);
; gstride has loop checkpoints (1), a light (32) and an alternate (64) twin.
; CHECK-DAG: @__gmem_pre_info_relu = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 432,
; CHECK-DAG: @__gmem_pre_info_tiled = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1640052,
; CHECK-DAG: @__gmem_pre_info_gstride = addrspace(1) constant [6 x i32] [i32 827346247, i32 2, i32 12785,
; OFF-DAG: @__gmem_pre_info_relu = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 176,
; OFF-DAG: @__gmem_pre_info_tiled = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1640052,
; OFF-NOT: gmem.grid.z.lo
; OFF-NOT: gmem.left

; relu: no shared memory, no loop: the main clone skips the barrier.
; CHECK-LABEL: define void @__gmem_pre_relu(
; CHECK:         %gmem.grid.z.lo = and i32 %gmem.grid.z, 65535
; CHECK-NEXT:    %[[HI:.*]] = lshr i32 %gmem.grid.z, 16
; CHECK-NEXT:    %gmem.batch = call i32 @llvm.umax.i32(i32 %[[HI]], i32 1)
; CHECK:         %gmem.total = mul i32 %{{.*}}, %gmem.grid.z.lo
; Thread 0 reads the request only before a virtual CTA whose end looks.
; CHECK:       gmem.exit:
; CHECK:         %[[DUE:.*]] = icmp eq i32 %gmem.left.0, 1
; CHECK-NEXT:    %gmem.p.due = or i1 false, %[[DUE]]
; CHECK-NEXT:    br i1 %gmem.p.due, label %gmem.p.look, label %gmem.p.skip
; CHECK:       gmem.p.header:
; CHECK:         %gmem.left.0 = phi i32 [ %gmem.batch, %gmem.p.check ], [ %gmem.left.1, %gmem.p.cont ]
; CHECK:       gmem.p.coords:
; CHECK:         %[[ONE:.*]] = icmp eq i32 %gmem.left.0, 1
; CHECK-NEXT:    %[[READ:.*]] = and i1 %gmem.tid0, %[[ONE]]
; CHECK-NEXT:    br i1 %[[READ]], label %gmem.p.req,
; CHECK:         %gmem.left.1 = phi i32 [ %gmem.batch, %gmem.p.look ], [ %[[DEC:.*]], %gmem.p.skip ]
; CHECK:       gmem.p.look:
; CHECK-NOT:   gmem.p.skip:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:       gmem.p.skip:
; CHECK-NEXT:    %[[DEC]] = sub i32 %gmem.left.0, 1
; CHECK-NEXT:    br label %gmem.p.cont
; The free form: a counter, no %clock gate.
; CHECK-LABEL: define void @__gmem_prf_relu(
; CHECK:         %gmem.batch = call i32 @llvm.umax.i32(
; CHECK-NOT:     gmem.f.deadline
; CHECK:         %gmem.f.due = icmp eq i32 %gmem.left.0, 1
; CHECK-NEXT:    %[[NEXT:.*]] = sub i32 %gmem.left.0, 1
; CHECK-NEXT:    select i1 %gmem.f.due, i32 %gmem.batch, i32 %[[NEXT]]
; CHECK-NEXT:    br i1 %gmem.f.due, label %gmem.f.look,

; tiled: shared memory reused by the next virtual CTA: no form skips, so
; grid_z is the user's, unmasked (the runtime passes no interval).
; CHECK-LABEL: define void @__gmem_pre_tiled(
; CHECK-NOT:     gmem.grid.z.lo
; CHECK-NOT:     gmem.batch
; CHECK-NOT:     gmem.p.skip
; CHECK-LABEL: define void @__gmem_pre_gstride(

; gstride: a barrier-free loop gets per-thread latch checks, so a thread may
; come to the end of a virtual CTA aborted while the others are not: the
; main clone keeps its barrier; its light twin (no loop checks) and free
; form skip; the alternate form (state in shared memory, read before the
; barrier and written after it) only masks.
; CHECK:         %gmem.grid.z.lo = and i32 %gmem.grid.z, 65535
; CHECK-NOT:     gmem.p.skip
; CHECK-LABEL: define void @__gmem_prl_gstride(
; CHECK:         %gmem.batch = call i32 @llvm.umax.i32(
; CHECK:       gmem.p.skip:
; CHECK-LABEL: define void @__gmem_pra_gstride(
; CHECK:         %gmem.grid.z.lo = and i32 %gmem.grid.z, 65535
; CHECK-NOT:     gmem.p.skip
; CHECK-LABEL: define void @__gmem_prf_gstride(
; CHECK:         %gmem.f.due = icmp eq i32 %gmem.left.0, 1

; PTX-LABEL: .entry __gmem_pre_relu(
; PTX:         bar.red.or.pred
; PTX-LABEL: .entry __gmem_pre_tiled(

define void @relu(ptr %in, ptr %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %i = add i32 %base, %tid
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %pos = fcmp ogt float %v, 0.0
  %r = select i1 %pos, float %v, float 0.0
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %r, ptr %dst, align 4
  br label %done
done:
  ret void
}

; Each thread publishes a value, reads its neighbour's after the barrier.
define void @tiled(ptr %in, ptr %out) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = shl i32 %bid, 8
  %i = add i32 %base, %tid
  %idx = zext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %t = zext i32 %tid to i64
  %slot = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t
  store float %v, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  %nb = xor i32 %tid, 1
  %n64 = zext i32 %nb to i64
  %other = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %n64
  %w = load float, ptr addrspace(3) %other, align 4
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %w, ptr %dst, align 4
  ret void
}

define void @gstride(ptr %x, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %start = add i32 %base, %tid
  %stride = mul i32 %ntid, %nctaid
  %go = icmp slt i32 %start, %n
  br i1 %go, label %loop, label %done
loop:
  %i = phi i32 [ %start, %entry ], [ %i.next, %loop ]
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr %x, i64 %idx
  %v = load float, ptr %p, align 4
  %v2 = fmul float %v, 2.0
  store float %v2, ptr %p, align 4
  %i.next = add nsw i32 %i, %stride
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @relu, !"kernel", i32 1}
!1 = !{ptr @tiled, !"kernel", i32 1}
!2 = !{ptr @gstride, !"kernel", i32 1}
