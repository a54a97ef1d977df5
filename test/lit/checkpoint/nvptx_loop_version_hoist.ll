; A short-entry test (CheckpointLoopVersion.cpp) whose inputs do not change
; in the enclosing loops is computed once, in the preheader of the outermost
; loop where that holds, instead of in the guard at every entry: the test of
; kmeans' feature loop ran eight instructions every cluster, which ptxas did
; not hoist. Inputs: the latch's bound and the IV's one start value.
;  rows:   for r { for c = 0 .. cols }   -> computed in outer.preheader
;  tri:    for r { for c = r .. cols }   -> start changes: in the guard
;  ragged: for r { n = len[r]; for c = 0 .. n } -> bound changes: in the guard
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_PACE_COMPUTE=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_VERSION_HOIST=0 GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINT_REFRESH=0 GMEM_CHECKPOINT_PACE_COMPUTE=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=OFF
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 \
; RUN:   | FileCheck %s --check-prefix=PTX

; The nest's own guard (gmem.ckpt.short) follows the preheader; the inner
; loop's guard only branches on the hoisted value.
; CHECK-LABEL: define void @__gmem_pre__Z4rowsPfS_ii(
; CHECK:       outer.preheader:
; CHECK:         %[[R:.*]] = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 0, i32 [[SPAN:[0-9]+]])
; CHECK:         icmp slt i32 %{{.*}}, %cols
; CHECK:         %[[H:gmem.ckpt.isshort[0-9]+]] = and i1
; CHECK-NEXT:    br label %gmem.ckpt.short
; CHECK:       outer:
; CHECK:         br i1 %has, label %[[G:gmem.ckpt.short[0-9]+]], label %row.done
; CHECK:       [[G]]:
; CHECK-NEXT:    %c.in = phi i32 [ 0, %outer ]
; CHECK-NOT:     with.overflow
; CHECK:         br i1 %[[H]], label %inner.short{{[0-9]*}}, label %gmem.ckpt.seg

; CHECK-LABEL: define void @__gmem_pre__Z3triPfS_ii(
; CHECK:       outer.preheader:
; CHECK-NOT:     with.overflow
; CHECK:       gmem.ckpt.short:
; CHECK-NEXT:    %c.in = phi i32 [ %r, %outer ]
; CHECK-NEXT:    %t.in = phi float
; CHECK-NEXT:    call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %c.in, i32 {{[0-9]+}})
; CHECK:         %gmem.ckpt.isshort = and i1
; CHECK:         br i1 %gmem.ckpt.isshort, label %inner.short, label %gmem.ckpt.seg

; CHECK-LABEL: define void @__gmem_pre__Z6raggedPfS_PKii(
; CHECK:       outer.preheader:
; CHECK-NOT:     with.overflow
; CHECK:       gmem.ckpt.short:
; CHECK-NEXT:    %c.in = phi i32 [ 0, %outer ]
; CHECK-NEXT:    %t.in = phi float
; CHECK-NEXT:    %[[R2:.*]] = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %c.in, i32 {{[0-9]+}})
; CHECK:         icmp slt i32 %{{.*}}, %n
; CHECK:         %gmem.ckpt.isshort = and i1

; OFF-LABEL: define void @__gmem_pre__Z4rowsPfS_ii(
; OFF:       gmem.ckpt.short{{[0-9]+}}:
; OFF-NEXT:    %c.in = phi i32 [ 0, %outer ]
; OFF-NEXT:    %t.in = phi float
; OFF-NEXT:    call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %c.in, i32 {{[0-9]+}})

; PTX-LABEL: .visible .entry __gmem_pre__Z4rowsPfS_ii(
; PTX:         ret;

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; for (r = 0; r < rows; ++r) { t = 0; for (c = 0; c < cols; ++c) t += m[r*cols+c]; y[r] = t; }
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

; Lower triangle: for (r..) for (c = r; c < cols; ++c): the start changes
; with the row.
define void @_Z3triPfS_ii(ptr %m, ptr %y, i32 %rows, i32 %cols) {
entry:
  %c0 = icmp sgt i32 %rows, 0
  br i1 %c0, label %outer, label %exit

outer:
  %r = phi i32 [ 0, %entry ], [ %r.next, %row.done ]
  %base = mul i32 %r, %cols
  %has = icmp slt i32 %r, %cols
  br i1 %has, label %inner, label %row.done

inner:
  %c = phi i32 [ %r, %outer ], [ %c.next, %inner ]
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

; Ragged rows: the bound is loaded in the outer loop (CSR-like).
define void @_Z6raggedPfS_PKii(ptr %m, ptr %y, ptr %len, i32 %rows) {
entry:
  %c0 = icmp sgt i32 %rows, 0
  br i1 %c0, label %outer, label %exit

outer:
  %r = phi i32 [ 0, %entry ], [ %r.next, %row.done ]
  %lp = getelementptr i32, ptr %len, i32 %r
  %n = load i32, ptr %lp
  %base = shl i32 %r, 6
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %inner, label %row.done

inner:
  %c = phi i32 [ 0, %outer ], [ %c.next, %inner ]
  %t = phi float [ 0.0, %outer ], [ %t.next, %inner ]
  %idx = add i32 %base, %c
  %p = getelementptr float, ptr %m, i32 %idx
  %v = load float, ptr %p
  %t.next = fadd float %t, %v
  %c.next = add nsw i32 %c, 1
  %more = icmp slt i32 %c.next, %n
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

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @_Z4rowsPfS_ii, !"kernel", i32 1}
!1 = !{ptr @_Z3triPfS_ii, !"kernel", i32 1}
!2 = !{ptr @_Z6raggedPfS_PKii, !"kernel", i32 1}
