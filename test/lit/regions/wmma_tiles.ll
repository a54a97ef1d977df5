; Tensor-core tiles (nvcuda::wmma's load_matrix_sync / store_matrix_sync)
; are read from the intrinsic's name (MatrixFragmentAccesses.cpp): a warp
; touches Lines lines of LineElems elements, `ld` elements apart. Before,
; every pointer they took was its whole allocation.
; RUN: %gmem-analyze %s | FileCheck %s

; A tile read with a stride of unknown sign: read signed, the tile may start
; before the pointer; read unsigned, a negative stride reaches past any
; bound, so the launch checks ld >= 0 and a launch that fails gets the whole
; allocation. The accumulator read and written in place is a
; read-modify-write.
; RUN: %gmem-analyze %s --json | FileCheck %s --check-prefix=JSON
; CHECK:      kernel tile_accumulate  [nvptx]
; CHECK:        class:  non-idempotent -- 'C' is read and written at the same offset
; CHECK:        #0 A : ptr  R
; CHECK-NEXT:       read:  [min(30*ld, 0), 30*ld + 32)
; CHECK:        #1 C : ptr  RW
; CHECK-NEXT:       read:  [min(60*ld, 0), 60*ld + 64)
; CHECK-NEXT:       write: [min(60*ld, 0), 60*ld + 64)
; CHECK-NOT:    unknown memory
; JSON: "name": "A"
; JSON: "checks": [{"value": "ld", "min": 0, "max": 9223372036854775807}]

; Under `ld > 0` the tiles start at their pointers. m32n8k16, column-major:
; b is 16 x 8 halves (8 columns of 16), c and d are 32 x 8 floats (8
; columns of 32): (7 * ld + 16) * 2 and (7 * ld + 32) * 4 bytes.
; CHECK:      kernel col_tiles  [nvptx]
; CHECK:        #0 B : ptr  R
; CHECK-NEXT:       read:  [0, 14*ld + 32)
; CHECK:        #1 D : ptr  RW
; CHECK-NEXT:       read:  [0, 28*ld + 128)
; CHECK-NEXT:       write: [0, 28*ld + 128)

; Row-major tiles per warp: warp w of the grid reads rows 16w.. of A (K
; columns, ld = K) and writes 16 x 16 floats of C at row 16w (ld = 16).
; CHECK:      kernel warp_rows  [nvptx]
; CHECK:        class:  conditional -- reads 'A' and writes 'C'
; CHECK:        #0 A : ptr  R
; CHECK-NEXT:       read:  [0, 30*K + 32*((blockDim.x*gridDim.x - 1) /u 32)*K + 32)
; CHECK:        #1 C : ptr  W
; CHECK-NEXT:       write: [0, 1024*((blockDim.x*gridDim.x - 1) /u 32) + 1024)

; Sub-byte elements (s4) pack two per byte with their own stride rules:
; not matched, the call keeps its whole allocation.
; CHECK:      kernel subbyte_tile  [nvptx]
; CHECK:        #0 A : ptr  R
; CHECK-NEXT:       read:  whole allocation (passed to call of llvm.nvvm.wmma.m8n8k32.load.a.row.stride.s4.p0)

; A tile in shared memory is no global access.
; CHECK:      kernel shared_tile  [nvptx]
; CHECK:        class:  idempotent
; CHECK-NOT:    whole allocation

target triple = "nvptx64-nvidia-cuda"

%f16x8 = type { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> }
%f32x8 = type { float, float, float, float, float, float, float, float }

define ptx_kernel void @tile_accumulate(ptr %A, ptr %C, i32 %ld) {
  %a = call %f16x8 @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr %A, i32 %ld)
  %c = call %f32x8 @llvm.nvvm.wmma.m16n16k16.load.c.row.stride.f32.p0(ptr %C, i32 %ld)
  %c0 = extractvalue %f32x8 %c, 0
  call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr %C, float %c0, float %c0, float %c0, float %c0, float %c0, float %c0, float %c0, float %c0, i32 %ld)
  ret void
}

define ptx_kernel void @col_tiles(ptr %B, ptr %D, i32 %ld) {
entry:
  %pos = icmp sgt i32 %ld, 0
  br i1 %pos, label %body, label %exit
body:
  %b = call %f16x8 @llvm.nvvm.wmma.m32n8k16.load.b.col.stride.f16.p0(ptr %B, i32 %ld)
  %c = call %f32x8 @llvm.nvvm.wmma.m32n8k16.load.c.col.stride.f32.p0(ptr %D, i32 %ld)
  %c0 = extractvalue %f32x8 %c, 0
  call void @llvm.nvvm.wmma.m32n8k16.store.d.col.stride.f32.p0(ptr %D, float %c0, float %c0, float %c0, float %c0, float %c0, float %c0, float %c0, float %c0, i32 %ld)
  br label %exit
exit:
  ret void
}

define ptx_kernel void @warp_rows(ptr %A, ptr %C, i32 %K) {
entry:
  %pos = icmp sgt i32 %K, 0
  br i1 %pos, label %body, label %exit
body:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul nuw nsw i32 %bid, %bdim
  %gtid = add nuw nsw i32 %base, %tid
  %warp = lshr i32 %gtid, 5
  %row = shl nuw nsw i32 %warp, 4
  %aoff = mul nuw nsw i32 %row, %K
  %aoff64 = zext i32 %aoff to i64
  %pa = getelementptr inbounds half, ptr %A, i64 %aoff64
  %a = call %f16x8 @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr %pa, i32 %K)
  %coff = shl nuw nsw i32 %row, 4
  %coff64 = zext i32 %coff to i64
  %pc = getelementptr inbounds float, ptr %C, i64 %coff64
  call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr %pc, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, i32 16)
  br label %exit
exit:
  ret void
}

define ptx_kernel void @subbyte_tile(ptr %A, ptr %out, i32 %ld) {
  %a = call i32 @llvm.nvvm.wmma.m8n8k32.load.a.row.stride.s4.p0(ptr %A, i32 %ld)
  store i32 %a, ptr %out, align 4
  ret void
}

@tile = internal addrspace(3) global [256 x half] undef, align 32

define ptx_kernel void @shared_tile(i32 %ld) {
  %a = call %f16x8 @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p3(ptr addrspace(3) @tile, i32 %ld)
  ret void
}

declare %f16x8 @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr, i32)
declare %f16x8 @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p3(ptr addrspace(3), i32)
declare %f32x8 @llvm.nvvm.wmma.m16n16k16.load.c.row.stride.f32.p0(ptr, i32)
declare void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr, float, float, float, float, float, float, float, float, i32)
declare %f16x8 @llvm.nvvm.wmma.m32n8k16.load.b.col.stride.f16.p0(ptr, i32)
declare %f32x8 @llvm.nvvm.wmma.m32n8k16.load.c.col.stride.f32.p0(ptr, i32)
declare void @llvm.nvvm.wmma.m32n8k16.store.d.col.stride.f32.p0(ptr, float, float, float, float, float, float, float, float, i32)
declare i32 @llvm.nvvm.wmma.m8n8k32.load.a.row.stride.s4.p0(ptr, i32)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
