; PTX memory instructions that name a state space other than global memory
; (.shared, .local, .param, .const; ldmatrix, stmatrix, mbarrier and wgmma
; work on shared memory only) cannot touch a kernel's global buffers, even
; through a 64-bit register or with a memory clobber (scanAsmMemoryUse).
; Generic addressing may: a generic load at a pointer operand reads there
; (AsmMemoryAccesses.cpp); one at a plain 64-bit integer may read anything.
; RUN: %gmem-analyze %s | FileCheck %s

; CHECK:      kernel smem_asm  [nvptx]
; CHECK-NEXT:   symbol: smem_asm
; CHECK-NEXT:   class:  idempotent -- reads no global memory
; CHECK-NEXT:   #0 out : ptr  W
; CHECK-NEXT:       write: [0, 4*blockDim.x)
; CHECK-NOT:    unknown memory

; CHECK:      kernel generic_asm  [nvptx]
; CHECK-NEXT:   symbol: generic_asm
; CHECK-NEXT:   class:  non-idempotent -- 'out' is read and written at the same offset
; CHECK-NEXT:   #0 out : ptr  RW
; CHECK-NEXT:       read:  [0, 4*blockDim.x)
; CHECK-NOT:    unknown memory

; CHECK:      kernel global_asm  [nvptx]
; CHECK-NEXT:   symbol: global_asm
; CHECK-NEXT:   class:  unknown -- reads memory it cannot bound (inline asm may touch any memory)

target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [256 x float] undef, align 16

; st.shared / ld.shared (also through a generic 64-bit address, converted in
; the asm's own state space), ldmatrix and an mbarrier, all with "memory".
define ptx_kernel void @smem_asm(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %p = getelementptr inbounds [256 x float], ptr addrspace(3) @buf, i64 0, i64 %te
  %s = ptrtoint ptr addrspace(3) %p to i32
  call void asm sideeffect "st.shared.f32 [$0], $1;", "r,f,~{memory}"(i32 %s, float 1.0)
  %g = addrspacecast ptr addrspace(3) %p to ptr
  %gi = ptrtoint ptr %g to i64
  %v = call float asm sideeffect "ld.volatile.shared.f32 $0, [$1];", "=f,l,~{memory}"(i64 %gi)
  %m = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r,~{memory}"(i32 %s)
  call void asm sideeffect "mbarrier.init.shared::cta.b64 [$0], 32;", "r,~{memory}"(i32 %s)
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

; ld without a state space: generic, may be global.
define ptx_kernel void @generic_asm(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %o = getelementptr inbounds float, ptr %out, i64 %te
  %v = call float asm sideeffect "ld.f32 $0, [$1];", "=f,l,~{memory}"(ptr %o)
  store float %v, ptr %o, align 4
  ret void
}

; A shared load beside a global one: the global load counts.
define ptx_kernel void @global_asm(ptr %out, i64 %addr) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = call float asm sideeffect "{\0A\09.reg .f32 f;\0A\09ld.shared.f32 f, [$1];\0A\09ld.global.f32 $0, [$2];\0A\09add.f32 $0, $0, f;\0A\09}", "=f,r,l,~{memory}"(i32 %t, i64 %addr)
  %te = zext nneg i32 %t to i64
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
