; Short entries of strip-mined loops run an untouched copy
; (CheckpointLoopVersion.cpp). A guard at the loop's entry, gmem.ckpt.short,
; computes whether this entry ends within 2 K iterations; if so the copy
; (blocks suffixed .short, no check) runs, else the strip-mined loop with
; its checks. The copy is what ptxas compiles like the original loop (a
; segment's limit hides that it is a whole number of steps away).
;  != loops with constant step s: the distance is nonzero, at most 2 K |s|
;    and a multiple of s (urem only where |s| > 1).
;  < / > loops: the IV 2 K steps on, computed with overflow intrinsics,
;    fails the latch's test and did not wrap.
;  Not versioned: non-constant steps (grid-stride), outer loops.
; K = ceil(512 / body cost): count_ne 103 (2 K = 206), ranged 25 (50),
; down 43 (2 K |s| = 172), rows 37.
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_PACE_COMPUTE=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_VERSION=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=OFF
; Only the main clone has the copies; its alternate and barrier-free twins,
; which the runtime times against it, keep the strip-mined loops alone.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=TWINS
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 \
; RUN:   | FileCheck %s --check-prefix=PTX

; Paced (the default, without GMEM_CHECKPOINT_PACE=0): the guard is the
; strip-mined loop's entry, so it notes the segment's start; the copy keeps
; no pace and no check.
; PACED-LABEL: define void @__gmem_pre__Z6rangedPfii(
; PACED:       gmem.ckpt.short:
; PACED:         %gmem.pace.start = or i32 %{{.*}}, 2
; PACED-NEXT:    br i1 %gmem.ckpt.isshort, label %loop.short, label %gmem.ckpt.seg
; PACED:       gmem.ckpt.seg:
; PACED:         %gmem.pace = phi i32 [ %gmem.pace.start, %gmem.ckpt.short ], [ %gmem.pace.next, %gmem.ckpt ]
; PACED:       loop.short:
; PACED-NOT:     gmem.pace
; PACED-NOT:     gmem.ctl
; PACED:         br i1 %c.short, label %loop.short, label %exit.loopexit

; CHECK-LABEL: define void @__gmem_pre__Z7count_nePfi(
; CHECK:       gmem.ckpt.short:
; CHECK-NEXT:    %k.in = phi i32 [ 0, %entry ]
; CHECK-NEXT:    %x.in = phi float [ 1.000000e+00, %entry ]
; CHECK-NEXT:    %[[D:.*]] = sub i32 %n, %k.in
; CHECK-NEXT:    %[[NEAR:.*]] = icmp ule i32 %[[D]], 206
; CHECK-NEXT:    %[[NZ:.*]] = icmp ne i32 %[[D]], 0
; CHECK-NEXT:    %gmem.ckpt.isshort = and i1 %[[NEAR]], %[[NZ]]
; CHECK-NEXT:    br i1 %gmem.ckpt.isshort, label %loop.short, label %gmem.ckpt.seg
; CHECK:       gmem.ckpt.seg:
; CHECK-NEXT:    %k.seg = phi i32 [ %k.in, %gmem.ckpt.short ], [ %k.next, %gmem.ckpt ]
; The value used after the loop comes from whichever copy ran (the exit
; shared with the entry's skip path got a block of its own).
; CHECK:       exit.loopexit:
; CHECK-NEXT:    %x.next.lcssa = phi float [ %x.next, %gmem.ckpt.sel ], [ %x.next.short, %loop.short ]
; CHECK:       exit:
; CHECK-NEXT:    %r = phi float [ 1.000000e+00, %entry ], [ %x.next.lcssa, %exit.loopexit ]
; CHECK:       loop.short:
; CHECK-NEXT:    %k.short = phi i32 [ %k.next.short, %loop.short ], [ %k.in, %gmem.ckpt.short ]
; CHECK-NOT:     gmem.ctl
; CHECK:         br i1 %done.short, label %exit.loopexit, label %loop.short

; CHECK-LABEL: define void @__gmem_pre__Z8unrolledPfi(
; CHECK:       gmem.ckpt.short:
; CHECK:         %[[D:.*]] = sub i32 %trips, %j.in
; CHECK-NEXT:    %[[NEAR:.*]] = icmp ule i32 %[[D]], [[SPAN:[0-9]+]]
; CHECK-NEXT:    %[[NZ:.*]] = icmp ne i32 %[[D]], 0
; CHECK-NEXT:    %[[BOTH:.*]] = and i1 %[[NEAR]], %[[NZ]]
; CHECK-NEXT:    %[[REM:.*]] = urem i32 %[[D]], 4
; CHECK-NEXT:    %[[WHOLE:.*]] = icmp eq i32 %[[REM]], 0
; CHECK-NEXT:    %gmem.ckpt.isshort = and i1 %[[BOTH]], %[[WHOLE]]

; CHECK-LABEL: define void @__gmem_pre__Z6rangedPfii(
; CHECK:       gmem.ckpt.short:
; CHECK-NEXT:    %i.in = phi i32 [ %lo, %entry ]
; CHECK-NEXT:    %[[R:.*]] = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %i.in, i32 50)
; CHECK-NEXT:    %[[P:.*]] = extractvalue { i32, i1 } %[[R]], 0
; CHECK-NEXT:    %[[O:.*]] = extractvalue { i32, i1 } %[[R]], 1
; CHECK-NEXT:    %[[C:.*]] = icmp slt i32 %[[P]], %hi
; CHECK-NEXT:    %[[E:.*]] = xor i1 %[[C]], true
; CHECK-NEXT:    %[[NO:.*]] = xor i1 %[[O]], true
; CHECK-NEXT:    %gmem.ckpt.isshort = and i1 %[[E]], %[[NO]]

; Counting down (unsigned): the IV 2 K steps lower, without borrowing.
; CHECK-LABEL: define void @__gmem_pre__Z4downPfj(
; CHECK:       gmem.ckpt.short:
; CHECK:         call { i32, i1 } @llvm.usub.with.overflow.i32(i32 %i.in, i32 172)
; CHECK:         icmp ugt i32 %{{.*}}, 8

; Nested: the inner loop is versioned, its exit shared with the path that
; skips it now has a block of its own. (The whole nest, whose trip counts
; are arguments, also has a copy for short entries: nvptx_loop_nest.ll.)
; CHECK-LABEL: define void @__gmem_pre__Z4rowsPfS_ii(
; CHECK:         br i1 %gmem.ckpt.isshort, label %outer.short, label %gmem.ckpt.seg
; CHECK:         br i1 %has, label %gmem.ckpt.short{{[0-9]+}}, label %row.done
; CHECK:       row.done.loopexit:
; CHECK-NEXT:    %t.next.lcssa = phi float [ %t.next, %gmem.ckpt.sel ], [ %[[TS:t.next.short[0-9]*]], %[[IS:inner.short[0-9]*]] ]
; CHECK:       row.done:
; CHECK-NEXT:    %sum = phi float [ 0.000000e+00, %outer ], [ %t.next.lcssa, %row.done.loopexit ]
; CHECK:       [[IS]]:
; CHECK:         br i1 %{{more.short[0-9]*}}, label %[[IS]], label %row.done.loopexit
; CHECK-NOT:   outer.short

; Grid-stride: no copy.
; CHECK-LABEL: define void @__gmem_pre__Z8scale_gsPfi(
; CHECK-NOT:   gmem.ckpt.short
; CHECK:       gmem.ckpt.seg:
; CHECK-NOT:   gmem.ckpt.short
; CHECK:       }

; TWINS-LABEL: define void @__gmem_pre__Z7count_nePfi(
; TWINS:         gmem.ckpt.short:
; TWINS-LABEL: define void @__gmem_pra__Z7count_nePfi(
; TWINS-NOT:     gmem.ckpt.short
; TWINS:         gmem.ckpt.seg:
; TWINS-LABEL: define void @__gmem_prf__Z7count_nePfi(
; TWINS-NOT:     gmem.ckpt.short
; TWINS:         gmem.ckpt.seg:
; TWINS:       }

; OFF-NOT: gmem.ckpt.short
; OFF-NOT: .short

; PTX-LABEL: .visible .entry __gmem_prf__Z7count_nePfi(
; PTX:         ret;

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; x = 1; for (k = 0; k != n; ++k) x = x * 0.5 + 1; *out = x;
define void @_Z7count_nePfi(ptr %out, i32 %n) {
entry:
  %c0 = icmp ne i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %x = phi float [ 1.0, %entry ], [ %x.next, %loop ]
  %h = fmul float %x, 0.5
  %x.next = fadd float %h, 1.0
  %k.next = add i32 %k, 1
  %done = icmp eq i32 %k.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 1.0, %entry ], [ %x.next, %loop ]
  store float %r, ptr %out
  ret void
}

; Unrolled by 4: for (j = 0; j != (n & ~3); j += 4) s += a[j..j+3]
define void @_Z8unrolledPfi(ptr %a, i32 %n) {
entry:
  %trips = and i32 %n, -4
  %c0 = icmp ne i32 %trips, 0
  br i1 %c0, label %loop, label %exit

loop:
  %j = phi i32 [ 0, %entry ], [ %j.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s4, %loop ]
  %p0 = getelementptr float, ptr %a, i32 %j
  %v0 = load float, ptr %p0
  %s1 = fadd float %s, %v0
  %j1 = add i32 %j, 1
  %p1 = getelementptr float, ptr %a, i32 %j1
  %v1 = load float, ptr %p1
  %s2 = fadd float %s1, %v1
  %j2 = add i32 %j, 2
  %p2 = getelementptr float, ptr %a, i32 %j2
  %v2 = load float, ptr %p2
  %s3 = fadd float %s2, %v2
  %j3 = add i32 %j, 3
  %p3 = getelementptr float, ptr %a, i32 %j3
  %v3 = load float, ptr %p3
  %s4 = fadd float %s3, %v3
  %j.next = add i32 %j, 4
  %done = icmp eq i32 %j.next, %trips
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %s4, %loop ]
  store float %r, ptr %a
  ret void
}

; for (i = lo; i < hi; ++i) a[i] += 1;  (signed bound)
define void @_Z6rangedPfii(ptr %a, i32 %lo, i32 %hi) {
entry:
  %c0 = icmp slt i32 %lo, %hi
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ %lo, %entry ], [ %i.next, %loop ]
  %p = getelementptr float, ptr %a, i32 %i
  %v = load float, ptr %p
  %w = fadd float %v, 1.0
  store float %w, ptr %p
  %i.next = add nsw i32 %i, 1
  %c = icmp slt i32 %i.next, %hi
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; for (i = n; i > 8; i -= 2) a[i] = 0;  (unsigned, counting down)
define void @_Z4downPfj(ptr %a, i32 %n) {
entry:
  %c0 = icmp ugt i32 %n, 8
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ %n, %entry ], [ %i.next, %loop ]
  %p = getelementptr float, ptr %a, i32 %i
  store float 0.0, ptr %p
  %i.next = add i32 %i, -2
  %c = icmp ugt i32 %i.next, 8
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; for (r = 0; r < rows; ++r) { t = 0; for (c = 0; c < cols; ++c) t += m[r*cols+c]; y[r] = t; }
; The inner loop's exit block is shared with the path that skips it.
define void @_Z4rowsPfS_ii(ptr %m, ptr %y, i32 %rows, i32 %cols) {
entry:
  %c0 = icmp sgt i32 %rows, 0
  br i1 %c0, label %outer, label %exit

outer:
  %r = phi i32 [ 0, %entry ], [ %r.next, %row.done ]
  %base = mul i32 %r, %cols
  %has = icmp sgt i32 %cols, 0
  br i1 %has, label %inner, label %row.done

inner:
  %c = phi i32 [ 0, %outer ], [ %c.next, %inner ]
  %t = phi float [ 0.0, %outer ], [ %t.next, %inner ]
  %idx = add i32 %base, %c
  %p = getelementptr float, ptr %m, i32 %idx
  %v = load float, ptr %p
  %t.next = fadd float %t, %v
  %c.next = add nsw i32 %c, 1
  %more = icmp slt i32 %c.next, %cols
  br i1 %more, label %inner, label %row.done

row.done:
  %sum = phi float [ 0.0, %outer ], [ %t.next, %inner ]
  %q = getelementptr float, ptr %y, i32 %r
  store float %sum, ptr %q
  %r.next = add nsw i32 %r, 1
  %rm = icmp slt i32 %r.next, %rows
  br i1 %rm, label %outer, label %exit

exit:
  ret void
}

; Grid-stride loop: the step (blockDim * gridDim) is not a constant.
define void @_Z8scale_gsPfi(ptr %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %stride = mul i32 %ntid, %nctaid
  %c0 = icmp slt i32 %tid, %n
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %loop ]
  %p = getelementptr float, ptr %a, i32 %i
  %v = load float, ptr %p
  %w = fmul float %v, 2.0
  store float %w, ptr %p
  %i.next = add i32 %i, %stride
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5}
!0 = !{ptr @_Z7count_nePfi, !"kernel", i32 1}
!1 = !{ptr @_Z8unrolledPfi, !"kernel", i32 1}
!2 = !{ptr @_Z6rangedPfii, !"kernel", i32 1}
!3 = !{ptr @_Z4downPfj, !"kernel", i32 1}
!4 = !{ptr @_Z4rowsPfS_ii, !"kernel", i32 1}
!5 = !{ptr @_Z8scale_gsPfi, !"kernel", i32 1}
