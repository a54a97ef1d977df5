; Unoptimised (-O0, optnone) device IR: arguments spilled to allocas and
; reloaded. gmem-analyze strips optnone and runs its O2 pipeline first, so
; the result is the same as for optimised code. (The opt plugin analyses the
; IR as given: the pointers are then loaded from the stack, i.e. "pointer
; loaded from memory", which is sound but useless; run it after -O2.)
; RUN: %gmem-analyze %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%gmem_plugin -passes=gmem-print -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=RAW

; CHECK:      kernel vscale(int, float const*, float*)  [nvptx]
; CHECK:      class:  conditional -- reads 'x' and writes 'y'
; CHECK:      #1 x : ptr  R
; CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
; CHECK-NEXT: #2 y : ptr  W
; CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)

; RAW:      kernel vscale(int, float const*, float*)  [nvptx]
; RAW:      class:  unknown
; RAW:      unknown memory read:  pointer loaded from memory
; RAW:      unknown memory write: pointer loaded from memory

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define dso_local void @_Z6vscaleiPKfPf(i32 noundef %n, ptr noundef %x, ptr noundef %y) #0 {
entry:
  %n.addr = alloca i32, align 4
  %x.addr = alloca ptr, align 8
  %y.addr = alloca ptr, align 8
  %i = alloca i32, align 4
  store i32 %n, ptr %n.addr, align 4
  store ptr %x, ptr %x.addr, align 8
  store ptr %y, ptr %y.addr, align 8
  %0 = call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %mul = mul i32 %0, %1
  %2 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %add = add i32 %mul, %2
  store i32 %add, ptr %i, align 4
  %3 = load i32, ptr %i, align 4
  %4 = load i32, ptr %n.addr, align 4
  %cmp = icmp slt i32 %3, %4
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  %5 = load ptr, ptr %x.addr, align 8
  %6 = load i32, ptr %i, align 4
  %idxprom = sext i32 %6 to i64
  %arrayidx = getelementptr inbounds float, ptr %5, i64 %idxprom
  %7 = load float, ptr %arrayidx, align 4
  %mul3 = fmul contract float 2.000000e+00, %7
  %8 = load ptr, ptr %y.addr, align 8
  %9 = load i32, ptr %i, align 4
  %idxprom4 = sext i32 %9 to i64
  %arrayidx5 = getelementptr inbounds float, ptr %8, i64 %idxprom4
  store float %mul3, ptr %arrayidx5, align 4
  br label %if.end

if.end:                                           ; preds = %if.then, %entry
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone }

!nvvm.annotations = !{!0}
!0 = !{ptr @_Z6vscaleiPKfPf, !"kernel", i32 1}
