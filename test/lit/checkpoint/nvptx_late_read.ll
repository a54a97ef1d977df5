; The late read at the end of a virtual CTA in the light twin
; (GMEM_CHECKPOINT_LATE, default 8192 SM cycles). Thread 0 reads the request
; at the start of each virtual CTA (its latency hides behind the body) and
; notes %clock in a shared word; at the end, if that read saw no request and
; the virtual CTA has run at least the threshold, it reads the request again
; before the barrier that decides. A request landing during a long virtual
; CTA then stops the CTA at its end, not at the end of the next one. Only
; the light twin has it: libgmemrt runs it (by timing) for launches that stop
; between virtual CTAs only: not found idempotent, or of a kernel without
; loop checkpoints, whose twin is its main clone plus the late read (scale
; below). In the other forms
; the same few instructions moved ptxas's schedule of unrelated loops by up
; to +24% (H200, bench/preempt/results/parts/late-read). Under check
; intervals only the due virtual CTAs read, early or late.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=PTX
; RUN: env GMEM_CHECKPOINT_LATE=100000 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=SET
; RUN: env GMEM_CHECKPOINT_LATE=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=OFF
; RUN: env GMEM_CHECKPOINT_LIGHT=loops opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=LOOPS
;
; GMEM_CHECKPOINT_LATE_FORMS (experiments; bench/preempt/results/session34):
; alt gives the alternate form the late read too, all the full clone as well;
; the barrier-free form never has one (it has no end-of-virtual-CTA decision).
; RUN: env GMEM_CHECKPOINT_LATE_FORMS=alt opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=ALT
; RUN: env GMEM_CHECKPOINT_LATE_FORMS=all opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=ALL
; ALT-NOT:   @__gmem_vstart___gmem_pre_
; ALT-DAG:   @__gmem_vstart___gmem_pra_block_sum = internal addrspace(3) global [2 x i32] undef
; ALT-DAG:   @__gmem_vstart___gmem_prl_block_sum = internal addrspace(3) global [2 x i32] undef
; ALT-NOT:   @__gmem_vstart___gmem_prf_
; ALL-DAG:   @__gmem_vstart___gmem_pre_block_sum = internal addrspace(3) global [2 x i32] undef
; ALL-DAG:   @__gmem_vstart___gmem_pra_block_sum = internal addrspace(3) global [2 x i32] undef
; ALL-NOT:   @__gmem_vstart___gmem_prf_

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; CHECK-NOT:   @__gmem_vstart___gmem_pre_
; CHECK-NOT:   @__gmem_vstart___gmem_pra_
; CHECK-DAG:   @__gmem_vstart___gmem_prl_block_sum = internal addrspace(3) global [2 x i32] undef
; CHECK-DAG:   @__gmem_vstart___gmem_prl_row_sum = internal addrspace(3) global [2 x i32] undef
; CHECK-DAG:   @__gmem_vstart___gmem_prl_scale = internal addrspace(3) global [2 x i32] undef
; scale (no loop checkpoints): 16 persistent + 32 light + 128 free + 256 batched.
; CHECK-DAG:   @__gmem_pre_info_scale = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 432,
; CHECK-NOT:   @__gmem_vstart___gmem_pr{{[aef]}}_

; The main clone has none.
; CHECK-LABEL: define void @__gmem_pre_block_sum(
; CHECK-NOT:     gmem.p.late
; CHECK-NOT:     sreg.clock
; CHECK:       }

; The light twin of a barrier kernel (balanced tail, stop word): the start
; read notes the clock; the end reads again only from thread 0, only when
; the start read saw 0, only past the threshold, and before the stop word
; is marked.
; CHECK-LABEL: define void @__gmem_prl_block_sum(
; CHECK:       gmem.p.req:
; CHECK-NEXT:    load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK-NEXT:    %[[NOW:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; CHECK-NEXT:    store volatile i32 %[[NOW]], ptr addrspace(3) @__gmem_vstart___gmem_prl_block_sum
; CHECK:       gmem.p.latch:
; CHECK-NEXT:    %[[UNSEEN:.*]] = icmp eq i32 %{{.*}}, 0
; CHECK-NEXT:    %[[LOOK:.*]] = and i1 %gmem.tid0, %[[UNSEEN]]
; CHECK-NEXT:    br i1 %[[LOOK]], label %gmem.p.late.time, label %gmem.p.late.join
; CHECK:       gmem.p.late.time:
; CHECK-NEXT:    %gmem.v.start = load volatile i32, ptr addrspace(3) @__gmem_vstart___gmem_prl_block_sum
; CHECK-NEXT:    %[[END:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.clock()
; CHECK-NEXT:    %gmem.v.ran = sub i32 %[[END]], %gmem.v.start
; CHECK-NEXT:    %[[LONG:.*]] = icmp uge i32 %gmem.v.ran, 8192
; CHECK-NEXT:    br i1 %[[LONG]], label %gmem.p.late, label %gmem.p.late.join
; CHECK:       gmem.p.late:
; CHECK-NEXT:    %[[AGAIN:.*]] = load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK-NEXT:    br label %gmem.p.late.join
; CHECK:       gmem.p.late.join:
; CHECK-NEXT:    %[[REQ:.*]] = phi i32 [ %[[AGAIN]], %gmem.p.late ], [ %{{.*}}, %gmem.p.late.time ], [ %{{.*}}, %gmem.p.latch ]
; CHECK-NEXT:    %[[ASK:.*]] = icmp ne i32 %[[REQ]], 0
; CHECK-NEXT:    %[[MINE:.*]] = and i1 %gmem.tid0, %[[ASK]]
; CHECK:         br i1 %{{.*}}, label %gmem.p.mark, label %gmem.p.meet
; CHECK:       }

; The alternate form has none.
; CHECK-LABEL: define void @__gmem_pra_block_sum(
; CHECK-NOT:     gmem.p.late
; CHECK:       }

; The light twin of a kernel without shared memory, under check intervals:
; the late read sits on the due path only.
; CHECK-LABEL: define void @__gmem_prl_row_sum(
; CHECK:       gmem.p.req:
; CHECK:         store volatile i32 %{{.*}}, ptr addrspace(3) @__gmem_vstart___gmem_prl_row_sum
; CHECK:       gmem.p.look:
; CHECK:         br i1 %{{.*}}, label %gmem.p.late.time, label %gmem.p.late.join
; CHECK:       gmem.p.skip:
; CHECK-NOT:     gmem.ctl
; CHECK:       gmem.p.late.time:
; CHECK:         icmp uge i32 %gmem.v.ran, 8192
; CHECK:       gmem.p.late.join:
; CHECK:         br i1 %{{.*}}, label %gmem.p.mark, label %gmem.p.meet
; CHECK:       }

; The free form has none.
; CHECK-LABEL: define void @__gmem_prf_row_sum(
; CHECK-NOT:     gmem.p.late
; CHECK:       }

; A kernel without loop checkpoints gets a twin too: its main clone plus
; the late read, which libgmemrt runs by timing for every launch of it.
; CHECK-LABEL: define void @__gmem_pre_scale(
; CHECK-NOT:     gmem.p.late
; CHECK:       }
; CHECK-LABEL: define void @__gmem_prl_scale(
; CHECK:         store volatile i32 %{{.*}}, ptr addrspace(3) @__gmem_vstart___gmem_prl_scale
; CHECK:       gmem.p.late.time:
; CHECK:       gmem.p.late:
; CHECK:       }

; PTX-LABEL: .entry __gmem_prl_block_sum(
; PTX:         mov.u32 %r{{[0-9]+}}, %clock;
; PTX:         st.volatile.shared.u32 [__gmem_vstart___gmem_prl_block_sum], %r{{[0-9]+}};
; PTX:         ld.volatile.shared.u32 %r{{[0-9]+}}, [__gmem_vstart___gmem_prl_block_sum];
; PTX:         mov.u32 %r{{[0-9]+}}, %clock;
; PTX:         setp.{{[a-z]+}}.u32 %p{{[0-9]+}}, %r{{[0-9]+}}, 8192;
; PTX:         bar.sync 0;
; PTX:       }

; SET-LABEL:   define void @__gmem_prl_block_sum(
; SET:           icmp uge i32 %gmem.v.ran, 100000

; GMEM_CHECKPOINT_LIGHT=loops: twins only for kernels with loop checkpoints.
; LOOPS-DAG:   @__gmem_pre_info_scale = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 400,
; LOOPS-DAG:   define void @__gmem_prl_row_sum(
; LOOPS-NOT:   define void @__gmem_prl_scale(

; OFF-NOT:     __gmem_vstart_
; OFF-NOT:     gmem.p.late

define void @block_sum(ptr %in, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %ntid
  %g = add i32 %base, %tid
  %gidx = sext i32 %g to i64
  %src = getelementptr inbounds float, ptr %in, i64 %gidx
  %x = load float, ptr %src, align 4
  %tidx = zext i32 %tid to i64
  %slot = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %tidx
  store float %x, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  %s0 = lshr i32 %ntid, 1
  %any = icmp ugt i32 %s0, 0
  br i1 %any, label %loop, label %tail

loop:
  %s = phi i32 [ %s0, %entry ], [ %s.next, %join ]
  %lt = icmp ult i32 %tid, %s
  br i1 %lt, label %add, label %join

add:
  %o = add i32 %tid, %s
  %oidx = zext i32 %o to i64
  %oslot = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %oidx
  %a = load float, ptr addrspace(3) %slot, align 4
  %b = load float, ptr addrspace(3) %oslot, align 4
  %sum = fadd float %a, %b
  store float %sum, ptr addrspace(3) %slot, align 4
  br label %join

join:
  call void @llvm.nvvm.barrier0()
  %s.next = lshr i32 %s, 1
  %more = icmp ugt i32 %s.next, 0
  br i1 %more, label %loop, label %tail

tail:
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %write, label %exit

write:
  %r = load float, ptr addrspace(3) @tile, align 4
  %bidx = zext i32 %bid to i64
  %dst = getelementptr inbounds float, ptr %out, i64 %bidx
  store float %r, ptr %dst, align 4
  br label %exit

exit:
  ret void
}

define void @row_sum(ptr %in, ptr %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %ntid
  %row = add i32 %base, %tid
  %start = mul i32 %row, %n
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %i = add i32 %start, %k
  %iext = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %iext
  %x = load float, ptr %src, align 4
  %acc.next = fadd float %acc, %x
  %k.next = add nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %done

done:
  %r = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %rext = sext i32 %row to i64
  %dst = getelementptr inbounds float, ptr %out, i64 %rext
  store float %r, ptr %dst, align 4
  ret void
}

define void @scale(ptr %a, float %f) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %ntid
  %g = add i32 %base, %tid
  %gidx = sext i32 %g to i64
  %p = getelementptr inbounds float, ptr %a, i64 %gidx
  %x = load float, ptr %p, align 4
  %y = fmul float %x, %f
  store float %y, ptr %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @block_sum, !"kernel", i32 1}
!1 = !{ptr @row_sum, !"kernel", i32 1}
!2 = !{ptr @scale, !"kernel", i32 1}
