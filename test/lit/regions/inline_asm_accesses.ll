; Loads, stores and atomics in inline PTX are read from their text
; (AsmMemoryAccesses.cpp): an address `[$N]` or `[$N+imm]` with $N a pointer
; operand, a width from the type and vector suffix. This is how CUB reaches
; memory (LOAD_LDG, LOAD_CG, STORE_CG, the look-back status words), and
; PyTorch's and CUTLASS's cache-hinted vector loads. Where the text does not
; say exactly what is touched, the asm keeps the conservative answer.
; RUN: %gmem-analyze %s | FileCheck %s

; CUB's LOAD_LDG of a float and of a 16-byte vector (two u64 outputs).
; CHECK:      kernel ldg_loads  [nvptx]
; CHECK:        class:  conditional -- reads 'in' and writes 'out'
; CHECK:        #0 in : ptr  R
; CHECK-NEXT:       read:  [0, 4*blockDim.x) U [0, 16*blockDim.x)
; CHECK-NOT:    unknown memory

; STORE_CG of a v4.f32, cache qualifiers with '::', a guard `@p`, and an
; immediate offset: [$0+16] stores the second half of each thread's 32 bytes.
; CHECK:      kernel hinted_stores  [nvptx]
; CHECK:        class:  idempotent
; CHECK:        #0 out : ptr  W
; CHECK-NEXT:       write: [0, 32*blockDim.x)
; CHECK-NOT:    unknown memory

; Atomics: `atom` returns the old value, `red` does not; both read and
; write, atomically.
; CHECK:      kernel asm_atomics  [nvptx]
; CHECK:        class:  non-idempotent -- atomic read-modify-write of 'hist'
; CHECK:        #0 hist : ptr  RWA
; CHECK-NEXT:       read:  [0, 68)
; CHECK-NEXT:       write: [0, 68)
; CHECK-NOT:    unknown memory

; Byte and half-word widths; a b128 load (their union is its 16 bytes).
; CHECK:      kernel narrow_and_wide  [nvptx]
; CHECK:        #0 in : ptr  R
; CHECK-NEXT:       read:  [0, 16)
; CHECK-NOT:    unknown memory

; An L2 prefetch (CUB's DeviceTransform, behind thrust::transform) moves no
; value: only the load counts.
; CHECK:      kernel prefetch_then_load  [nvptx]
; CHECK:        class:  conditional -- reads 'in' and writes 'out'
; CHECK:        #0 in : ptr  R
; CHECK-NEXT:       read:  [0, 4)
; CHECK-NOT:    unknown memory

; A negative offset is not read exactly: the address still derives from
; the pointer operand, so the whole allocation of 'in' (no unknown memory).
; CHECK:      kernel negative_offset  [nvptx]
; CHECK:        class:  conditional
; CHECK:        read:  whole allocation (passed to inline asm)

; The address is an integer kernel parameter, not a pointer: anything.
; CHECK:      kernel integer_address  [nvptx]
; CHECK:        class:  unknown
; CHECK:        unknown memory read:  inline asm may touch any memory

; A `call` in the text may do anything, whatever else it holds.
; CHECK:      kernel asm_call  [nvptx]
; CHECK:        class:  unknown
; CHECK:        write: whole allocation (passed to inline asm)

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @ldg_loads(ptr %in, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %p = getelementptr inbounds float, ptr %in, i64 %te
  %a = call float asm sideeffect "ld.global.nc.f32 $0, [$1];", "=f,l"(ptr %p)
  %q = getelementptr inbounds <4 x i32>, ptr %in, i64 %te
  %v = call { i64, i64 } asm sideeffect "ld.global.nc.v2.u64 {$0, $1}, [$2];", "=l,=l,l"(ptr %q)
  %v0 = extractvalue { i64, i64 } %v, 0
  %f = uitofp i64 %v0 to float
  %s = fadd float %a, %f
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %s, ptr %o, align 4
  ret void
}

define ptx_kernel void @hinted_stores(ptr %out, float %x) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext nneg i32 %t to i64
  %p = getelementptr inbounds <8 x float>, ptr %out, i64 %te
  call void asm sideeffect "st.global.cg.v4.f32 [$0], {$1, $1, $1, $1};", "l,f,~{memory}"(ptr %p, float %x)
  call void asm sideeffect "{\0A\09.reg .pred p;\0A\09setp.ne.u32 p, $2, 0;\0A\09@p st.global.L1::no_allocate.v4.f32 [$0+16], {$1, $1, $1, $1};\0A\09}", "l,f,r,~{memory}"(ptr %p, float %x, i32 %t)
  ret void
}

define ptx_kernel void @asm_atomics(ptr %hist, i32 %bin) {
  %old = call i64 asm sideeffect "atom.global.add.u64 $0, [$1], 1;", "=l,l,~{memory}"(ptr %hist)
  %p = getelementptr inbounds i8, ptr %hist, i64 64
  call void asm sideeffect "red.relaxed.gpu.global.add.u32 [$0], $1;", "l,r,~{memory}"(ptr %p, i32 %bin)
  ret void
}

define ptx_kernel void @narrow_and_wide(ptr %in, ptr %out) {
  %b = call i16 asm sideeffect "ld.global.u8 $0, [$1];", "=h,l"(ptr %in)
  %h = call i16 asm sideeffect "ld.global.b16 $0, [$1];", "=h,l"(ptr %in)
  %w = call i128 asm sideeffect "ld.global.b128 $0, [$1];", "=q,l"(ptr %in)
  %s = add i16 %b, %h
  %w16 = trunc i128 %w to i16
  %r = add i16 %s, %w16
  store i16 %r, ptr %out, align 2
  ret void
}

define ptx_kernel void @prefetch_then_load(ptr %in, ptr %out) {
  %far = getelementptr inbounds i8, ptr %in, i64 4096
  call void asm sideeffect "prefetch.global.L2 [$0];", "l,~{memory}"(ptr %far)
  %a = call float asm sideeffect "ld.global.f32 $0, [$1];", "=f,l"(ptr %in)
  store float %a, ptr %out, align 4
  ret void
}

define ptx_kernel void @negative_offset(ptr %in, ptr %out) {
  %p = getelementptr inbounds float, ptr %in, i64 4
  %a = call float asm sideeffect "ld.global.f32 $0, [$1+-4];", "=f,l"(ptr %p)
  store float %a, ptr %out, align 4
  ret void
}

define ptx_kernel void @integer_address(i64 %addr, ptr %out) {
  %a = call float asm sideeffect "ld.global.f32 $0, [$1];", "=f,l"(i64 %addr)
  store float %a, ptr %out, align 4
  ret void
}

define ptx_kernel void @asm_call(ptr %out) {
  call void asm sideeffect "{\0A\09.param .b64 p;\0A\09st.param.b64 [p], $0;\0A\09call helper, (p);\0A\09}", "l,~{memory}"(ptr %out)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
