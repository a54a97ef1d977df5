; `asm volatile("ld.global.f32 ...")` with a pointer operand: its text
; holds a load and no store, so the asm reads the operand's whole allocation
; and, being volatile, possibly any memory (class unknown); it writes
; nothing, so the store after it keeps its exact region.
; RUN: %gmem-analyze %s | FileCheck %s

; CHECK:      kernel asm_vol  [nvptx]
; CHECK-NEXT:   symbol: asm_vol
; CHECK-NEXT:   class:  unknown -- reads memory it cannot bound (inline asm may touch any memory)
; CHECK-NEXT:   #0 n : i32
; CHECK-NEXT:   #1 a : ptr  RW
; CHECK-NEXT:       read:  whole allocation (passed to inline asm)
; CHECK-NEXT:       write: [4*n, 4*n + 4*blockDim.x)
; CHECK-NEXT:   unknown memory read:  inline asm may touch any memory
; CHECK-NOT:    unknown memory write

target triple = "nvptx64-nvidia-cuda"

; float v; asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(a + t));
; a[t + n] = v;
define ptx_kernel void @asm_vol(i32 %n, ptr %a) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %p = getelementptr inbounds float, ptr %a, i64 %te
  %v = call float asm sideeffect "ld.global.f32 $0, [$1];", "=f,l"(ptr %p)
  %w = add nsw i32 %t, %n
  %we = sext i32 %w to i64
  %q = getelementptr inbounds float, ptr %a, i64 %we
  store float %v, ptr %q, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
