; Free clones (info flag bit 7, __gmem_prf_<K>): for kernels with no CTA
; barrier, warp collective, shared memory or inline asm (in them or in what
; they call), every thread loops over the virtual CTAs on its own. Entry:
; every thread reads its CTA's resume word, thread 0 the request, one
; bar.red.or decides a stop at entry; then thread 0 sets resume to
; 0xFFFFFFFF behind a second barrier. Per virtual CTA: no barrier, the stop
; test reads the CTA's request cache. Leaving: each thread folds the first
; virtual CTA it has not finished, + 1, with an unsigned atomic min (the
; current one when a loop checkpoint cut it, else the next of its own, at
; most the total). The redo word is never touched.
; RUN: env GMEM_CHECKPOINT_FREE_GATE=0 GMEM_CHECKPOINT_BATCH=0 opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=NOGATE
; RUN: env GMEM_CHECKPOINT_BATCH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=PTX
; RUN: env GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_FREE=0 GMEM_CHECKPOINT_SEG_SCALE=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@scratch = internal addrspace(3) global [256 x float] undef, align 4

; Flags: 16 persistent, +128 free; rowsum has loop checkpoints (1), a light
; twin (32) and an alternate form (64) too. Refused: shared memory (also
; through a helper), a warp shuffle, inline asm.
; CHECK-DAG: @__gmem_pre_info_relu = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 176,
; CHECK-DAG: @__gmem_pre_info_rowsum = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4337,
; CHECK-DAG: @__gmem_pre_info_uses_shared = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 48,
; CHECK-DAG: @__gmem_pre_info_helper_shared = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 48,
; CHECK-DAG: @__gmem_pre_info_shuffle = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 48,
; CHECK-DAG: @__gmem_pre_info_lane_asm = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 48,
; A trap (CUDA's __trap(), inline asm with side effects) shares nothing:
; the launch ends there.
; CHECK-DAG: @__gmem_pre_info_trap_check = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 176,
; CHECK-NOT: define void @__gmem_prf_uses_shared(
; CHECK-NOT: define void @__gmem_prf_helper_shared(
; CHECK-NOT: define void @__gmem_prf_shuffle(
; CHECK-NOT: define void @__gmem_prf_lane_asm(

; CHECK-LABEL: define void @__gmem_prf_relu(ptr %in, ptr %out, i32 %n, ptr addrspace(1) noundef %gmem.ctl, i32 noundef %gmem.grid.x, i32 noundef %gmem.grid.y, i32 noundef %gmem.grid.z)
; CHECK:       gmem.entry:
; CHECK-NOT:     %gmem.w.redo
; CHECK:         %gmem.w.resume = load volatile i32, ptr addrspace(1) %gmem.resume
; The latch: no barrier; once this thread's own deadline (a register) has
; passed, the request through the CTA's cache.
; CHECK:       gmem.exit:
; CHECK-NOT:     barrier
; CHECK:         call i32 @llvm.nvvm.read.ptx.sreg.clock()
; CHECK:         %gmem.f.due = icmp sge i32
; CHECK:       gmem.f.look:
; CHECK:         load volatile i32, ptr addrspace(3) getelementptr inbounds ([2 x i32], ptr addrspace(3) @__gmem_reqcache___gmem_prf_relu, i32 0, i32 1)
; CHECK:       gmem.cache.seen:
; CHECK-NOT:     barrier
; CHECK:         br i1 %{{.*}}, label %gmem.f.stop, label %gmem.f.cont
; CHECK:       gmem.f.decide:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:         %gmem.resume.at = select i1 %{{.*}}, i32 %{{.*}}, i32 %gmem.p
; CHECK:       gmem.f.clear:
; CHECK-NEXT:    store volatile i32 -1, ptr addrspace(1) %gmem.resume
; CHECK:       gmem.f.armed:
; CHECK-NEXT:    call void @llvm.nvvm.barrier0()
; CHECK:       gmem.f.finish:
; CHECK-NEXT:    %[[T1:.*]] = add i32 %gmem.total, 1
; CHECK-NEXT:    atomicrmw umin ptr addrspace(1) %gmem.resume, i32 %[[T1]] monotonic
; CHECK:       gmem.f.stop:
; CHECK-NEXT:    %[[NX:.*]] = add i32 %gmem.vcta.0, %gmem.P
; CHECK-NEXT:    %[[AT:.*]] = call i32 @llvm.umin.i32(i32 %[[NX]], i32 %gmem.total)
; CHECK-NEXT:    %[[SEL:.*]] = select i1 false, i32 %gmem.vcta.0, i32 %[[AT]]
; CHECK-NEXT:    %[[R1:.*]] = add i32 %[[SEL]], 1
; CHECK-NEXT:    atomicrmw umin ptr addrspace(1) %gmem.resume, i32 %[[R1]] monotonic
; CHECK:       gmem.f.cont:
; CHECK-NEXT:    %gmem.v.next = add i32 %gmem.vcta.0, %gmem.P
; CHECK-NOT:     %gmem.redo
; CHECK:       }

; With a loop checkpoint: a thread it cut folds the virtual CTA it was in.
; CHECK-LABEL: define void @__gmem_prf_rowsum(
; CHECK:         gmem.ckpt
; CHECK:       gmem.f.stop:
; CHECK:         select i1 %gmem.aborted{{.*}}, i32 %gmem.vcta.0, i32
; CHECK:       }

; PTX-LABEL: .entry __gmem_prf_relu(
; PTX:         bar.red.or.pred
; PTX:         bar.sync 0
; PTX:         atom.global.min.u32
; PTX-LABEL: .entry __gmem_prf_rowsum(

; CHECK: define void @__gmem_prf_trap_check(

; GMEM_CHECKPOINT_FREE_GATE=0: every virtual CTA looks at the cache.
; NOGATE-LABEL: define void @__gmem_prf_relu(
; NOGATE-NOT:     gmem.f.due
; NOGATE:       gmem.exit:
; NOGATE-NEXT:    call i32 @llvm.nvvm.read.ptx.sreg.clock()
; NOGATE-NEXT:    load volatile i32, ptr addrspace(3)

; OFF-DAG: @__gmem_pre_info_relu = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 48,
; OFF-DAG: @__gmem_pre_info_rowsum = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 113,
; OFF-NOT: @__gmem_prf_

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

; Column sums: a loop of unknown trip count gets a latch checkpoint.
define void @rowsum(ptr %in, ptr %out, i32 %n, i32 %m) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %i = add i32 %base, %tid
  %ok = icmp slt i32 %i, %n
  %any = icmp sgt i32 %m, 0
  %go = and i1 %ok, %any
  br i1 %go, label %loop, label %done
loop:
  %j = phi i32 [ 0, %entry ], [ %j.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %row = mul i32 %j, %n
  %at = add i32 %row, %i
  %aidx = sext i32 %at to i64
  %src = getelementptr inbounds float, ptr %in, i64 %aidx
  %v = load float, ptr %src, align 4
  %s.next = fadd float %s, %v
  %j.next = add nsw i32 %j, 1
  %more = icmp slt i32 %j.next, %m
  br i1 %more, label %loop, label %write
write:
  %oidx = sext i32 %i to i64
  %dst = getelementptr inbounds float, ptr %out, i64 %oidx
  store float %s.next, ptr %dst, align 4
  br label %done
done:
  ret void
}

; Per-thread scratch in shared memory without a barrier: a free clone's
; threads of one CTA would share it across virtual CTAs.
define void @uses_shared(ptr %in, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = zext i32 %tid to i64
  %slot = getelementptr inbounds [256 x float], ptr addrspace(3) @scratch, i64 0, i64 %t
  %b = zext i32 %bid to i64
  %src = getelementptr inbounds float, ptr %in, i64 %b
  %v = load float, ptr %src, align 4
  store volatile float %v, ptr addrspace(3) %slot, align 4
  %w = load volatile float, ptr addrspace(3) %slot, align 4
  %dst = getelementptr inbounds float, ptr %out, i64 %b
  store float %w, ptr %dst, align 4
  ret void
}

define internal void @touch_shared(float %v) {
entry:
  store volatile float %v, ptr addrspace(3) @scratch, align 4
  ret void
}

define void @helper_shared(ptr %in) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b = zext i32 %bid to i64
  %src = getelementptr inbounds float, ptr %in, i64 %b
  %v = load float, ptr %src, align 4
  call void @touch_shared(float %v)
  ret void
}

define void @shuffle(ptr %in, ptr %out) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b = zext i32 %bid to i64
  %src = getelementptr inbounds float, ptr %in, i64 %b
  %v = load float, ptr %src, align 4
  %x = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v, i32 1, i32 31)
  %dst = getelementptr inbounds float, ptr %out, i64 %b
  store float %x, ptr %dst, align 4
  ret void
}

define void @lane_asm(ptr %out) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %l = call i32 asm sideeffect "mov.u32 $0, %laneid;", "=r"()
  %b = zext i32 %bid to i64
  %dst = getelementptr inbounds i32, ptr %out, i64 %b
  store i32 %l, ptr %dst, align 4
  ret void
}

define void @trap_check(ptr %ids, ptr %out, i32 %v) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b = zext i32 %bid to i64
  %src = getelementptr inbounds i32, ptr %ids, i64 %b
  %id = load i32, ptr %src, align 4
  %bad = icmp uge i32 %id, %v
  br i1 %bad, label %stop, label %ok
stop:
  call void asm sideeffect "trap;", ""()
  br label %ok
ok:
  %dst = getelementptr inbounds i32, ptr %out, i64 %b
  store i32 %id, ptr %dst, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6}
!0 = !{ptr @relu, !"kernel", i32 1}
!1 = !{ptr @rowsum, !"kernel", i32 1}
!2 = !{ptr @uses_shared, !"kernel", i32 1}
!3 = !{ptr @helper_shared, !"kernel", i32 1}
!4 = !{ptr @shuffle, !"kernel", i32 1}
!5 = !{ptr @lane_asm, !"kernel", i32 1}
!6 = !{ptr @trap_check, !"kernel", i32 1}
