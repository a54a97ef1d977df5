; cp.async copies global memory to shared memory: for the global state a
; read of cp-size bytes at its source (AsmMemoryAccesses.cpp), in the inline
; PTX of cuda_pipeline.h and CUTLASS and as NVVM intrinsics. Anything else
; in the asm, or a source the analysis cannot trace to a pointer, keeps the
; conservative answer.
; RUN: %gmem-analyze %s | FileCheck %s

; cp-size from an immediate operand ($2), as cuda_pipeline.h writes it.
; CHECK:      kernel pipeline_asm  [nvptx]
; CHECK:        class:  conditional
; CHECK:        #0 in : ptr  R
; CHECK-NEXT:       read:  [4*n, 4*n + 4*blockDim.x)
; CHECK-NOT:    unknown memory

; libcu++'s cuda::memcpy_async (cuda::pipeline) does the arithmetic on the
; generic pointer and hands cp.async its global address (`cvta.to.global`,
; an addrspacecast): the cast keeps the address, so the offset is the
; generic pointer's. Before, the read was the whole allocation.
; CHECK:      kernel memcpy_async_generic  [nvptx]
; CHECK:        class:  conditional
; CHECK:        #0 in : ptr  R
; CHECK-NEXT:       read:  [1024, 1024*gridDim.x + 4*blockDim.x)
; CHECK-NOT:    unknown memory

; 16 bytes from the text, through a ptrtoint'ed address, in a block with a
; guard and the commit.
; CHECK:      kernel cg16_text  [nvptx]
; CHECK:        class:  conditional
; CHECK:        #0 in : ptr  R
; CHECK-NEXT:       read:  [0, 16*blockDim.x)
; CHECK-NOT:    unknown memory

; The intrinsic form.
; CHECK:      kernel cg16_intrinsic  [nvptx]
; CHECK:        class:  conditional
; CHECK:        #0 in : ptr  R
; CHECK-NEXT:       read:  [0, 16*blockDim.x)
; CHECK-NOT:    unknown memory

; A store in the same asm is read from its text too: the copy reads and the
; store writes the same bytes of 'in'.
; CHECK:      kernel copy_and_store  [nvptx]
; CHECK:        class:  non-idempotent -- 'in' is read and written at the same offset
; CHECK:        #0 in : ptr  RW
; CHECK-NEXT:       read:  [0, 4*blockDim.x)
; CHECK-NEXT:       write: [0, 4*blockDim.x)

; The source is a register the asm computes itself: not traced.
; CHECK:      kernel asm_computed_source  [nvptx]
; CHECK:        class:  unknown

; Bulk copies are not matched.
; CHECK:      kernel bulk_copy  [nvptx]
; CHECK:        class:  unknown

target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [256 x float] undef, align 16

define ptx_kernel void @pipeline_asm(ptr %in, ptr %out, i32 %n) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = add nsw i32 %t, %n
  %ie = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %ie
  %te = zext nneg i32 %t to i64
  %dst = getelementptr inbounds [256 x float], ptr addrspace(3) @buf, i64 0, i64 %te
  %s = ptrtoint ptr addrspace(3) %dst to i32
  call void asm sideeffect "cp.async.ca.shared.global [$0], [$1], $2, $3;", "r,l,n,n,~{memory}"(i32 %s, ptr %src, i64 4, i64 4)
  call void asm sideeffect "cp.async.commit_group;", "~{memory}"()
  call void asm sideeffect "cp.async.wait_group $0;", "n,~{memory}"(i32 0)
  call void @llvm.nvvm.barrier0()
  %v = load float, ptr addrspace(3) %dst, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

define ptx_kernel void @memcpy_async_generic(ptr %in, ptr %out) {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %row = shl nuw nsw i32 %b, 8
  %i = add nuw nsw i32 %row, %t
  %i1 = add nuw nsw i32 %i, 256
  %ie = zext nneg i32 %i1 to i64
  %src = getelementptr inbounds float, ptr %in, i64 %ie
  %g = addrspacecast ptr %src to ptr addrspace(1)
  %a = ptrtoint ptr addrspace(1) %g to i64
  %te = zext nneg i32 %t to i64
  %dst = getelementptr inbounds [256 x float], ptr addrspace(3) @buf, i64 0, i64 %te
  %s = ptrtoint ptr addrspace(3) %dst to i32
  call void asm sideeffect "cp.async.ca.shared.global [$0], [$1], $2, $2;", "r,l,n,~{memory}"(i32 %s, i64 %a, i64 4)
  call void asm sideeffect "cp.async.commit_group;", ""()
  call void asm sideeffect "cp.async.wait_group $0;", "n"(i8 0)
  %v = load float, ptr addrspace(3) %dst, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

define ptx_kernel void @cg16_text(ptr %in, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %src = getelementptr inbounds <4 x float>, ptr %in, i64 %te
  %a = ptrtoint ptr %src to i64
  %dst = getelementptr inbounds [256 x float], ptr addrspace(3) @buf, i64 0, i64 %te
  %s = ptrtoint ptr addrspace(3) %dst to i32
  call void asm sideeffect "{\0A\09.reg .pred p;\0A\09setp.ne.b32 p, $2, 0;\0A\09@p cp.async.cg.shared.global.L2::128B [$0], [$1], 16;\0A\09cp.async.commit_group;\0A\09}", "r,l,r,~{memory}"(i32 %s, i64 %a, i32 1)
  call void @llvm.nvvm.cp.async.wait.all()
  %v = load float, ptr addrspace(3) %dst, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

define ptx_kernel void @cg16_intrinsic(ptr addrspace(1) %in, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %src = getelementptr inbounds <4 x float>, ptr addrspace(1) %in, i64 %te
  %dst = getelementptr inbounds [256 x float], ptr addrspace(3) @buf, i64 0, i64 %te
  call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %dst, ptr addrspace(1) %src)
  call void @llvm.nvvm.cp.async.wait.all()
  %v = load float, ptr addrspace(3) %dst, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

define ptx_kernel void @copy_and_store(ptr %in, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %src = getelementptr inbounds float, ptr %in, i64 %te
  %dst = getelementptr inbounds [256 x float], ptr addrspace(3) @buf, i64 0, i64 %te
  %s = ptrtoint ptr addrspace(3) %dst to i32
  call void asm sideeffect "cp.async.ca.shared.global [$0], [$1], 4;\0A\09st.global.f32 [$1], 0f00000000;", "r,l,~{memory}"(i32 %s, ptr %src)
  ret void
}

define ptx_kernel void @asm_computed_source(ptr %in, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %dst = getelementptr inbounds [256 x float], ptr addrspace(3) @buf, i64 0, i64 %te
  %s = ptrtoint ptr addrspace(3) %dst to i32
  call void asm sideeffect "{\0A\09.reg .u64 g;\0A\09cvta.to.global.u64 g, $1;\0A\09cp.async.ca.shared.global [$0], [g], 4;\0A\09}", "r,l,~{memory}"(i32 %s, ptr %in)
  ret void
}

define ptx_kernel void @bulk_copy(ptr %in, ptr %out) {
  %dst = ptrtoint ptr addrspace(3) @buf to i32
  call void asm sideeffect "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], 1024, [$0];", "r,l,~{memory}"(i32 %dst, ptr %in)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.wait.all()
