; Inline asm and check intervals / the barrier-free form (flags 128, 256):
; asm that only computes on registers (an allowlist of PTX arithmetic; its
; own operands, immediates and registers it declares) cannot share or
; synchronise anything, so it does not block them; anything else does.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=PTX

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Flags 400 = persistent 16 + free 128 + batched 256; 16: persistent only.
; CUDA's tanhf: one register instruction: 400
; CHECK-DAG: @__gmem_pre_info_rcp = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 432,
; registers it declares itself, a guard, immediates: 400
; CHECK-DAG: @__gmem_pre_info_scoped = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 432,
; a declared register range: 400
; CHECK-DAG: @__gmem_pre_info_range = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 432,
; a special register: 16
; CHECK-DAG: @__gmem_pre_info_lane = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 48,
; volatile (sideeffect): 16
; CHECK-DAG: @__gmem_pre_info_volatile = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 48,
; a load: 16
; CHECK-DAG: @__gmem_pre_info_load = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 48,
; a symbol: 16
; CHECK-DAG: @__gmem_pre_info_symbol = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 48,
; a memory clobber: 16
; CHECK-DAG: @__gmem_pre_info_clobber = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 48,
; PTX-DAG: .entry __gmem_prf_rcp(
; PTX-DAG: .entry __gmem_prf_scoped(
; PTX-DAG: .entry __gmem_prf_range(

define void @rcp(ptr %in, ptr %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %i = add i32 %base, %tid
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %r = call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %v)
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %r, ptr %dst, align 4
  br label %done
done:
  ret void
}

define void @scoped(ptr %in, ptr %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %i = add i32 %base, %tid
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %r = call float asm "{\0A\09.reg .pred p;\0A\09setp.gt.f32 p, $1, 0f00000000;\0A\09@!p mov.f32 $0, 0f00000000;\0A\09@p mov.f32 $0, $1;\0A}", "=f,f"(float %v)
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %r, ptr %dst, align 4
  br label %done
done:
  ret void
}

define void @range(ptr %in, ptr %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %i = add i32 %base, %tid
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %r = call float asm "{ .reg .f32 %t<2>; mul.f32 %t0, $1, $1; add.f32 %t1, %t0, 0f3F800000; mov.b32 $0, %t1; }", "=f,f"(float %v)
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %r, ptr %dst, align 4
  br label %done
done:
  ret void
}

define void @lane(ptr %in, ptr %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %i = add i32 %base, %tid
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %r = call float asm "mov.u32 $0, %laneid; cvt.rn.f32.u32 $0, $0;", "=f,f"(float %v)
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %r, ptr %dst, align 4
  br label %done
done:
  ret void
}

define void @volatile(ptr %in, ptr %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %i = add i32 %base, %tid
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %r = call float asm sideeffect "add.f32 $0, $1, $1;", "=f,f"(float %v)
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %r, ptr %dst, align 4
  br label %done
done:
  ret void
}

define void @load(ptr %in, ptr %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %i = add i32 %base, %tid
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %addr = ptrtoint ptr %src to i64
  %r = call float asm "ld.global.f32 $0, [$1];", "=f,l"(i64 %addr)
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %r, ptr %dst, align 4
  br label %done
done:
  ret void
}

define void @symbol(ptr %in, ptr %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %i = add i32 %base, %tid
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %r = call float asm "mov.u64 $0, smem_var; cvt.rn.f32.u64 $0, $0;", "=f,f"(float %v)
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %r, ptr %dst, align 4
  br label %done
done:
  ret void
}

define void @clobber(ptr %in, ptr %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %ntid
  %i = add i32 %base, %tid
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %r = call float asm "add.f32 $0, $1, $1;", "=f,f,~{memory}"(float %v)
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %r, ptr %dst, align 4
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7}
!0 = !{ptr @rcp, !"kernel", i32 1}
!1 = !{ptr @scoped, !"kernel", i32 1}
!2 = !{ptr @range, !"kernel", i32 1}
!3 = !{ptr @lane, !"kernel", i32 1}
!4 = !{ptr @volatile, !"kernel", i32 1}
!5 = !{ptr @load, !"kernel", i32 1}
!6 = !{ptr @symbol, !"kernel", i32 1}
!7 = !{ptr @clobber, !"kernel", i32 1}
