; A kernel's own async copies into shared memory (CheckpointAsyncCopies.cpp):
; a loop checkpoint can end the CTA with the next tile's copy in flight, and
; a persistent clone runs the next virtual CTA in the same shared memory.
; Every clone waits for the thread's copies in gmem.exit (before the end of
; a virtual CTA's barrier), which the returns,
; the aborts and (persistent forms) the end of every virtual CTA pass:
; cp.async.wait_all for cp.async, cp.async.bulk.wait_group 0 for bulk
; copies. A kernel without copies gets neither.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: llc -mcpu=sm_90 -mattr=+ptx80 < %t.ll | FileCheck %s --check-prefix=PTX

; CHECK-LABEL: define void @__gmem_pre_double_buffer(
; CHECK:       gmem.exit:
; CHECK-NOT:     barrier
; CHECK:         call void asm sideeffect "cp.async.wait_all;", "~{memory}"()
; CHECK-NOT:     cp.async.bulk.wait_group
; CHECK:         ret void
; CHECK-LABEL: define void @__gmem_prl_double_buffer(
; CHECK:       gmem.exit:
; CHECK-NOT:     barrier
; CHECK:         call void asm sideeffect "cp.async.wait_all;", "~{memory}"()

; The copy in a device function the kernel calls.
; CHECK-LABEL: define void @__gmem_pre_via_helper(
; CHECK:       gmem.exit:
; CHECK-NOT:     barrier
; CHECK:         call void asm sideeffect "cp.async.wait_all;", "~{memory}"()

; CHECK-LABEL: define void @__gmem_pre_bulk_store(
; CHECK:       gmem.exit:
; CHECK-NOT:     barrier
; CHECK:         call void asm sideeffect "cp.async.bulk.wait_group 0;", "~{memory}"()

; CHECK-LABEL: define void @__gmem_pre_no_copies(
; CHECK-NOT:     cp.async.wait_all;
; CHECK-NOT:     cp.async.bulk.wait_group
; CHECK:         ret void

; PTX-LABEL: .entry __gmem_pre_double_buffer(
; PTX:         cp.async.wait_all;
; PTX-LABEL: .entry __gmem_pre_bulk_store(
; PTX:         cp.async.bulk.wait_group 0;

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [512 x float] undef, align 16
@tile = internal addrspace(3) global [256 x float] undef, align 16

; Two stages: the copy of tile t + 1 is in flight while tile t is used.
define void @double_buffer(ptr addrspace(1) %in, ptr %out, i32 %tiles) #0 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %te = zext nneg i32 %t to i64
  %bt = mul i32 %b, %tiles
  %row = shl i32 %bt, 8
  %src0i = add i32 %row, %t
  %src0e = sext i32 %src0i to i64
  %src0 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %src0e
  %dst0 = getelementptr inbounds [512 x float], ptr addrspace(3) @buf, i64 0, i64 %te
  call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %dst0, ptr addrspace(1) %src0)
  call void @llvm.nvvm.cp.async.commit.group()
  %any = icmp sgt i32 %tiles, 0
  br i1 %any, label %loop, label %done

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %k.next = add nuw nsw i32 %k, 1
  %nk = shl i32 %k.next, 8
  %si = add i32 %src0i, %nk
  %se = sext i32 %si to i64
  %src = getelementptr inbounds float, ptr addrspace(1) %in, i64 %se
  %slot = and i32 %k.next, 1
  %so = shl i32 %slot, 8
  %di = add i32 %so, %t
  %de = zext i32 %di to i64
  %dst = getelementptr inbounds [512 x float], ptr addrspace(3) @buf, i64 0, i64 %de
  call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %dst, ptr addrspace(1) %src)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.group(i32 1)
  call void @llvm.nvvm.barrier0()
  %cur = and i32 %k, 1
  %co = shl i32 %cur, 8
  %ci = add i32 %co, %t
  %ce = zext i32 %ci to i64
  %cp = getelementptr inbounds [512 x float], ptr addrspace(3) @buf, i64 0, i64 %ce
  %v = load float, ptr addrspace(3) %cp, align 4
  %acc.next = fadd float %acc, %v
  call void @llvm.nvvm.barrier0()
  %more = icmp slt i32 %k.next, %tiles
  br i1 %more, label %loop, label %done

done:
  %r = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %r, ptr %o, align 4
  ret void
}

define internal void @stage(ptr addrspace(1) %src, i32 %t) #0 {
  %te = zext nneg i32 %t to i64
  %dst = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %te
  %s = getelementptr inbounds float, ptr addrspace(1) %src, i64 %te
  call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %dst, ptr addrspace(1) %s)
  ret void
}

define void @via_helper(ptr addrspace(1) %in, ptr %out) #0 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @stage(ptr addrspace(1) %in, i32 %t) #1
  call void @llvm.nvvm.cp.async.wait.all()
  call void @llvm.nvvm.barrier0()
  %te = zext nneg i32 %t to i64
  %p = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %te
  %v = load float, ptr addrspace(3) %p, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

; A bulk store of the tile to global memory, waited for by the kernel.
define void @bulk_store(ptr %out) #0 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %p = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %te
  store float 1.0, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier0()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %issue, label %end
issue:
  %s = ptrtoint ptr addrspace(3) @tile to i32
  call void asm sideeffect "cp.async.bulk.global.shared::cta.bulk_group [$0], [$1], 1024;\0A\09cp.async.bulk.commit_group;\0A\09cp.async.bulk.wait_group.read 0;", "l,r,~{memory}"(ptr %out, i32 %s)
  br label %end
end:
  ret void
}

define void @no_copies(ptr %out) #0 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float 1.0, ptr %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32)
declare void @llvm.nvvm.cp.async.wait.all()

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { noinline }

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @double_buffer, !"kernel", i32 1}
!1 = !{ptr @via_helper, !"kernel", i32 1}
!2 = !{ptr @bulk_store, !"kernel", i32 1}
!3 = !{ptr @no_copies, !"kernel", i32 1}
