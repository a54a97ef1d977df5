; `asm volatile("ld.global.f32 ...")` with a pointer operand: `volatile`
; keeps the compiler from moving or dropping the asm, but what it does is its
; text, one 4-byte load at the operand. So the read is [4*t, 4*t + 4) like a
; plain load's, and the store after it keeps its exact region; whether they
; overlap depends on n.
; RUN: %gmem-analyze %s | FileCheck %s

; CHECK:      kernel asm_vol  [nvptx]
; CHECK-NEXT:   symbol: asm_vol
; CHECK-NEXT:   class:  unknown -- reads and writes of 'a' may overlap (not proven apart)
; CHECK-NEXT:   #0 n : i32
; CHECK-NEXT:   #1 a : ptr  RW
; CHECK-NEXT:       read:  [0, 4*blockDim.x)
; CHECK-NEXT:       write: [4*n, 4*n + 4*blockDim.x)
; CHECK-NOT:    unknown memory

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
