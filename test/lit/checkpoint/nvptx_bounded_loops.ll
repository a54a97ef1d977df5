; Loops whose every entry costs at most the budget need no checkpoint of their
; own: the loop over virtual CTAs (or an enclosing site, which counts them)
; checks before and after. SCEV has no bound for the doubling and halving
; tree loops of reductions and scans; the pass bounds them itself from the
; range of what they compare against (blockDim.x <= 1024: at most 10
; iterations).
; RUN: env GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_TAIL=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s

; Doubling up to blockDim.x, a barrier per iteration: 10 x ~20 units. No site.
; CHECK: @__gmem_pre_info__Z6doublePf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 52, i32 0, i32 0]
; The same loop up to a parameter: no bound, the barrier becomes the check.
; CHECK: @__gmem_pre_info__Z9double_toPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 117, i32 1,
; Halving from blockDim.x / 2 to 0: at most 10 iterations. No site.
; CHECK: @__gmem_pre_info__Z5halvePf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 52, i32 0, i32 0]
; Bounded, but 10 iterations of 8 global loads exceed the budget: a site.
; CHECK: @__gmem_pre_info__Z11halve_heavyPfPKf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 117, i32 1,
; Halving while != 1 could step over 1 forever (from an even start it reaches
; 0 and stays): no bound, a site.
; CHECK: @__gmem_pre_info__Z8halve_nePf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 117, i32 1,

; The loop keeps its plain barrier (the reductions come after it, between
; virtual CTAs).
; CHECK-LABEL: define void @__gmem_pre__Z6doublePf(
; CHECK:       loop:
; CHECK-NOT:     barrier0.or
; CHECK:         call void @llvm.nvvm.barrier0()
; CHECK-NEXT:    %o.next = shl i32 %o, 1
; CHECK-NEXT:    %c = icmp slt i32 %o.next, %nt
; CHECK-NEXT:    br i1 %c, label %loop, label %exit

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [1024 x float] undef, align 4

define void @_Z6doublePf(ptr %a) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = call range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = zext i32 %t to i64
  %p = getelementptr [1024 x float], ptr addrspace(3) @buf, i64 0, i64 %t64
  %more = icmp ugt i32 %nt, 1
  br i1 %more, label %loop, label %exit

loop:
  %o = phi i32 [ 1, %entry ], [ %o.next, %loop ]
  %v = load float, ptr addrspace(3) %p
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %o.next = shl i32 %o, 1
  %c = icmp slt i32 %o.next, %nt
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

define void @_Z9double_toPfi(ptr %a, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %p = getelementptr [1024 x float], ptr addrspace(3) @buf, i64 0, i64 %t64
  %more = icmp sgt i32 %n, 1
  br i1 %more, label %loop, label %exit

loop:
  %o = phi i32 [ 1, %entry ], [ %o.next, %loop ]
  %v = load float, ptr addrspace(3) %p
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %o.next = shl i32 %o, 1
  %c = icmp slt i32 %o.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

define void @_Z5halvePf(ptr %a) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = call range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = zext i32 %t to i64
  %p = getelementptr [1024 x float], ptr addrspace(3) @buf, i64 0, i64 %t64
  %s0 = lshr i32 %nt, 1
  %more = icmp ne i32 %s0, 0
  br i1 %more, label %loop, label %exit

loop:
  %s = phi i32 [ %s0, %entry ], [ %s.next, %loop ]
  %v = load float, ptr addrspace(3) %p
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %s.next = lshr i32 %s, 1
  %c = icmp ne i32 %s.next, 0
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

define void @_Z11halve_heavyPfPKf(ptr %a, ptr %g) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = call range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = zext i32 %t to i64
  %p = getelementptr [1024 x float], ptr addrspace(3) @buf, i64 0, i64 %t64
  %s0 = lshr i32 %nt, 1
  %more = icmp ne i32 %s0, 0
  br i1 %more, label %loop, label %exit

loop:
  %s = phi i32 [ %s0, %entry ], [ %s.next, %loop ]
  %s64 = zext i32 %s to i64
  %g0 = getelementptr float, ptr %g, i64 %s64
  %x0 = load float, ptr %g0
  %g1 = getelementptr float, ptr %g0, i64 1
  %x1 = load float, ptr %g1
  %g2 = getelementptr float, ptr %g0, i64 2
  %x2 = load float, ptr %g2
  %g3 = getelementptr float, ptr %g0, i64 3
  %x3 = load float, ptr %g3
  %g4 = getelementptr float, ptr %g0, i64 4
  %x4 = load float, ptr %g4
  %g5 = getelementptr float, ptr %g0, i64 5
  %x5 = load float, ptr %g5
  %y0 = fadd float %x0, %x1
  %y1 = fadd float %x2, %x3
  %y2 = fadd float %x4, %x5
  %y3 = fadd float %y0, %y1
  %y4 = fadd float %y3, %y2
  store float %y4, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %s.next = lshr i32 %s, 1
  %c = icmp ne i32 %s.next, 0
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

define void @_Z8halve_nePf(ptr %a) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = call range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = zext i32 %t to i64
  %p = getelementptr [1024 x float], ptr addrspace(3) @buf, i64 0, i64 %t64
  br label %loop

loop:
  %s = phi i32 [ %nt, %entry ], [ %s.next, %loop ]
  %v = load float, ptr addrspace(3) %p
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %s.next = lshr i32 %s, 1
  %c = icmp ne i32 %s.next, 1
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{ptr @_Z6doublePf, !"kernel", i32 1}
!1 = !{ptr @_Z9double_toPfi, !"kernel", i32 1}
!2 = !{ptr @_Z5halvePf, !"kernel", i32 1}
!3 = !{ptr @_Z11halve_heavyPfPKf, !"kernel", i32 1}
!4 = !{ptr @_Z8halve_nePf, !"kernel", i32 1}
