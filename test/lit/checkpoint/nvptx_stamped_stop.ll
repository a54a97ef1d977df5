; The end of a virtual CTA in the light twin (__gmem_prl_): a plain barrier
; and a shared stop word instead of bar.red.or (which cost bitonic sort's
; twin 13 of its 19 points on the H200). Threads that stop write the
; virtual CTA's stamp (ticket + 1) before the barrier, all compare after
; it; thread 0 zeroes the word before the entry's barrier. The full and
; alternate forms of a kernel with shared memory (block_sum) keep
; bar.red.or; those of a kernel without (row_sum) get the word too
; (GMEM_CHECKPOINT_VSTOP=auto, the default; =light: twins only; =all:
; every form; =reduce: none).
; (GMEM_CHECKPOINT_LATE=0: the late read at the end of a virtual CTA has its
; own test, nvptx_late_read.ll.)
; RUN: env GMEM_CHECKPOINT_LATE=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=PTX
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=reduce opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=REDUCE
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=LIGHT
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=all opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=ALL

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; CHECK-NOT:   @__gmem_vstop___gmem_pre_block_sum
; CHECK-NOT:   @__gmem_vstop___gmem_pra_block_sum
; CHECK:       @__gmem_vstop___gmem_prl_block_sum = internal addrspace(3) global [2 x i32] undef
; CHECK-DAG:   @__gmem_vstop___gmem_pre_row_sum = internal addrspace(3)
; CHECK-DAG:   @__gmem_vstop___gmem_prl_row_sum = internal addrspace(3)
; CHECK-DAG:   @__gmem_vstop___gmem_pra_row_sum = internal addrspace(3)

; The main clone: bar.red.or after every virtual CTA (gmem.exit, or with
; the balanced tail gmem.p.latch), at its entry and at the loop's barrier.
; CHECK-LABEL: define void @__gmem_pre_block_sum(
; CHECK-NOT:     __gmem_vstop_
; CHECK:       gmem.exit:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:       gmem.p.decide:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:       }

; The light twin: thread 0 zeroes the word before the entry's bar.red.or;
; the latch marks, meets at a plain barrier and compares.
; CHECK-LABEL: define void @__gmem_prl_block_sum(
; CHECK:       gmem.p.read:
; CHECK:         store volatile i32 0, ptr addrspace(3) @__gmem_vstop___gmem_prl_block_sum
; CHECK:       gmem.p.decide:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK-NOT:     barrier0.or
; CHECK:         %gmem.v.stamp = add i32 %gmem.vcta.0, 1
; CHECK-NEXT:    br i1 %{{.*}}, label %gmem.p.mark, label %gmem.p.meet
; CHECK-NOT:     barrier0.or
; CHECK:       gmem.p.mark:
; CHECK-NEXT:    store volatile i32 %gmem.v.stamp, ptr addrspace(3) @__gmem_vstop___gmem_prl_block_sum
; CHECK-NEXT:    br label %gmem.p.meet
; CHECK:       gmem.p.meet:
; CHECK-NEXT:    call void @llvm.nvvm.barrier0()
; CHECK-NEXT:    %gmem.v.stop.seen = load volatile i32, ptr addrspace(3) @__gmem_vstop___gmem_prl_block_sum
; CHECK-NEXT:    %gmem.v.stop = icmp eq i32 %gmem.v.stop.seen, %gmem.v.stamp
; CHECK-NEXT:    br i1 %gmem.v.stop, label %gmem.p.stop, label %gmem.p.cont
; CHECK-NOT:     barrier0.or
; CHECK:       }

; The alternate form keeps the reduction.
; CHECK-LABEL: define void @__gmem_pra_block_sum(
; CHECK-NOT:     __gmem_vstop_
; CHECK:       gmem.p.decide:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:       gmem.p.latch:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:       }

; PTX-LABEL: .entry __gmem_prl_block_sum(
; PTX:         st.volatile.shared.u32 [__gmem_vstop___gmem_prl_block_sum], %r{{[0-9]+}};
; PTX:         bar.red.or.pred
; PTX:         st.volatile.shared.u32 [__gmem_vstop___gmem_prl_block_sum], %r{{[0-9]+}};
; PTX:         bar.sync 0;
; PTX-NEXT:    ld.volatile.shared.u32 %r{{[0-9]+}}, [__gmem_vstop___gmem_prl_block_sum];
; PTX-NOT:     bar.red
; PTX:       }

; REDUCE-NOT:  __gmem_vstop_

; LIGHT-NOT:   @__gmem_vstop___gmem_pre_
; LIGHT-NOT:   @__gmem_vstop___gmem_pra_
; LIGHT-DAG:   @__gmem_vstop___gmem_prl_block_sum = internal addrspace(3)
; LIGHT-DAG:   @__gmem_vstop___gmem_prl_row_sum = internal addrspace(3)
; LIGHT-NOT:   @__gmem_vstop___gmem_pre_
; LIGHT-NOT:   @__gmem_vstop___gmem_pra_

; The main clone of row_sum (no shared memory) ends a due virtual CTA with
; the stop word by default.
; CHECK-LABEL: define void @__gmem_pre_row_sum(
; CHECK:       gmem.p.decide:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; The one other reduction is on the stop path: did a loop checkpoint cut
; the virtual CTA in any thread?
; CHECK-NOT:     barrier0.or
; CHECK:       gmem.p.stop:
; CHECK-NEXT:    zext i1 %gmem.aborted.{{[0-9]+}} to i32
; CHECK-NEXT:    call i32 @llvm.nvvm.barrier0.or(
; CHECK-NOT:     barrier0.or
; CHECK:       gmem.p.meet:
; CHECK-NEXT:    call void @llvm.nvvm.barrier0()
; CHECK-NEXT:    %gmem.v.stop.seen = load volatile i32, ptr addrspace(3) @__gmem_vstop___gmem_pre_row_sum
; CHECK-NOT:     barrier0.or
; CHECK:       }

; ALL-DAG:     @__gmem_vstop___gmem_pre_block_sum = internal addrspace(3)
; ALL-DAG:     @__gmem_vstop___gmem_prl_block_sum = internal addrspace(3)
; ALL-DAG:     @__gmem_vstop___gmem_pra_block_sum = internal addrspace(3)

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

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @block_sum, !"kernel", i32 1}
!1 = !{ptr @row_sum, !"kernel", i32 1}
