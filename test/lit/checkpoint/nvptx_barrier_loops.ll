; Loops with __syncthreads. A barrier that runs in every iteration becomes
; the loop's checkpoint: the request is read at the top of the iteration
; (when the work counter runs out) and the barrier itself decides for the
; whole CTA (bar.red.or), so all threads leave together and none is left
; waiting in a barrier.
; RUN: env GMEM_CHECKPOINT_JOIN_SEGMENT=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_JOIN_SEGMENT=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 \
; RUN:   | FileCheck %s --check-prefix=PTX

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; flags 5 (loop checkpoints, barriers), one site; body cost 97 (own 33, the
; inner loop 8 x 8) -> K = ceil(512 / 97) = 6
; CHECK: @__gmem_pre_info__Z5tiledPfPKfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 5, i32 1, i32 6]
; barrier.sync(0) (cooperative groups' block.sync()): joined as well
; CHECK: @__gmem_pre_info__Z7cgtiledPfPKfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 5, i32 1, i32 {{[0-9]+}}]
; A barrier only on some iterations cannot be joined, and the loop cannot
; be left per thread either (the barrier is reachable): no loop checkpoint.
; CHECK: @__gmem_pre_info__Z8condsyncPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4, i32 0, i32 0]

; CHECK-LABEL: define void @__gmem_pre__Z5tiledPfPKfi(
; The entry decision is the first bar.red.or. The site's own counter says
; which iterations are due (the same in every thread); then thread 0 reads
; the request at the top of the iteration (latency hidden behind the tile
; load) and that iteration's barrier is a bar.red.or; the others keep the
; plain barrier.
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:       loop:
; CHECK-NEXT:    %[[LEFT:.*]] = phi i32 [ 512, %{{entry|loop.preheader}} ], [ %[[SEL:.*]], %loop.end ]
; CHECK:         %[[NEXT:.*]] = sub i32 %[[LEFT]], 97
; CHECK-NEXT:    %gmem.site.due = icmp slt i32 %[[NEXT]], 0
; CHECK-NEXT:    %[[SEL]] = select i1 %gmem.site.due, i32 512, i32 %[[NEXT]]
; CHECK-NEXT:    %[[LEAD:.*]] = and i1 %gmem.site.due, %gmem.tid0
; CHECK-NEXT:    br i1 %[[LEAD]], label %[[READ:.*]], label %[[BODY:.*]]
; CHECK:       [[READ]]:
; CHECK-NEXT:    %gmem.request{{[0-9]*}} = load volatile i32, ptr addrspace(1) %gmem.ctl, align 4
; CHECK-NEXT:    %[[MINE:.*]] = icmp eq i32 %gmem.request{{[0-9]*}}, 2
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:       [[BODY]]:
; CHECK:         %gmem.stop.mine = phi i1 [ %[[MINE]], %[[READ]] ], [ false, %loop ]
; CHECK:         store float %v, ptr addrspace(3) %slot
; CHECK-NEXT:    br i1 %gmem.site.due, label %gmem.site.red, label %gmem.site.plain
; CHECK:       gmem.site.red:
; CHECK-NEXT:    %[[Z:.*]] = zext i1 %gmem.stop.mine to i32
; CHECK-NEXT:    %[[RED:.*]] = call i32 @llvm.nvvm.barrier0.or(i32 %[[Z]])
; CHECK-NEXT:    %[[STOP:.*]] = icmp ne i32 %[[RED]], 0
; CHECK-NEXT:    br label %gmem.site.join
; CHECK:       gmem.site.plain:
; CHECK-NEXT:    call void @llvm.nvvm.barrier0()
; CHECK-NEXT:    br label %gmem.site.join
; CHECK:       gmem.site.join:
; CHECK-NEXT:    %[[CTA:.*]] = phi i1 [ %[[STOP]], %gmem.site.red ], [ false, %gmem.site.plain ]
; CHECK-NEXT:    br i1 %[[CTA]], label %gmem.abort, label %[[AFTER:.*]]
; CHECK:       [[AFTER]]:
; CHECK-NEXT:    br label %inner
; The second barrier of the iteration stays a plain barrier.
; CHECK:       loop.end:
; CHECK-NEXT:    %s.inner = phi float
; CHECK-NEXT:    call void @llvm.nvvm.barrier0()
; The barrier-free inner loop leads back to a barrier: no check of its own.
; CHECK-NOT:   gmem.ckpt
; All threads leave together, counted as aborted at the unified exit.
; CHECK:       gmem.abort:
; CHECK-NEXT:    br label %gmem.exit

; CHECK-LABEL: define void @__gmem_pre__Z7cgtiledPfPKfi(
; barrier.sync 0 is not .aligned: joined with barrier.red (not bar.red) on
; due iterations, kept as it was on the others.
; CHECK:       gmem.site.red:
; CHECK:         call i32 asm sideeffect "{{.*}}barrier.red.or.pred %gmp1, 0, %gmp0;{{.*}}", "=r,r,~{memory}"(i32 %{{.*}}) #[[CONV:[0-9]+]]
; CHECK:       gmem.site.plain:
; CHECK-NEXT:    call void @llvm.nvvm.barrier.sync(i32 0)
; CHECK:       }

; CHECK-LABEL: define void @__gmem_pre__Z8condsyncPfi(
; CHECK-NOT:   gmem.ckpt
; CHECK-NOT:   gmem.abort
; CHECK:       }

; CHECK: attributes #[[CONV]] = { convergent }

; PTX-LABEL: .entry __gmem_pre__Z5tiledPfPKfi(
; PTX:         bar.red.or.pred
; PTX:         ld.volatile.global.u32
; PTX:         bar.red.or.pred
; PTX:         bar.sync 0;
; PTX-LABEL: .entry __gmem_pre__Z7cgtiledPfPKfi(
; PTX:         barrier.red.or.pred

; for (k = 0; k < n; k += 256) { tile[t] = b[k+t]; sync; for j<8: s += tile[j]; sync; }
define void @_Z5tiledPfPKfi(ptr %a, ptr %b, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %slot = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop.end ]
  %s = phi float [ 0.0, %entry ], [ %s.inner, %loop.end ]
  %kt = add i32 %k, %t
  %kt64 = zext i32 %kt to i64
  %pb = getelementptr float, ptr %b, i64 %kt64
  %v = load float, ptr %pb
  store float %v, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  br label %inner

inner:
  %j = phi i32 [ 0, %loop ], [ %j.next, %inner ]
  %acc = phi float [ %s, %loop ], [ %acc.next, %inner ]
  %j64 = zext i32 %j to i64
  %pj = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %j64
  %x = load float, ptr addrspace(3) %pj
  %acc.next = fadd float %acc, %x
  %j.next = add i32 %j, 1
  %cj = icmp ult i32 %j.next, 8
  br i1 %cj, label %inner, label %loop.end

loop.end:
  %s.inner = phi float [ %acc.next, %inner ]
  call void @llvm.nvvm.barrier0()
  %k.next = add i32 %k, 256
  %ck = icmp slt i32 %k.next, %n
  br i1 %ck, label %loop, label %exit

exit:
  %r = phi float [ 0.0, %entry ], [ %s.inner, %loop.end ]
  %pa = getelementptr float, ptr %a, i64 %t64
  store float %r, ptr %pa
  ret void
}

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

; for (i = 0; i < n; ++i) { a[i] += 1; if (i % 8 == 0) __syncthreads(); }
define void @_Z8condsyncPfi(ptr %a, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %i64 = zext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %i64
  %v = load float, ptr %p
  %w = fadd float %v, 1.0
  store float %w, ptr %p
  %m = and i32 %i, 7
  %z = icmp eq i32 %m, 0
  br i1 %z, label %sync, label %latch

sync:
  call void @llvm.nvvm.barrier0()
  br label %latch

latch:
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.barrier.sync(i32)

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @_Z5tiledPfPKfi, !"kernel", i32 1}
!1 = !{ptr @_Z7cgtiledPfPKfi, !"kernel", i32 1}
!2 = !{ptr @_Z8condsyncPfi, !"kernel", i32 1}
