; A gather through an index array (`x[col[k]]`) waits for two round trips
; per iteration that nothing else in the iteration hides; the instruction
; weights alone spaced spmv_ell's checks 61 us apart on the H200. A global
; load whose address comes from another global load of the same iteration
; costs GMEM_CHECKPOINT_CHAIN units (default half the budget) on top: such
; a loop checks every one or two iterations. A load feeding the next
; iteration through a phi (pointer chasing across iterations) or one whose
; address is loaded before the loop adds nothing.
; RUN: env GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_TAIL=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_TAIL=0 GMEM_CHECKPOINT_CHAIN=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=OFF

; Word 4 is the interval K (iterations between two checks of the site).
; One chain (256 units) and ~20 of instructions: K = 2.
; CHECK-DAG: @__gmem_pre_info_gather = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 {{[0-9]+}}, i32 1, i32 2]
; CHECK-DAG: @__gmem_pre_info_stream = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 {{[0-9]+}}, i32 1, i32 [[K:[0-9][0-9]+]]]
; CHECK-DAG: @__gmem_pre_info_base_outside = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 {{[0-9]+}}, i32 1, i32 [[K]]]
; OFF-DAG: @__gmem_pre_info_gather = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 {{[0-9]+}}, i32 1, i32 {{[0-9][0-9]+}}]

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; sum += x[col[k]] for k < n
define void @gather(ptr addrspace(1) %col, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %k64 = zext i32 %k to i64
  %pc = getelementptr inbounds i32, ptr addrspace(1) %col, i64 %k64
  %c = load i32, ptr addrspace(1) %pc, align 4
  %c64 = sext i32 %c to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %c64
  %v = load float, ptr addrspace(1) %px, align 4
  %s.next = fadd float %s, %v
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %exit

exit:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  store float %r, ptr addrspace(1) %y, align 4
  ret void
}

; sum += x[k]: two plain loads' worth of weight per iteration.
define void @stream(ptr addrspace(1) %col, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %k64 = zext i32 %k to i64
  %pc = getelementptr inbounds i32, ptr addrspace(1) %col, i64 %k64
  %c = load i32, ptr addrspace(1) %pc, align 4
  %cf = sitofp i32 %c to float
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %k64
  %v = load float, ptr addrspace(1) %px, align 4
  %w = fadd float %v, %cf
  %s.next = fadd float %s, %w
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %exit

exit:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  store float %r, ptr addrspace(1) %y, align 4
  ret void
}

; The row's base is loaded once, before the loop (embedding lookups).
define void @base_outside(ptr addrspace(1) %col, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
entry:
  %b = load i32, ptr addrspace(1) %col, align 4
  %b64 = sext i32 %b to i64
  %row = getelementptr inbounds float, ptr addrspace(1) %x, i64 %b64
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %k64 = zext i32 %k to i64
  %pc = getelementptr inbounds i32, ptr addrspace(1) %col, i64 %k64
  %c = load i32, ptr addrspace(1) %pc, align 4
  %cf = sitofp i32 %c to float
  %px = getelementptr inbounds float, ptr addrspace(1) %row, i64 %k64
  %v = load float, ptr addrspace(1) %px, align 4
  %w = fadd float %v, %cf
  %s.next = fadd float %s, %w
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %exit

exit:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  store float %r, ptr addrspace(1) %y, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @gather, !"kernel", i32 1}
!1 = !{ptr @stream, !"kernel", i32 1}
!2 = !{ptr @base_outside, !"kernel", i32 1}
