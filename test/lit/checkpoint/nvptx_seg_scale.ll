; Segment scale (info flag bit 12, SegmentScale): persistent forms whose
; loops are strip-mined with the static K (here dot_rows's `!=` loop) or
; paced on %clock (gstride's grid-stride loop) read a scale s from grid_z's
; bits 24..25: a static segment runs K << s iterations (the 1.5 K rule and
; the `!=` distance test scale alike), a paced one aims at 2^s times its
; target (s is added to the pace's shift update). The runtime passes 0
; where it does not try longer segments: today's K. Every form then masks
; grid_z to its low 16 bits, and a Batched kernel's check interval is bits
; 16..23 only. On by default; GMEM_CHECKPOINT_SEG_SCALE=0: nothing of it.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=PTX
; RUN: env GMEM_CHECKPOINT_SEG_SCALE=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=OFF

; 4593 = 4096 (SegmentScale) + 256 (Batched) + 128 + 64 + 32 (free, alt,
; light) + 16 (persistent) + 1 (loop checkpoints).
; CHECK-DAG: @__gmem_pre_info_dot_rows = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4593,
; CHECK-DAG: @__gmem_pre_info_gstride = addrspace(1) constant [6 x i32] [i32 827346247, i32 2, i32 12785,
; OFF-DAG: @__gmem_pre_info_dot_rows = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 497,
; OFF-DAG: @__gmem_pre_info_gstride = addrspace(1) constant [6 x i32] [i32 827346247, i32 2, i32 8689,
; OFF-NOT: gmem.seg.scale
; OFF-NOT: gmem.seg.k
; OFF-NOT: gmem.pace.scaled

; The main clone: s from the raw grid_z, once, in the entry block; each
; segment start shifts the static K (22 here) by it.
; CHECK-LABEL: define void @__gmem_pre_dot_rows(
; CHECK:       gmem.entry:
; CHECK:         %[[HI:.*]] = lshr i32 %gmem.grid.z, 24
; CHECK-NEXT:    %gmem.seg.scale = and i32 %[[HI]], 3
; CHECK:         %gmem.grid.z.lo = and i32 %gmem.grid.z, 65535
; CHECK:       gmem.ckpt.seg:
; CHECK:         %gmem.seg.k = shl i32 22, %gmem.seg.scale
; CHECK:         %[[SPAN:.*]] = shl i32 22, %gmem.seg.scale
; CHECK-NEXT:    %[[HALF:.*]] = lshr i32 %[[SPAN]], 1
; CHECK-NEXT:    %[[FAR:.*]] = add i32 %[[SPAN]], %[[HALF]]
; CHECK-NEXT:    %gmem.ckpt.far = icmp ugt i32 %{{.*}}, %[[FAR]]

; The light twin has no loop checks, hence no scale, but masks grid_z; the
; batched interval is bits 16..23.
; CHECK-LABEL: define void @__gmem_prl_dot_rows(
; CHECK-NOT:     gmem.seg.scale
; CHECK:         %gmem.grid.z.lo = and i32 %gmem.grid.z, 65535
; CHECK-NEXT:    %[[I:.*]] = lshr i32 %gmem.grid.z, 16
; CHECK-NEXT:    %[[I8:.*]] = and i32 %[[I]], 255
; CHECK-NEXT:    %gmem.batch = call i32 @llvm.umax.i32(i32 %[[I8]], i32 1)
; CHECK-LABEL: define void @__gmem_pra_dot_rows(
; CHECK:         %gmem.seg.k = shl i32 22, %gmem.seg.scale
; CHECK-LABEL: define void @__gmem_prf_dot_rows(
; CHECK:         %gmem.seg.k = shl i32 22, %gmem.seg.scale

; Paced: the shift update adds s (a target 2^s times longer).
; CHECK-LABEL: define void @__gmem_pre_gstride(
; CHECK:         %gmem.seg.scale = and i32 %{{.*}}, 3
; CHECK:         %gmem.pace.elapsed = sub i32
; CHECK:         %gmem.pace.scaled = add i32 %{{.*}}, %gmem.seg.scale
; CHECK-NEXT:    call i32 @llvm.smax.i32(i32 %gmem.pace.scaled, i32 0)

; PTX: .entry __gmem_pre_dot_rows(
; PTX: bfe.u32 {{.*}}, 24, 2;
; PTX: .entry __gmem_pre_gstride(

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @dot_rows(ptr nocapture noundef readonly %0, ptr nocapture noundef readonly %1, ptr nocapture noundef writeonly %2, i32 noundef %3) {
  %5 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %6 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %7 = mul i32 %5, %6
  %8 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %9 = add i32 %7, %8
  %10 = icmp sgt i32 %3, 0
  %11 = sext i32 %9 to i64
  br i1 %10, label %12, label %16
12:                                               ; preds = %4
  %13 = zext nneg i32 %3 to i64
  %14 = mul nsw i64 %13, %11
  %15 = getelementptr float, ptr %0, i64 %14
  br label %19
16:                                               ; preds = %19, %4
  %17 = phi float [ 0.000000e+00, %4 ], [ %28, %19 ]
  %18 = getelementptr inbounds float, ptr %2, i64 %11
  store float %17, ptr %18, align 4
  ret void
19:                                               ; preds = %12, %19
  %20 = phi i32 [ 0, %12 ], [ %29, %19 ]
  %21 = phi float [ 0.000000e+00, %12 ], [ %28, %19 ]
  %22 = zext nneg i32 %20 to i64
  %23 = getelementptr float, ptr %15, i64 %22
  %24 = load float, ptr %23, align 4
  %25 = getelementptr inbounds float, ptr %1, i64 %22
  %26 = load float, ptr %25, align 4
  %27 = fmul contract float %24, %26
  %28 = fadd contract float %21, %27
  %29 = add nuw nsw i32 %20, 1
  %30 = icmp eq i32 %29, %3
  br i1 %30, label %16, label %19
}
define void @gstride(ptr nocapture noundef %0, i32 noundef %1) {
  %3 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %4 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %5 = mul i32 %3, %4
  %6 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %7 = add i32 %5, %6
  %8 = icmp slt i32 %7, %1
  br i1 %8, label %9, label %12
9:                                                ; preds = %2
  %10 = tail call noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %11 = mul i32 %10, %4
  br label %13
12:                                               ; preds = %13, %2
  ret void
13:                                               ; preds = %9, %13
  %14 = phi i32 [ %7, %9 ], [ %20, %13 ]
  %15 = sext i32 %14 to i64
  %16 = getelementptr inbounds float, ptr %0, i64 %15
  %17 = load float, ptr %16, align 4
  %18 = fmul contract float %17, 2.000000e+00
  %19 = fadd contract float %18, 1.000000e+00
  store float %19, ptr %16, align 4
  %20 = add i32 %14, %11
  %21 = icmp slt i32 %20, %1
  br i1 %21, label %13, label %12
}
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @dot_rows, !"kernel", i32 1}
!1 = !{ptr @gstride, !"kernel", i32 1}
