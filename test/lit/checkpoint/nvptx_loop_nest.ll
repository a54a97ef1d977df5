; Loop nests whose trip counts are known at their entry
; (CheckpointLoopNest.cpp). im2col's shape: a grid-stride loop over
; elements, and per element a k x k patch, k a kernel argument. The static
; cost model cannot bound k, so without this every level checked: the patch
; loops on most of their trips.
;  * The patch nest's work per entry, k * (own + k * inner), is computed in
;    its preheader from SCEV's trip bounds (clamped, no overflow); an entry
;    of at most 2 budgets (1024) runs an untouched copy (.short blocks, no
;    read of the control word).
;  * The grid-stride loop that contains the nest takes no K from that work
;    (its trips wait on memory the count does not see: im2col's checks came
;    ~2-3 trips of ~5 us apart, stop P99 14 us after the write on the H200,
;    6.4 us with the static rule); it keeps the static rule, here a check
;    every trip. GMEM_CHECKPOINT_NEST=counted gives it
;    ceil(budget / one iteration's work at this entry's k), the strip-mined
;    segment limit K steps ahead.
; Not done where a subloop's bound changes inside the nest (triangular) or
; is read from memory, and with GMEM_CHECKPOINT_NEST=0.
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefixes=PACED,CHECK
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_NEST=counted \
; RUN:   opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s --check-prefixes=COUNTED,CHECK
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_NEST=0 opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=OFF
; The persistent clones and twins get the same (they share the loop pass);
; the result is valid PTX.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=TWINS
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 \
; RUN:   | FileCheck %s --check-prefix=PTX

; By default the row nest's work at this k is computed once, in front of
; the outermost loop (k does not change in it), against 2 budgets; the
; grid-stride loop's own iteration work is not.
; PACED-LABEL: define void @__gmem_pre__Z5patchPfS_ii(
; PACED:       gs.pre:
; PACED:         %gmem.iter.work = call i64 @llvm.umin.i64(i64 %{{.*}}, i64 1025)
; PACED-NOT:     %gmem.iter.work{{[0-9]+}} =
; PACED:         %gmem.ckpt.isshort = icmp ule i64 %gmem.nest.work{{[0-9]*}}, 1024
; PACED-NOT:     %i.seg = phi
; PACED:       gmem.ckpt.short:
; PACED-NEXT:    %r.in = phi i32 [ 0, %rowloop.pre ]
; PACED-NEXT:    br i1 %gmem.ckpt.isshort, label %rowloop.short, label %gmem.ckpt.seg
; PACED:       rowloop.short:
; PACED-NOT:     gmem.ctl
; PACED-NOT:     label %gmem.ckpt
; PACED:       row.done.short:
; PACED:       }

; Counted: K = ceil(budget / one iteration's work), clamped: first the row
; loop's (a column loop at this k per trip), then the grid-stride loop's (a
; row nest at this k per trip).
; COUNTED-LABEL: define void @__gmem_pre__Z5patchPfS_ii(
; COUNTED:       gs.pre:
; COUNTED:         %[[TC:.*]] = call i64 @llvm.umin.i64(i64 %{{.*}}, i64 1024)
; COUNTED:         %gmem.iter.work = call i64 @llvm.umin.i64(i64 %{{.*}}, i64 1025)
; COUNTED:         udiv i32
; COUNTED:         %gmem.iter.work{{[0-9]+}} = call i64 @llvm.umin.i64(i64 %{{.*}}, i64 1025)
; COUNTED:         %[[W:.*]] = trunc i64 %gmem.iter.work{{[0-9]+}} to i32
; COUNTED-NEXT:    %[[N:.*]] = add i32 %[[W]], 511
; COUNTED-NEXT:    %[[KD:.*]] = udiv i32 %[[N]], %[[W]]
; COUNTED-NEXT:    %[[K:.*]] = call i32 @llvm.umin.i32(i32 %[[KD]], i32 1048576)
; The row nest's work at this k, against 2 budgets.
; COUNTED:         %gmem.ckpt.isshort = icmp ule i64 %gmem.nest.work{{[0-9]*}}, 1024
; The grid-stride segment limit is K steps ahead.
; COUNTED:       gmem.ckpt.seg{{[0-9]*}}:
; COUNTED-NEXT:    %i.seg = phi i32
; COUNTED-NEXT:    %[[AH:.*]] = mul i32 %stride, %[[K]]
; COUNTED:         %gmem.ckpt.limit{{[0-9]*}} = select
; The guard in front of the row loop: short entries run the copy.
; COUNTED:       gmem.ckpt.short:
; COUNTED-NEXT:    %r.in = phi i32 [ 0, %rowloop.pre ]
; COUNTED-NEXT:    br i1 %gmem.ckpt.isshort, label %rowloop.short, label %gmem.ckpt.seg
; The copy (row, column and row-end blocks) reads no control word and
; jumps to no check.
; COUNTED:       rowloop.short:
; COUNTED-NOT:     gmem.ctl
; COUNTED-NOT:     label %gmem.ckpt
; COUNTED:       colloop.short:
; COUNTED-NOT:     gmem.ctl
; COUNTED-NOT:     label %gmem.ckpt
; COUNTED:       row.done.short:
; COUNTED-NOT:     gmem.ctl
; COUNTED-NOT:     label %gmem.ckpt
; COUNTED:         br i1 %rm.short, label %rowloop.short, label %gs.latch.loopexit
; COUNTED:       }

; A triangular inner bound (the outer IV) is not known at the outer entry;
; a bound read from memory neither.
; CHECK-LABEL: define void @__gmem_pre__Z3triPfi(
; CHECK-NOT:     gmem.nest
; CHECK-NOT:     gmem.iter.work
; CHECK:       }
; CHECK-LABEL: define void @__gmem_pre__Z6loadedPfPii(
; CHECK-NOT:     gmem.nest
; CHECK:       }

; 64-bit trip counts: each factor is clamped to 2 budgets (1024) before
; the products, so a huge m cannot wrap the work into "short".
; CHECK-LABEL: define void @__gmem_pre__Z5wide2Pdxx(
; CHECK:         %[[T:.*]] = call i64 @llvm.umin.i64(i64 %{{.*}}, i64 1024)
; CHECK:         %gmem.ckpt.isshort = icmp ule i64 %gmem.nest.work{{[0-9]*}}, 1024
; CHECK:       }

; OFF-NOT: gmem.nest
; OFF-NOT: gmem.iter.work

; TWINS-LABEL: define void @__gmem_pre__Z5patchPfS_ii(
; TWINS:         gmem.ckpt.isshort = icmp ule i64 %gmem.nest.work
; TWINS-LABEL: define void @__gmem_pra__Z5patchPfS_ii(
; TWINS:         gmem.ckpt.isshort = icmp ule i64 %gmem.nest.work
; TWINS-LABEL: define void @__gmem_prf__Z5patchPfS_ii(
; TWINS:         gmem.ckpt.isshort = icmp ule i64 %gmem.nest.work

; PTX-LABEL: .visible .entry __gmem_prf__Z5patchPfS_ii(
; PTX:         div.u32
; PTX:         ret;

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; for (i = tid; i < n; i += stride)
;   for (r = 0; r < k; ++r) for (c = 0; c < k; ++c) out[(i * k + r) * k + c] = in[i + r + c];
define void @_Z5patchPfS_ii(ptr %out, ptr %in, i32 %n, i32 %k) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %stride = mul i32 %ntid, %nctaid
  %c0 = icmp slt i32 %tid, %n
  br i1 %c0, label %gs.pre, label %exit

gs.pre:
  %kpos = icmp sgt i32 %k, 0
  br label %gs

gs:
  %i = phi i32 [ %tid, %gs.pre ], [ %i.next, %gs.latch ]
  br i1 %kpos, label %rowloop.pre, label %gs.latch

rowloop.pre:
  %ik = mul i32 %i, %k
  br label %rowloop

rowloop:
  %r = phi i32 [ 0, %rowloop.pre ], [ %r.next, %row.done ]
  %ikr = add i32 %ik, %r
  %base = mul i32 %ikr, %k
  %ir = add i32 %i, %r
  br label %colloop

colloop:
  %c = phi i32 [ 0, %rowloop ], [ %c.next, %colloop ]
  %src = add i32 %ir, %c
  %ps = getelementptr float, ptr %in, i32 %src
  %v = load float, ptr %ps
  %dst = add i32 %base, %c
  %pd = getelementptr float, ptr %out, i32 %dst
  store float %v, ptr %pd
  %c.next = add nsw i32 %c, 1
  %cm = icmp slt i32 %c.next, %k
  br i1 %cm, label %colloop, label %row.done

row.done:
  %r.next = add nsw i32 %r, 1
  %rm = icmp slt i32 %r.next, %k
  br i1 %rm, label %rowloop, label %gs.latch

gs.latch:
  %i.next = add i32 %i, %stride
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %gs, label %exit

exit:
  ret void
}

; for (i = tid; i < n; i += stride) for (j = 0; j < i; ++j) a[j] += 1;
define void @_Z3triPfi(ptr %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %stride = mul i32 %ntid, %nctaid
  %c0 = icmp slt i32 %tid, %n
  br i1 %c0, label %gs, label %exit

gs:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %gs.latch ]
  %ipos = icmp sgt i32 %i, 0
  br i1 %ipos, label %inner, label %gs.latch

inner:
  %j = phi i32 [ 0, %gs ], [ %j.next, %inner ]
  %p = getelementptr float, ptr %a, i32 %j
  %v = load float, ptr %p
  %w = fadd float %v, 1.0
  store float %w, ptr %p
  %j.next = add nsw i32 %j, 1
  %jm = icmp slt i32 %j.next, %i
  br i1 %jm, label %inner, label %gs.latch

gs.latch:
  %i.next = add i32 %i, %stride
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %gs, label %exit

exit:
  ret void
}

; for (r = 0; r < rows; ++r) for (j = 0; j < len[r]; ++j) a[j] += 1;
define void @_Z6loadedPfPii(ptr %a, ptr %len, i32 %rows) {
entry:
  %c0 = icmp sgt i32 %rows, 0
  br i1 %c0, label %outer, label %exit

outer:
  %r = phi i32 [ 0, %entry ], [ %r.next, %outer.latch ]
  %pl = getelementptr i32, ptr %len, i32 %r
  %m = load i32, ptr %pl
  %mpos = icmp sgt i32 %m, 0
  br i1 %mpos, label %inner, label %outer.latch

inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %p = getelementptr float, ptr %a, i32 %j
  %v = load float, ptr %p
  %w = fadd float %v, 1.0
  store float %w, ptr %p
  %j.next = add nsw i32 %j, 1
  %jm = icmp slt i32 %j.next, %m
  br i1 %jm, label %inner, label %outer.latch

outer.latch:
  %r.next = add nsw i32 %r, 1
  %rm = icmp slt i32 %r.next, %rows
  br i1 %rm, label %outer, label %exit

exit:
  ret void
}

; for (i = 0; i < n; ++i) for (j = 0; j < m; ++j) for (q = 0; q < m; ++q) a[i] += j * q;
define void @_Z5wide2Pdxx(ptr %a, i64 %n, i64 %m) {
entry:
  %c0 = icmp sgt i64 %n, 0
  %mpos = icmp sgt i64 %m, 0
  br i1 %c0, label %outer, label %exit

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  br i1 %mpos, label %mid, label %outer.latch

mid:
  %j = phi i64 [ 0, %outer ], [ %j.next, %mid.latch ]
  %jf = sitofp i64 %j to double
  br label %inner

inner:
  %q = phi i64 [ 0, %mid ], [ %q.next, %inner ]
  %qf = sitofp i64 %q to double
  %jq = fmul double %jf, %qf
  %p = getelementptr double, ptr %a, i64 %i
  %v = load double, ptr %p
  %w = fadd double %v, %jq
  store double %w, ptr %p
  %q.next = add nsw i64 %q, 1
  %qm = icmp slt i64 %q.next, %m
  br i1 %qm, label %inner, label %mid.latch

mid.latch:
  %j.next = add nsw i64 %j, 1
  %jm = icmp slt i64 %j.next, %m
  br i1 %jm, label %mid, label %outer.latch

outer.latch:
  %i.next = add nsw i64 %i, 1
  %im = icmp slt i64 %i.next, %n
  br i1 %im, label %outer, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @_Z5patchPfS_ii, !"kernel", i32 1}
!1 = !{ptr @_Z3triPfi, !"kernel", i32 1}
!2 = !{ptr @_Z6loadedPfPii, !"kernel", i32 1}
!3 = !{ptr @_Z5wide2Pdxx, !"kernel", i32 1}
