; Persistent clones of kernels whose warp collectives sit behind a branch
; that whole warps take alike (warp-per-row kernels: `if (row >= rows)
; return;` before the shuffles; block reductions: `if (threadIdx.x < 32)`).
; A returned thread of a persistent clone waits at the end of the virtual
; CTA instead of exiting, so a collective after a return is safe only where
; no lane of its warp returned alone. With blockDim.x a multiple of 32, the
; lanes of a warp share threadIdx.y/z and threadIdx.x / 32: such branches
; are warp-uniform, the clone is persistent and its info carries
; WarpAlignedBlock (bit 11, 2048) for the runtime to check at launch.
; Branches that lanes may take differently (threadIdx.x % 32, x <= 32) and
; CTA barriers behind any thread-dependent branch still refuse the form.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -pass-remarks-analysis=gmem-checkpoint -S %s -o %t.ll 2> %t.remarks
; RUN: FileCheck %s < %t.ll
; RUN: grep -c "persistent clone: loops over virtual CTAs" %t.remarks | FileCheck %s --check-prefix=NPERS
; RUN: grep -c "lanes of one warp may take differently" %t.remarks | FileCheck %s --check-prefix=NLANES
; RUN: grep -c "depends on a thread-dependent branch or an early return" %t.remarks | FileCheck %s --check-prefix=NBAR
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=PTX
; GMEM_CHECKPOINT_WARP_ALIGNED=0: the version-1 clone, as before.
; RUN: env GMEM_CHECKPOINT_WARP_ALIGNED=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sums = internal addrspace(3) global [32 x float] undef, align 4

; Flags: 2048 WarpAlignedBlock on top of what any persistent clone has
; (16 persistent, 32 light twin, 256 batched; block_reduce: 4 barriers, 64
; alternate form, 512 / 1024 balanced tails of 25% in bits 16..23).
; CHECK-DAG: @__gmem_pre_info_gemv_rows = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 2352,
; CHECK-DAG: @__gmem_pre_info_rows_y = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 2352,
; CHECK-DAG: @__gmem_pre_info_block_reduce = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1642100,
; CHECK-DAG: @__gmem_pre_info_warp_gt = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 2352,
; CHECK-DAG: @__gmem_pre_info_masked_eq = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 2352,
; CHECK-DAG: @__gmem_pre_info_offset_warp = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0,
; A row counter that whole warps step alike (a loop header's phi, decided
; by assuming it uniform and checking its steps and the loop's exits); its
; loop of shuffles gets a warp-vote check (nvptx_warp_vote.ll): 1 site, 64
; alternate form, 1 loop checkpoints.
; CHECK-DAG: @__gmem_pre_info_rows_gridstride = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 6513, i32 1,
; CHECK-DAG: @__gmem_pre_info_rows_lane_break = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0,
; CHECK-DAG: @__gmem_pre_info_rows_lane_step = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0,
; The warp index shifted in part and masked: LLVM writes a wmma kernel's
; `gid / 32 * 16` as `(gid >> 1) & -16`, whose lane bits all go; `& -8`
; keeps one of them.
; CHECK-DAG: @__gmem_pre_info_tile_row_masked = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 2352,
; CHECK-DAG: @__gmem_pre_info_lane_bit_kept = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0,
; A shift right past every bit lanes differ in, after a shift left:
; (gid << 1) >> 6 is gid / 32.
; CHECK-DAG: @__gmem_pre_info_shift_out_row = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 2352,
; A persistent kernel without such a branch has no bit 11.
; CHECK-DAG: @__gmem_pre_info_plain_shfl = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 304,
; Version-1 clones (4: barriers; no 16):
; CHECK-DAG: @__gmem_pre_info_lane_return = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0,
; CHECK-DAG: @__gmem_pre_info_le_32 = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4,
; CHECK-DAG: @__gmem_pre_info_barrier_in_warp0 = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4,
; CHECK-DAG: @__gmem_pre_info_after_lane_loop = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1,
; CHECK-DAG: @__gmem_pre_info_helper_under_warp0 = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4,
; A device function with a barrier and a shuffle is a barrier to its
; callers (4), not just a collective: 304 + 4.
; CHECK-DAG: @__gmem_pre_info_calls_mixed = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 308,

; The persistent loop is there: the body runs per virtual CTA.
; CHECK-LABEL: define void @__gmem_pre_gemv_rows(
; CHECK: gmem.p.header:

; Remarks, counted: 10 persistent clones, 7 refused for a branch lanes of
; one warp may take differently, 2 for a barrier under a thread-dependent one.
; NPERS: {{^}}10{{$}}
; NLANES: {{^}}7{{$}}
; NBAR: {{^}}2{{$}}

; PTX-LABEL: .entry __gmem_pre_gemv_rows(
; PTX: shfl.sync.down.b32

; OFF-DAG: @__gmem_pre_info_gemv_rows = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0,
; OFF-DAG: @__gmem_pre_info_block_reduce = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4,

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare void @llvm.nvvm.barrier0()

; One warp per row of A: warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32.
define void @gemv_rows(ptr %a, ptr %y, i32 %m) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %g = add i32 %base, %tid
  %warp = ashr i32 %g, 5
  %out = icmp sge i32 %warp, %m
  br i1 %out, label %ret, label %work

work:
  %lane = and i32 %tid, 31
  %li = zext i32 %lane to i64
  %wi = sext i32 %warp to i64
  %row = mul i64 %wi, 32
  %i = add i64 %row, %li
  %p = getelementptr inbounds float, ptr %a, i64 %i
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 16, i32 31)
  %t = fadd float %v, %s
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %store, label %ret

store:
  %q = getelementptr inbounds float, ptr %y, i64 %wi
  store float %t, ptr %q, align 4
  br label %ret

ret:
  ret void
}

; Rows in threadIdx.y (block 32 x R), as in layer norm kernels.
define void @rows_y(ptr %a, i32 %rows) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdy = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %b = mul i32 %bid, %bdy
  %row = add i32 %b, %ty
  %out = icmp sge i32 %row, %rows
  br i1 %out, label %ret, label %work

work:
  %ri = sext i32 %row to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ri
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  br label %ret

ret:
  ret void
}

; CUB-style: partial sums in shared memory, a barrier, then warp 0 alone
; (`threadIdx.x / 32 == 0`, which LLVM turns into threadIdx.x < 32).
define void @block_reduce(ptr %in, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %in, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 16, i32 31)
  %w = lshr i32 %tid, 5
  %wi = zext i32 %w to i64
  %slot = getelementptr inbounds [32 x float], ptr addrspace(3) @sums, i64 0, i64 %wi
  store float %s, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  %warp0 = icmp ult i32 %tid, 32
  br i1 %warp0, label %final, label %ret

final:
  %lane = and i32 %tid, 31
  %l = zext i32 %lane to i64
  %q = getelementptr inbounds [32 x float], ptr addrspace(3) @sums, i64 0, i64 %l
  %x = load float, ptr addrspace(3) %q, align 4
  %r = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %x, i32 16, i32 31)
  store float %r, ptr %out, align 4
  br label %ret

ret:
  ret void
}

; threadIdx.x > 63 is threadIdx.x / 32 >= 2: whole warps.
define void @warp_gt(ptr %a) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %late = icmp ugt i32 %tid, 63
  br i1 %late, label %work, label %ret

work:
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  br label %ret

ret:
  ret void
}

; No thread-dependent branch at all.
define void @plain_shfl(ptr %a) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  ret void
}

; Lanes past n return: lanes of one warp differ.
define void @lane_return(ptr %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  %out = icmp sge i32 %lane, %n
  br i1 %out, label %ret, label %work

work:
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  br label %ret

ret:
  ret void
}

; threadIdx.x <= 32 takes lane 0 of warp 1 with warp 0 (after a barrier,
; hence flag 4).
define void @le_32(ptr %a) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @llvm.nvvm.barrier0()
  %in = icmp ule i32 %tid, 32
  br i1 %in, label %work, label %ret

work:
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  br label %ret

ret:
  ret void
}

; A CTA barrier under a warp-uniform branch still waits for every warp.
define void @barrier_in_warp0(ptr %a) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp0 = icmp ult i32 %tid, 32
  br i1 %warp0, label %work, label %ret

work:
  call void @llvm.nvvm.barrier0()
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  store float 1.0, ptr %p, align 4
  br label %ret

ret:
  ret void
}

; i leaves its lane-strided loop at different values in different lanes:
; bits 5 and up of what it ends at are not the warp's.
define void @after_lane_loop(ptr %a, i32 %n, i32 %k) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop

loop:
  %i = phi i32 [ %tid, %entry ], [ %next, %loop ]
  %next = add i32 %i, 7
  %go = icmp slt i32 %next, %n
  br i1 %go, label %loop, label %exit

exit:
  %hi = lshr i32 %next, 5
  %big = icmp ugt i32 %hi, %k
  br i1 %big, label %work, label %ret

work:
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  br label %ret

ret:
  ret void
}

; (threadIdx.x & ~31) == 64: the mask clears the lane's bits (warp 2).
define void @masked_eq(ptr %a) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %w = and i32 %tid, -32
  %is2 = icmp eq i32 %w, 64
  br i1 %is2, label %work, label %ret

work:
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  br label %ret

ret:
  ret void
}

; (threadIdx.x + 16) / 32 == 1: lanes 16..31 of warp 0 carry into warp 1's
; value, so lanes of one warp differ.
define void @offset_warp(ptr %a) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %o = add i32 %tid, 16
  %w = lshr i32 %o, 5
  %is1 = icmp eq i32 %w, 1
  br i1 %is1, label %work, label %ret

work:
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  br label %ret

ret:
  ret void
}

; Warp per row, grid-stride over the rows: the row counter starts at the
; warp's index and steps by the number of warps, so every lane of a warp
; runs the same trips and leaves at the same one.
define void @rows_gridstride(ptr %a, i32 %rows) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nb = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %base = mul i32 %bid, %bdim
  %g = add i32 %base, %tid
  %w0 = lshr i32 %g, 5
  %all = mul i32 %nb, %bdim
  %warps = lshr i32 %all, 5
  %go = icmp slt i32 %w0, %rows
  br i1 %go, label %loop, label %ret

loop:
  %row = phi i32 [ %w0, %entry ], [ %row.next, %loop ]
  %ri = sext i32 %row to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ri
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  %row.next = add i32 %row, %warps
  %more = icmp slt i32 %row.next, %rows
  br i1 %more, label %loop, label %ret

ret:
  ret void
}

; The same counter, but a lane may leave early: lanes of a warp part.
define void @rows_lane_break(ptr %a, i32 %rows) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  %w0 = lshr i32 %tid, 5
  %go = icmp slt i32 %w0, %rows
  br i1 %go, label %loop, label %ret

loop:
  %row = phi i32 [ %w0, %entry ], [ %row.next, %latch ]
  %ri = sext i32 %row to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ri
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  %stop = icmp eq i32 %lane, %row
  br i1 %stop, label %ret, label %latch

latch:
  %row.next = add i32 %row, 8
  %more = icmp slt i32 %row.next, %rows
  br i1 %more, label %loop, label %ret

ret:
  ret void
}

; A counter stepped by a lane-dependent amount.
define void @rows_lane_step(ptr %a, i32 %rows) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  %step = add i32 %lane, 1
  %w0 = lshr i32 %tid, 5
  %go = icmp slt i32 %w0, %rows
  br i1 %go, label %loop, label %ret

loop:
  %row = phi i32 [ %w0, %entry ], [ %row.next, %loop ]
  %ri = sext i32 %row to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ri
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  %row.next = add i32 %row, %step
  %more = icmp slt i32 %row.next, %rows
  br i1 %more, label %loop, label %ret

ret:
  ret void
}

; A device function that meets the whole CTA (and shuffles): a barrier.
define void @tile_row_masked(ptr %a, i32 %m) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %g = add i32 %base, %tid
  %h = lshr i32 %g, 1
  %row = and i32 %h, 2147483632
  %in = icmp slt i32 %row, %m
  br i1 %in, label %work, label %ret

work:
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  br label %ret

ret:
  ret void
}

define void @lane_bit_kept(ptr %a, i32 %m) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %g = add i32 %base, %tid
  %h = lshr i32 %g, 1
  %row = and i32 %h, -8
  %in = icmp slt i32 %row, %m
  br i1 %in, label %work, label %ret

work:
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  br label %ret

ret:
  ret void
}

define void @shift_out_row(ptr %a, i32 %m) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %g = add i32 %base, %tid
  %d = shl i32 %g, 1
  %row = lshr i32 %d, 6
  %in = icmp slt i32 %row, %m
  br i1 %in, label %work, label %ret

work:
  %ti = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ti
  %v = load float, ptr %p, align 4
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  store float %s, ptr %p, align 4
  br label %ret

ret:
  ret void
}

define internal float @mixed(float %v) noinline {
  call void @llvm.nvvm.barrier0()
  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  ret float %s
}

define void @helper_under_warp0(ptr %a) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp0 = icmp ult i32 %tid, 32
  br i1 %warp0, label %work, label %ret

work:
  %r = call float @mixed(float 1.0)
  store float %r, ptr %a, align 4
  br label %ret

ret:
  ret void
}

define void @calls_mixed(ptr %a) {
entry:
  %r = call float @mixed(float 1.0)
  store float %r, ptr %a, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7, !8, !9, !10, !11, !12, !13, !14, !15, !16, !17, !18}
!0 = !{ptr @gemv_rows, !"kernel", i32 1}
!1 = !{ptr @rows_y, !"kernel", i32 1}
!2 = !{ptr @block_reduce, !"kernel", i32 1}
!3 = !{ptr @warp_gt, !"kernel", i32 1}
!4 = !{ptr @plain_shfl, !"kernel", i32 1}
!5 = !{ptr @lane_return, !"kernel", i32 1}
!6 = !{ptr @le_32, !"kernel", i32 1}
!7 = !{ptr @barrier_in_warp0, !"kernel", i32 1}
!8 = !{ptr @after_lane_loop, !"kernel", i32 1}
!9 = !{ptr @helper_under_warp0, !"kernel", i32 1}
!10 = !{ptr @calls_mixed, !"kernel", i32 1}
!11 = !{ptr @masked_eq, !"kernel", i32 1}
!12 = !{ptr @offset_warp, !"kernel", i32 1}
!13 = !{ptr @rows_gridstride, !"kernel", i32 1}
!14 = !{ptr @rows_lane_break, !"kernel", i32 1}
!15 = !{ptr @rows_lane_step, !"kernel", i32 1}
!16 = !{ptr @tile_row_masked, !"kernel", i32 1}
!17 = !{ptr @lane_bit_kept, !"kernel", i32 1}
!18 = !{ptr @shift_out_row, !"kernel", i32 1}
