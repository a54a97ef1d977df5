; A loop whose barrier runs in every iteration, with a CTA-uniform induction
; variable, step and bound, is strip-mined like a latch check (Limit kind):
; the loop's own barriers stay plain, thread 0 reads the request at each
; segment's start (the loaded word, not a compare of it, goes into the phi,
; so nothing waits for it there), and one barrier reduction between two
; segments decides for the CTA. A loop whose IV starts at threadIdx.x keeps
; the per-iteration counter (the segments' ends would depend on the
; thread), and so does every loop with GMEM_CHECKPOINT_JOIN_SEGMENT=0.
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 \
; RUN:   | FileCheck %s --check-prefix=PTX
; RUN: env GMEM_CHECKPOINT_JOIN_SEGMENT=0 GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=OFF

; Body cost 34 -> K = ceil(512 / 34) = 16 iterations of 256: the limit is 16
; steps ahead (4096) unless the bound is within 1.5 K steps (6144).
; CHECK-LABEL: define void @__gmem_pre__Z5tiledPfPKfi(
; CHECK:       gmem.ckpt.seg:
; CHECK-NEXT:    %k.seg = phi i32 [ 0, %entry ], [ %k.next, %gmem.ckpt ]
; CHECK:         %[[AHEAD:.*]] = add i32 %k.seg, [[K:[0-9]+]]
; CHECK-NEXT:    %[[FAR:.*]] = add i32 %k.seg,
; CHECK-NEXT:    %gmem.ckpt.far = icmp slt i32 %[[FAR]], %n
; CHECK-NEXT:    %[[MIN:.*]] = call i32 @llvm.smin.i32(i32 %n, i32 %[[AHEAD]])
; CHECK-NEXT:    %gmem.ckpt.limit = select i1 %gmem.ckpt.far, i32 %[[MIN]], i32 %n
; CHECK-NEXT:    br i1 %gmem.tid0, label %[[READ:.*]], label %[[START:.*]]
; CHECK:       [[READ]]:
; CHECK-NEXT:    %[[REQ:.*]] = load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK-NEXT:    br label %[[START]]
; CHECK:       [[START]]:
; CHECK-NEXT:    %gmem.seg.request = phi i32 [ %[[REQ]], %[[READ]] ], [ 0, %gmem.ckpt.seg ]
; CHECK-NEXT:    br label %loop
; The iteration: both barriers as they were, the exit compare on the limit.
; CHECK:       loop:
; CHECK-NOT:     gmem.site
; CHECK:         call void @llvm.nvvm.barrier0()
; CHECK:         call void @llvm.nvvm.barrier0()
; CHECK-NOT:     barrier0.or
; CHECK:         %gmem.cont = icmp slt i32 %k.next, %gmem.ckpt.limit
; CHECK-NEXT:    br i1 %gmem.cont, label %loop, label %gmem.ckpt.sel
; Between segments: one reduction over thread 0's read.
; CHECK:       gmem.ckpt:
; CHECK-NEXT:    %gmem.seg.mine = icmp eq i32 %gmem.seg.request, 2
; CHECK-NEXT:    %[[Z:.*]] = zext i1 %gmem.seg.mine to i32
; CHECK-NEXT:    %[[RED:.*]] = call i32 @llvm.nvvm.barrier0.or(i32 %[[Z]])
; CHECK-NEXT:    %gmem.cta.stop = icmp ne i32 %[[RED]], 0
; CHECK-NEXT:    br i1 %gmem.cta.stop, label %gmem.abort, label %gmem.ckpt.seg
; CHECK:       gmem.ckpt.sel:
; CHECK-NEXT:    br i1 %ck, label %gmem.ckpt, label %exit

; block.sync() (barrier.sync 0, not .aligned): the reduction is not .aligned either.
; CHECK-LABEL: define void @__gmem_pre__Z7cgtiledPfPKfi(
; CHECK:       gmem.ckpt.seg:
; CHECK:       loop:
; CHECK:         call void @llvm.nvvm.barrier.sync(i32 0)
; CHECK:       gmem.ckpt:
; CHECK:         call i32 asm sideeffect "{{.*}}barrier.red.or.pred %gmp1, 0, %gmp0;{{.*}}"
; CHECK-NEXT:    %gmem.seg.stop = icmp ne i32

; CHECK-LABEL: define void @__gmem_pre__Z7divloopPfPKfi(
; CHECK-NOT:   gmem.ckpt.seg
; CHECK:         %gmem.site.due = icmp slt i32
; CHECK:       gmem.site.red:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:       }

; Eight trips whose whole run fits the budget: no check in the loop (as
; before segments; the virtual CTA's or the CTA's own checks cover it).
; CHECK-LABEL: define void @__gmem_pre__Z5shortPfPKf(
; CHECK:       loop:
; CHECK-NOT:     barrier0.or
; CHECK-NOT:     gmem.ckpt
; CHECK:         call void @llvm.nvvm.barrier0()
; CHECK:       exit:

; A body over the budget alone: its barrier reduces in every iteration, no
; segments.
; CHECK-LABEL: define void @__gmem_pre__Z5heavyPfPKfi(
; CHECK-NOT:   gmem.ckpt.seg
; CHECK:       latch:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:       }

; OFF-LABEL: define void @__gmem_pre__Z5tiledPfPKfi(
; OFF-NOT:     gmem.ckpt.seg
; OFF:         %gmem.site.due = icmp slt i32
; OFF-LABEL: define void @__gmem_pre__Z7cgtiledPfPKfi(
; OFF-NOT:     gmem.ckpt.seg
; OFF:         %gmem.site.due = icmp slt i32

; The persistent clone (default), compiled: thread 0's read at the segment's
; start, the plain barriers, the reduction between segments.
; PTX-LABEL: .entry __gmem_pre__Z5tiledPfPKfi(
; PTX:         ld.volatile.global.u32
; PTX:         bar.sync 0;
; PTX:         bar.sync 0;
; PTX:         bar.red.or.pred
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; for (k = 0; k < n; k += 256) { tile[t] = b[k+t]; sync; s += tile[(t+1)%256]; sync; }
define void @_Z5tiledPfPKfi(ptr %a, ptr %b, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %slot = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  %t1 = add i32 %t, 1
  %t1m = and i32 %t1, 255
  %t1m64 = zext i32 %t1m to i64
  %next = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t1m64
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %kt = add i32 %k, %t
  %kt64 = zext i32 %kt to i64
  %pb = getelementptr float, ptr %b, i64 %kt64
  %v = load float, ptr %pb
  store float %v, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  %x = load float, ptr addrspace(3) %next
  %s.next = fadd float %s, %x
  call void @llvm.nvvm.barrier0()
  %k.next = add i32 %k, 256
  %ck = icmp slt i32 %k.next, %n
  br i1 %ck, label %loop, label %exit

exit:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %pa = getelementptr float, ptr %a, i64 %t64
  store float %r, ptr %pa
  ret void
}

; The same with cooperative groups' block.sync() (barrier.sync 0, not .aligned).
define void @_Z7cgtiledPfPKfi(ptr %a, ptr %b, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %slot = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %kt = add i32 %k, %t
  %kt64 = zext i32 %kt to i64
  %pb = getelementptr float, ptr %b, i64 %kt64
  %v = load float, ptr %pb
  store float %v, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier.sync(i32 0)
  %k.next = add i32 %k, 256
  %ck = icmp slt i32 %k.next, %n
  br i1 %ck, label %loop, label %exit

exit:
  ret void
}

; The IV starts at threadIdx.x: the trip count is the same in every thread
; only where the kernel is correct, and the segments' ends would depend on
; the thread. The per-iteration counter stays.
define void @_Z7divloopPfPKfi(ptr %a, ptr %b, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %slot = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  %c0 = icmp slt i32 %t, %n
  br i1 %c0, label %loop, label %exit

loop:
  %k = phi i32 [ %t, %entry ], [ %k.next, %loop ]
  %k64 = zext i32 %k to i64
  %pb = getelementptr float, ptr %b, i64 %k64
  %v = load float, ptr %pb
  store float %v, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  %k.next = add i32 %k, 256
  %ck = icmp slt i32 %k.next, %n
  br i1 %ck, label %loop, label %exit

exit:
  ret void
}

; Eight trips of a light body, n unknown: fewer than a segment.
define void @_Z5shortPfPKf(ptr %a, ptr %b) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %slot = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  br label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %k64 = zext i32 %k to i64
  %pb = getelementptr float, ptr %b, i64 %k64
  %v = load float, ptr %pb
  store float %v, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  %k.next = add i32 %k, 1
  %ck = icmp ult i32 %k.next, 8
  br i1 %ck, label %loop, label %exit

exit:
  ret void
}

; A body of 64 global loads: over the budget alone.
define void @_Z5heavyPfPKfi(ptr %a, ptr %b, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %slot = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %latch ]
  %s = phi float [ 0.0, %entry ], [ %s.in, %latch ]
  br label %inner

inner:
  %j = phi i32 [ 0, %loop ], [ %j.next, %inner ]
  %acc = phi float [ %s, %loop ], [ %acc.next, %inner ]
  %kj = add i32 %k, %j
  %kj64 = zext i32 %kj to i64
  %pb = getelementptr float, ptr %b, i64 %kj64
  %x = load volatile float, ptr %pb
  %acc.next = fadd float %acc, %x
  %j.next = add i32 %j, 1
  %cj = icmp ult i32 %j.next, 64
  br i1 %cj, label %inner, label %latch

latch:
  %s.in = phi float [ %acc.next, %inner ]
  store float %s.in, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  %k.next = add i32 %k, 1
  %ck = icmp slt i32 %k.next, %n
  br i1 %ck, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.barrier.sync(i32)

!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{ptr @_Z5tiledPfPKfi, !"kernel", i32 1}
!1 = !{ptr @_Z7cgtiledPfPKfi, !"kernel", i32 1}
!2 = !{ptr @_Z7divloopPfPKfi, !"kernel", i32 1}
!3 = !{ptr @_Z5shortPfPKf, !"kernel", i32 1}
!4 = !{ptr @_Z5heavyPfPKfi, !"kernel", i32 1}
