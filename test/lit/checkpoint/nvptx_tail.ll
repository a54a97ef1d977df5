; Balanced tail (info flag bit 9, BalancedTail, share in bits 16..23): the
; alternate form of a kernel whose shared memory rules out check intervals
; and that has barriers hands out the last GMEM_CHECKPOINT_TAIL percent
; (default 25) of its virtual CTAs on demand: thread 0 claims the next
; ticket with an atomic on control word 1 at the start of the virtual CTA
; before it (from the static end on), publishes it in a shared slot before
; the end-of-virtual-CTA barrier, and every thread reads it after; a stop
; keeps the claimed ticket in the CTA's resume word. The light twin does the
; same (bit 10, LightTail); such a kernel without loop checkpoints gets an
; alternate form for the tail alone, its state in registers. The full clone
; keeps static order (the runtime times the forms against each other).
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=PTX
; RUN: env GMEM_CHECKPOINT_TAIL=10 GMEM_CHECKPOINT_SEG_SCALE=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=TEN
; RUN: env GMEM_CHECKPOINT_TAIL=0 GMEM_CHECKPOINT_SEG_SCALE=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; steps: 1 loop checkpoints + 4 barriers + 16 persistent + 32 light + 64
; alternate + 512 tail + 1024 light tail + 25 << 16 = 1640053. tiled (no loop
; checkpoints: its twin is the main clone plus the late read, and the tail):
; 4 + 16 + 32 + 64 + 512 + 1024 + 25 << 16 = 1640052. relu (no shared
; memory: it batches) has none.
; CHECK-DAG: @__gmem_pre_info_steps = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1644149,
; CHECK-DAG: @__gmem_pre_info_tiled = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1640052,
; CHECK-DAG: @__gmem_pre_info_relu = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 432,
; TEN-DAG: @__gmem_pre_info_steps = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 657013,
; TEN-DAG: @__gmem_pre_info_tiled = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 657012,
; OFF-DAG: @__gmem_pre_info_steps = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 117,
; OFF-DAG: @__gmem_pre_info_tiled = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 52,
; OFF-NOT: gmem.claim
; OFF-NOT: atomicrmw add
; OFF-NOT: define void @__gmem_pra_tiled(

; The alternate form's loop state lives in shared memory only where there
; are loop checkpoints.
; CHECK-NOT: @__gmem_pstate___gmem_pra_tiled

; relu's forms have none.
; CHECK-LABEL: define void @__gmem_pre_relu(
; CHECK-NOT:     atomicrmw add
; CHECK-LABEL: define void @__gmem_prf_relu(
; CHECK-NOT:     atomicrmw add

; tiled: the full clone has none, its light twin and alternate form claim.
; CHECK-LABEL: define void @__gmem_pre_tiled(
; CHECK-NOT:     atomicrmw add
; CHECK-LABEL: define void @__gmem_prl_tiled(
; CHECK:         atomicrmw add ptr addrspace(1) %gmem.claimed, i32 1 monotonic
; CHECK-LABEL: define void @__gmem_pra_tiled(
; CHECK:         %gmem.static.end = call i32 @llvm.umin.i32(
; CHECK:         atomicrmw add ptr addrspace(1) %gmem.claimed, i32 1 monotonic

; steps: the full clone has none, the light twin claims.
; CHECK-LABEL: define void @__gmem_pre_steps(
; CHECK-NOT:     atomicrmw add
; CHECK-LABEL: define void @__gmem_prl_steps(
; CHECK:         atomicrmw add ptr addrspace(1) %gmem.claimed, i32 1 monotonic

; The static end: min(total, max(P, total - total * 25 / 100)), in 64 bits.
; CHECK-LABEL: define void @__gmem_pra_steps(
; CHECK:         %[[T64:.*]] = zext i32 %gmem.total to i64
; CHECK-NEXT:    %[[M:.*]] = mul i64 %[[T64]], 25
; CHECK-NEXT:    %[[D:.*]] = udiv i64 %[[M]], 100
; CHECK-NEXT:    %[[POOL:.*]] = trunc i64 %[[D]] to i32
; CHECK-NEXT:    %[[REST:.*]] = sub i32 %gmem.total, %[[POOL]]
; CHECK-NEXT:    %[[LO:.*]] = call i32 @llvm.umax.i32(i32 %gmem.P, i32 %[[REST]])
; CHECK-NEXT:    %gmem.static.end = call i32 @llvm.umin.i32(i32 %gmem.total, i32 %[[LO]])
; CHECK-NEXT:    %gmem.claimed = getelementptr inbounds i8, ptr addrspace(1) %gmem.ctl, i64 4
; The latch: thread 0 publishes its claim before the barrier.
; CHECK:       gmem.exit:
; CHECK:         %[[PUB:.*]] = and i1 %gmem.tid0, %gmem.claim.now
; CHECK-NEXT:    br i1 %[[PUB]], label %gmem.p.publish, label %gmem.p.latch
; Each virtual CTA: a claim is due once the next ticket is past the static
; end, unless it came from the resume word with a redo before it.
; CHECK:       gmem.p.coords:
; CHECK:         %[[PAST:.*]] = icmp uge i32 %{{.*}}, %gmem.static.end
; CHECK-NEXT:    %[[FREE:.*]] = xor i1 %gmem.fixed.0, true
; CHECK-NEXT:    %gmem.claim.now = and i1 %[[FREE]], %[[PAST]]
; CHECK:       gmem.p.decide:
; CHECK:         %[[REDO:.*]] = icmp ne i32 %gmem.w.redo, 0
; Thread 0 claims while it reads the request.
; CHECK:       gmem.p.req:
; CHECK:         br i1 %gmem.claim.now, label %gmem.p.claim, label %entry
; CHECK:       gmem.p.claim:
; CHECK-NEXT:    %[[GOT:.*]] = atomicrmw add ptr addrspace(1) %gmem.claimed, i32 1 monotonic, align 4
; CHECK-NEXT:    add i32 %gmem.static.end, %[[GOT]]
; CHECK:       gmem.p.publish:
; CHECK:         store i32 %gmem.mine.0, ptr addrspace(3)
; CHECK:       gmem.p.latch:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; Everyone reads it after the barrier.
; CHECK:       gmem.p.claimed:
; CHECK:         %gmem.v.claimed = load i32, ptr addrspace(3)
; CHECK:       gmem.p.next:
; CHECK:         %gmem.v.next{{[0-9]+}} = phi i32 [ %gmem.v.next, %gmem.p.cont ], [ %gmem.v.claimed, %gmem.p.claimed ]
; A stop keeps a claimed ticket as the CTA's next one.
; CHECK:       gmem.p.save:
; CHECK:         %[[OWN:.*]] = select i1 %gmem.claim.now, i32 %gmem.mine.0, i32 %gmem.v.next
; CHECK:         %[[PLUS:.*]] = add i32 %[[OWN]], 1
; CHECK-NEXT:    store i32 %[[PLUS]], ptr addrspace(1)


; PTX-LABEL: .entry __gmem_pra_tiled(
; PTX:         atom.global.add.u32
; PTX-LABEL: .entry __gmem_prl_steps(
; PTX:         atom.global.add.u32
; PTX-LABEL: .entry __gmem_pra_steps(
; PTX:         atom.global.add.u32
; PTX:         bar.red.or.pred

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

; A barrier in a loop of n steps (loop checkpoints joined to it).
define void @steps(ptr %in, ptr %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = shl i32 %bid, 8
  %i = add i32 %base, %tid
  %idx = zext i32 %i to i64
  %t = zext i32 %tid to i64
  %slot = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  store float %v, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %nb = xor i32 %tid, 1
  %n64 = zext i32 %nb to i64
  %other = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %n64
  %w = load float, ptr addrspace(3) %other, align 4
  call void @llvm.nvvm.barrier0()
  %mine = load float, ptr addrspace(3) %slot, align 4
  %sum = fadd float %mine, %w
  store float %sum, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = load float, ptr addrspace(3) %slot, align 4
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %r, ptr %dst, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @relu, !"kernel", i32 1}
!1 = !{ptr @tiled, !"kernel", i32 1}
!2 = !{ptr @steps, !"kernel", i32 1}
