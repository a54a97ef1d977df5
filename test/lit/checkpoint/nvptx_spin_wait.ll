; Kernels whose loops wait for memory another CTA writes get no clone
; (CheckpointSpinWait.cpp): a stop at a CTA's entry could leave the waiters
; spinning for a CTA that never runs (CUB's decoupled look-back, flag
; handoffs). The wait is a loop whose exit test depends on a volatile or
; atomic load of global memory, or on a coherent inline-asm load. Mutex loops
; (a compare-and-swap of constants, released later; more in
; spin_wait_atomics.cu), waits on shared memory, non-coherent asm loads
; (ld.global.nc) and volatile loads that do not decide the exit keep their
; clones. A warp vote between the load and the exit test (CUB's
; `__any_sync` over the lanes' statuses, or a ballot in inline asm) is
; looked through, and so is a shared-memory handoff of a waited-for value
; from one thread to the CTA.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -pass-remarks-analysis=gmem-checkpoint \
; RUN:   -S %s -o %t.ll 2> %t.remarks
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=NO < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

; NO-NOT: define {{.*}}@__gmem_{{pr.}}_volatile_flag(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_acquire_lookback(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_asm_lookback(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_cg_lookback(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_add0_handoff(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_cas_read_handoff(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_vote_lookback(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_asm_ballot_lookback(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_shared_relay(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_global_tile_bound(
; NO: !nvvm.annotations
; CHECK-DAG: define void @__gmem_pre_cas_lock(
; CHECK-DAG: define void @__gmem_pre_shared_flag(
; CHECK-DAG: define void @__gmem_pre_volatile_data(
; CHECK-DAG: define void @__gmem_pre_nc_search(
; CHECK-DAG: define void @__gmem_pre_add1_counter(
; CHECK-DAG: define void @__gmem_pre_vote_bounds(
; CHECK-DAG: define void @__gmem_pre_byval_tile_bound(
; CHECK-DAG: define void @__gmem_pre_alloca_tile_bound(

; REMARK-DAG: remark: {{.*}}no preemptible clone: a loop{{.*}}in 'volatile_flag' waits on memory other threads write
; REMARK-DAG: remark: {{.*}}no preemptible clone: a loop{{.*}}in 'acquire_lookback' waits on memory other threads write
; REMARK-DAG: remark: {{.*}}no preemptible clone: a loop{{.*}}in 'asm_lookback' waits on memory other threads write
; REMARK-DAG: remark: {{.*}}no preemptible clone: a loop{{.*}}in 'cg_lookback' waits on memory other threads write
; REMARK-DAG: remark: {{.*}}no preemptible clone: a loop{{.*}}in 'add0_handoff' waits on memory other threads write
; REMARK-DAG: remark: {{.*}}no preemptible clone: a loop{{.*}}in 'cas_read_handoff' waits on memory other threads write
; REMARK-DAG: remark: {{.*}}no preemptible clone: a loop{{.*}}in 'vote_lookback' waits on memory other threads write
; REMARK-DAG: remark: {{.*}}no preemptible clone: a loop{{.*}}in 'asm_ballot_lookback' waits on memory other threads write
; REMARK-DAG: remark: {{.*}}no preemptible clone: a loop{{.*}}in 'shared_relay' waits on memory other threads write
; REMARK-DAG: remark: {{.*}}no preemptible clone: a loop{{.*}}in 'global_tile_bound' waits on memory other threads write

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@flag_s = internal addrspace(3) global i32 undef, align 4

; while (*flag == 0) ; then read what the producer CTA published.
define void @volatile_flag(ptr %flag, ptr %data) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %b, 0
  br i1 %first, label %produce, label %wait
produce:
  store i32 42, ptr %data, align 4
  store volatile i32 1, ptr %flag, align 4
  br label %done
wait:
  %f = load volatile i32, ptr %flag, align 4
  %z = icmp eq i32 %f, 0
  br i1 %z, label %wait, label %use
use:
  %v = load i32, ptr %data, align 4
  %be = zext i32 %b to i64
  %p = getelementptr inbounds i32, ptr %data, i64 %be
  store i32 %v, ptr %p, align 4
  br label %done
done:
  ret void
}

; Decoupled look-back: wait (acquire) until the previous tile's status is valid.
define void @acquire_lookback(ptr %status, ptr %out) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %prev = add i32 %b, -1
  %pe = sext i32 %prev to i64
  %sp = getelementptr inbounds i32, ptr %status, i64 %pe
  br label %spin
spin:
  %s = load atomic i32, ptr %sp syncscope("device") acquire, align 4
  %invalid = icmp eq i32 %s, 0
  br i1 %invalid, label %spin, label %publish
publish:
  %be = zext i32 %b to i64
  %mine = getelementptr inbounds i32, ptr %status, i64 %be
  %n = add i32 %s, 1
  store atomic i32 %n, ptr %mine syncscope("device") release, align 4
  %o = getelementptr inbounds i32, ptr %out, i64 %be
  store i32 %s, ptr %o, align 4
  ret void
}

; The same wait through inline PTX (ld.relaxed.gpu), as CUB writes it.
define void @asm_lookback(ptr %status, ptr %out) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %be = zext i32 %b to i64
  %sp = getelementptr inbounds i32, ptr %status, i64 %be
  br label %spin
spin:
  %s = call i32 asm sideeffect "ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l,~{memory}"(ptr %sp)
  %invalid = icmp eq i32 %s, 0
  br i1 %invalid, label %spin, label %use
use:
  %o = getelementptr inbounds i32, ptr %out, i64 %be
  store i32 %s, ptr %o, align 4
  ret void
}

; CUB's LOAD_CG status read (ld.global.cg): coherent, a wait.
define void @cg_lookback(ptr %status, ptr %out) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %be = zext i32 %b to i64
  %sp = getelementptr inbounds i32, ptr %status, i64 %be
  br label %spin
spin:
  %s = call i32 asm sideeffect "ld.global.cg.u32 $0, [$1];", "=r,l"(ptr %sp)
  %invalid = icmp eq i32 %s, 0
  br i1 %invalid, label %spin, label %use
use:
  %o = getelementptr inbounds i32, ptr %out, i64 %be
  store i32 %s, ptr %o, align 4
  ret void
}

; A binary search through ld.global.nc (CUB's LOAD_LDG): its loads decide
; the exit but cannot see other CTAs' writes, so it is no wait.
define void @nc_search(ptr %keys, ptr %out, i32 %n, i32 %x) #0 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %lo = phi i32 [ 0, %entry ], [ %lo.next, %loop ]
  %hi = phi i32 [ %n, %entry ], [ %hi.next, %loop ]
  %sum = add i32 %lo, %hi
  %mid = lshr i32 %sum, 1
  %me = zext i32 %mid to i64
  %mp = getelementptr inbounds i32, ptr %keys, i64 %me
  %v = call i32 asm "ld.global.nc.u32 $0, [$1];", "=r,l"(ptr %mp)
  %less = icmp slt i32 %v, %x
  %mid1 = add i32 %mid, 1
  %lo.next = select i1 %less, i32 %mid1, i32 %lo
  %hi.next = select i1 %less, i32 %hi, i32 %mid
  %more = icmp ult i32 %lo.next, %hi.next
  br i1 %more, label %loop, label %done
done:
  %te = zext i32 %t to i64
  %o = getelementptr inbounds i32, ptr %out, i64 %te
  store i32 %lo.next, ptr %o, align 4
  ret void
}

; A lock: its holder is a running CTA, which a stop lets finish.
define void @cas_lock(ptr %lock, ptr %count) #0 {
entry:
  br label %acquire
acquire:
  %r = cmpxchg ptr %lock, i32 0, i32 1 acquire monotonic, align 4
  %got = extractvalue { i32, i1 } %r, 1
  br i1 %got, label %critical, label %acquire
critical:
  %c = load i32, ptr %count, align 4
  %c1 = add i32 %c, 1
  store i32 %c1, ptr %count, align 4
  store atomic i32 0, ptr %lock release, align 4
  ret void
}

; while (atomicAdd(&flag[cta], 0) == 0) ; -- the previous CTA's handoff,
; read through an atomic that changes nothing: a wait, not a lock.
define void @add0_handoff(ptr %flag, ptr %out) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %be = zext i32 %b to i64
  %f = getelementptr inbounds i32, ptr %flag, i64 %be
  br label %wait
wait:
  %v = atomicrmw add ptr %f, i32 0 monotonic, align 4
  %z = icmp eq i32 %v, 0
  br i1 %z, label %wait, label %go
go:
  %o = getelementptr inbounds float, ptr %out, i64 %be
  store float 1.0, ptr %o, align 4
  %b1 = add nuw i32 %b, 1
  %b1e = zext i32 %b1 to i64
  %nf = getelementptr inbounds i32, ptr %flag, i64 %b1e
  %old = atomicrmw xchg ptr %nf, i32 1 monotonic, align 4
  ret void
}

; The same through atomicCAS(p, 0, 0), which writes back what it found.
define void @cas_read_handoff(ptr %flag, ptr %out) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %be = zext i32 %b to i64
  %f = getelementptr inbounds i32, ptr %flag, i64 %be
  br label %wait
wait:
  %r = cmpxchg ptr %f, i32 0, i32 0 monotonic monotonic, align 4
  %v = extractvalue { i32, i1 } %r, 0
  %z = icmp eq i32 %v, 0
  br i1 %z, label %wait, label %go
go:
  %o = getelementptr inbounds float, ptr %out, i64 %be
  store float 1.0, ptr %o, align 4
  ret void
}

; An atomic that does change memory in an exit test (here a counter handing
; out slots until one is free) is not a wait on another CTA: clone kept.
define void @add1_counter(ptr %next, ptr %slots) #0 {
entry:
  br label %take
take:
  %t = atomicrmw add ptr %next, i32 1 monotonic, align 4
  %te = zext i32 %t to i64
  %s = getelementptr inbounds i32, ptr %slots, i64 %te
  %v = load i32, ptr %s, align 4
  %busy = icmp ne i32 %v, 0
  br i1 %busy, label %take, label %done
done:
  store i32 1, ptr %s, align 4
  ret void
}

; A wait on shared memory: the CTA's own threads stop together.
define void @shared_flag(ptr %out) #0 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %set, label %wait
set:
  store volatile i32 1, ptr addrspace(3) @flag_s, align 4
  br label %done
wait:
  %f = load volatile i32, ptr addrspace(3) @flag_s, align 4
  %z = icmp eq i32 %f, 0
  br i1 %z, label %wait, label %done
done:
  %te = zext i32 %t to i64
  %o = getelementptr inbounds i32, ptr %out, i64 %te
  store i32 1, ptr %o, align 4
  ret void
}

; Volatile loads that do not decide when the loop ends.
define void @volatile_data(ptr %in, ptr %out, i32 %n) #0 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %ie = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %in, i64 %ie
  %v = load volatile i32, ptr %p, align 4
  %acc.next = add i32 %acc, %v
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %te = zext i32 %t to i64
  %o = getelementptr inbounds i32, ptr %out, i64 %te
  store i32 %r, ptr %o, align 4
  ret void
}

; CUB's look-back: the lanes of a warp read predecessors' statuses and the
; loop ends when no lane saw an invalid one (__any_sync).
define void @vote_lookback(ptr %status, ptr %out) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %l = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = sub i32 %b, %l
  %ie = sext i32 %idx to i64
  %sp = getelementptr inbounds i32, ptr %status, i64 %ie
  br label %spin
spin:
  %s = load volatile i32, ptr %sp, align 4
  %invalid = icmp eq i32 %s, 0
  %any = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %invalid)
  br i1 %any, label %spin, label %use
use:
  %be = zext i32 %b to i64
  %o = getelementptr inbounds i32, ptr %out, i64 %be
  store i32 %s, ptr %o, align 4
  ret void
}

; The same with the status read and the ballot both in inline PTX.
define void @asm_ballot_lookback(ptr %status, ptr %out) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %be = zext i32 %b to i64
  %sp = getelementptr inbounds i32, ptr %status, i64 %be
  br label %spin
spin:
  %s = call i32 asm sideeffect "ld.relaxed.gpu.u32 $0, [$1];", "=r,l,~{memory}"(ptr %sp)
  %m = call i32 asm "{\0A .reg .pred p;\0A setp.ne.u32 p, $1, 0;\0A vote.ballot.sync.b32 $0, p, 0xffffffff;\0A}", "=r,r"(i32 %s)
  %all = icmp eq i32 %m, -1
  br i1 %all, label %use, label %spin
use:
  %o = getelementptr inbounds i32, ptr %out, i64 %be
  store i32 %s, ptr %o, align 4
  ret void
}

@relay_s = internal addrspace(3) global i32 undef, align 4

; Thread 0 reads the producer's flag, the CTA reads thread 0's copy in
; shared memory after a barrier: the loop tests a shared load, but what it
; waits for is the global flag.
define void @shared_relay(ptr %flag, ptr %out) #0 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 0
  br label %spin
spin:
  br i1 %first, label %poll, label %sync
poll:
  %f = load volatile i32, ptr %flag, align 4
  store i32 %f, ptr addrspace(3) @relay_s, align 4
  br label %sync
sync:
  call void @llvm.nvvm.barrier0()
  %c = load i32, ptr addrspace(3) @relay_s, align 4
  call void @llvm.nvvm.barrier0()
  %z = icmp eq i32 %c, 0
  br i1 %z, label %spin, label %use
use:
  %te = zext i32 %t to i64
  %o = getelementptr inbounds i32, ptr %out, i64 %te
  store i32 %c, ptr %o, align 4
  ret void
}

; A vote over a bound, not over memory another CTA writes: clone kept,
; though the loop also reads volatile data.
define void @vote_bounds(ptr %in, ptr %out, i32 %n) #0 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %i = phi i32 [ %t, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %ie = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %in, i64 %ie
  %v = load volatile i32, ptr %p, align 4
  %acc.next = add i32 %acc, %v
  %i.next = add nuw nsw i32 %i, 32
  %more = icmp slt i32 %i.next, %n
  %any = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %more)
  br i1 %any, label %loop, label %done
done:
  %te = zext i32 %t to i64
  %o = getelementptr inbounds i32, ptr %out, i64 %te
  store i32 %acc.next, ptr %o, align 4
  ret void
}

; A tile loop with barriers whose exit test reads a bound the kernel wrote
; into its by-value struct parameter (CUB's radix sort upsweep: GridEvenShare's
; BlockInit, then `while (block_end - block_offset >= TILE)` through
; references, a load LLVM left in the loop). The parameter is the thread's
; own copy: no other thread writes it, so this is no wait and the clone
; stays. The same load from a stack slot too. Through a pointer to global
; memory the kernel writes, the same loop is a plain poll (no clone).
%struct.share = type { i32, i32 }

define void @byval_tile_bound(ptr %in, ptr %out, i32 %n, ptr byval(%struct.share) align 4 %s) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %off = mul i32 %b, 4096
  %end.p = getelementptr inbounds i8, ptr %s, i64 4
  %lim = call i32 @llvm.smin.i32(i32 %n, i32 %off)
  store i32 %lim, ptr %end.p, align 4
  br label %loop
loop:
  %o = phi i32 [ %off, %entry ], [ %o.next, %loop ]
  %oe = zext i32 %o to i64
  %p = getelementptr inbounds float, ptr %in, i64 %oe
  %v = load float, ptr %p, align 4
  call void @llvm.nvvm.barrier0()
  %q = getelementptr inbounds float, ptr %out, i64 %oe
  store float %v, ptr %q, align 4
  %o.next = add i32 %o, 256
  %end = load i32, ptr %end.p, align 4
  %left = sub i32 %end, %o.next
  %more = icmp sgt i32 %left, 255
  br i1 %more, label %loop, label %done
done:
  ret void
}

define void @alloca_tile_bound(ptr %in, ptr %out, i32 %n) #0 {
entry:
  %slot = alloca i32, align 4
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %off = mul i32 %b, 4096
  %lim = call i32 @llvm.smin.i32(i32 %n, i32 %off)
  store i32 %lim, ptr %slot, align 4
  br label %loop
loop:
  %o = phi i32 [ %off, %entry ], [ %o.next, %loop ]
  %oe = zext i32 %o to i64
  %p = getelementptr inbounds float, ptr %in, i64 %oe
  %v = load float, ptr %p, align 4
  call void @llvm.nvvm.barrier0()
  %q = getelementptr inbounds float, ptr %out, i64 %oe
  store float %v, ptr %q, align 4
  %o.next = add i32 %o, 256
  %end = load i32, ptr %slot, align 4
  %left = sub i32 %end, %o.next
  %more = icmp sgt i32 %left, 255
  br i1 %more, label %loop, label %done
done:
  ret void
}

define void @global_tile_bound(ptr %in, ptr %out, i32 %n, ptr %s) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %off = mul i32 %b, 4096
  %end.p = getelementptr inbounds i8, ptr %s, i64 4
  %lim = call i32 @llvm.smin.i32(i32 %n, i32 %off)
  store i32 %lim, ptr %end.p, align 4
  br label %loop
loop:
  %o = phi i32 [ %off, %entry ], [ %o.next, %loop ]
  %oe = zext i32 %o to i64
  %p = getelementptr inbounds float, ptr %in, i64 %oe
  %v = load float, ptr %p, align 4
  call void @llvm.nvvm.barrier0()
  %q = getelementptr inbounds float, ptr %out, i64 %oe
  store float %v, ptr %q, align 4
  %o.next = add i32 %o, 256
  %end = load i32, ptr %end.p, align 4
  %left = sub i32 %end, %o.next
  %more = icmp sgt i32 %left, 255
  br i1 %more, label %loop, label %done
done:
  ret void
}

declare i32 @llvm.smin.i32(i32, i32)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_90" }

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7, !8, !9, !10, !11, !12, !13, !14, !15, !16, !17}
!0 = !{ptr @volatile_flag, !"kernel", i32 1}
!1 = !{ptr @acquire_lookback, !"kernel", i32 1}
!2 = !{ptr @asm_lookback, !"kernel", i32 1}
!3 = !{ptr @cas_lock, !"kernel", i32 1}
!4 = !{ptr @shared_flag, !"kernel", i32 1}
!5 = !{ptr @volatile_data, !"kernel", i32 1}
!6 = !{ptr @cg_lookback, !"kernel", i32 1}
!7 = !{ptr @nc_search, !"kernel", i32 1}
!8 = !{ptr @add0_handoff, !"kernel", i32 1}
!9 = !{ptr @cas_read_handoff, !"kernel", i32 1}
!10 = !{ptr @add1_counter, !"kernel", i32 1}
!11 = !{ptr @vote_lookback, !"kernel", i32 1}
!12 = !{ptr @asm_ballot_lookback, !"kernel", i32 1}
!13 = !{ptr @shared_relay, !"kernel", i32 1}
!14 = !{ptr @vote_bounds, !"kernel", i32 1}
!15 = !{ptr @byval_tile_bound, !"kernel", i32 1}
!16 = !{ptr @alloca_tile_bound, !"kernel", i32 1}
!17 = !{ptr @global_tile_bound, !"kernel", i32 1}
