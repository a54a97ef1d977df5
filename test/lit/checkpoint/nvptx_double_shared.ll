; Check intervals for a kernel with shared memory of its own: the main
; clone gets a second copy of each static shared global and, at the body's
; entry (once per virtual CTA), a parity that flips and picks the copy, so a
; thread that runs ahead into the next virtual CTA writes the other copy
; (CheckpointSharedDoubling.cpp). Only where a CTA barrier runs on every
; path (a thread can come back to a copy only past a barrier of the next
; virtual CTA), the shared memory is static, and twice its size is within
; GMEM_CHECKPOINT_DOUBLE_SHARED_MAX (bytes; unset or 0, the default: off).
; The twins keep one copy and the barrier after every virtual CTA.
; RUN: env GMEM_CHECKPOINT_DOUBLE_SHARED_MAX=16384 opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_DOUBLE_SHARED_MAX=16384 opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=OFF

; One second copy, of mirror's tile; none of the dynamic, conditional-barrier
; or 16 KiB kernels' memory.
; CHECK:     @sdata.gmem.odd = internal addrspace(3) global [256 x float] undef, align 4
; CHECK-NOT: gmem.odd = internal
; Flags: mirror's include Batched (bit 8, 256); the others' do not.
; CHECK:     @__gmem_pre_info__Z6mirrorPKfPf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1640308,
; CHECK:     @__gmem_pre_info__Z9mirrordynPKfPf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1640052,
; CHECK:     @__gmem_pre_info__Z8condsyncPKfPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1640052,
; CHECK:     @__gmem_pre_info__Z7bigtilePKfPf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1640052,

; The main clone: the parity starts at 0 in every persistent CTA, flips at
; the body's entry, and every use of the tile goes through the copy it picks.
; CHECK-LABEL: define void @__gmem_pre__Z6mirrorPKfPf(
; CHECK:       entry:
; CHECK:         %[[FLIP:.*]] = xor i32 %gmem.shared.parity.0, 1
; CHECK-NEXT:    %gmem.shared.odd = icmp ne i32 %gmem.shared.parity.0, 0
; CHECK-NEXT:    %sdata.cur = select i1 %gmem.shared.odd, ptr addrspace(3) @sdata.gmem.odd, ptr addrspace(3) @sdata
; CHECK:         getelementptr [256 x float], ptr addrspace(3) %sdata.cur,
; CHECK:         call void @llvm.nvvm.barrier0()
; CHECK:         getelementptr [256 x float], ptr addrspace(3) %sdata.cur,
; CHECK:       gmem.p.header:
; CHECK:         %gmem.shared.parity.0 = phi i32 [ 0, %gmem.p.check ], [ %[[FLIP]], %gmem.p.cont ]
; CHECK-NOT:   @sdata,
; CHECK:       }
; The light twin and the alternate form use the tile as it is.
; CHECK-LABEL: define void @__gmem_prl__Z6mirrorPKfPf(
; CHECK-NOT:     gmem.odd
; CHECK:       }
; CHECK-LABEL: define void @__gmem_pra__Z6mirrorPKfPf(
; CHECK-NOT:     gmem.odd
; CHECK:       }
; CHECK-LABEL: define void @__gmem_pre__Z9mirrordynPKfPf(
; CHECK-NOT:     gmem.shared
; CHECK:       }

; OFF-NOT: gmem.odd
; OFF:     @__gmem_pre_info__Z6mirrorPKfPf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1640052,

; PTX-LABEL: .entry __gmem_pre__Z6mirrorPKfPf(
; PTX:         .shared .align 4 .b8 sdata_$_gmem_$_odd[1024];
; PTX:         selp.b64
; PTX:         st.shared.f32
; PTX:         bar.sync 0;
; PTX:         ld.shared.f32

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sdata = internal addrspace(3) global [256 x float] undef, align 4
@dyn = external addrspace(3) global [0 x float], align 4
@tile2 = internal addrspace(3) global [256 x float] undef, align 4
@big = internal addrspace(3) global [4096 x float] undef, align 4

; s[t] = in[b*256+t]; sync; out[b*256+t] = s[255-t]
define void @_Z6mirrorPKfPf(ptr %in, ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bt = shl i32 %b, 8
  %i = add i32 %bt, %t
  %i64 = zext i32 %i to i64
  %pi = getelementptr float, ptr %in, i64 %i64
  %v = load float, ptr %pi
  %t64 = zext i32 %t to i64
  %ps = getelementptr [256 x float], ptr addrspace(3) @sdata, i64 0, i64 %t64
  store float %v, ptr addrspace(3) %ps
  call void @llvm.nvvm.barrier0()
  %r = sub i32 255, %t
  %r64 = zext i32 %r to i64
  %pr = getelementptr [256 x float], ptr addrspace(3) @sdata, i64 0, i64 %r64
  %w = load float, ptr addrspace(3) %pr
  %po = getelementptr float, ptr %out, i64 %i64
  store float %w, ptr %po
  ret void
}

; The same through dynamic shared memory: its size is the launch's.
define void @_Z9mirrordynPKfPf(ptr %in, ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bt = shl i32 %b, 8
  %i = add i32 %bt, %t
  %i64 = zext i32 %i to i64
  %pi = getelementptr float, ptr %in, i64 %i64
  %v = load float, ptr %pi
  %t64 = zext i32 %t to i64
  %ps = getelementptr [0 x float], ptr addrspace(3) @dyn, i64 0, i64 %t64
  store float %v, ptr addrspace(3) %ps
  call void @llvm.nvvm.barrier0()
  %r = sub i32 255, %t
  %r64 = zext i32 %r to i64
  %pr = getelementptr [0 x float], ptr addrspace(3) @dyn, i64 0, i64 %r64
  %w = load float, ptr addrspace(3) %pr
  %po = getelementptr float, ptr %out, i64 %i64
  store float %w, ptr %po
  ret void
}

; The barrier only where the CTA is in range: a virtual CTA may run none.
define void @_Z8condsyncPKfPfi(ptr %in, ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %in.range = icmp slt i32 %b, %n
  br i1 %in.range, label %work, label %done

work:
  %t64 = zext i32 %t to i64
  %ps = getelementptr [256 x float], ptr addrspace(3) @tile2, i64 0, i64 %t64
  %pi = getelementptr float, ptr %in, i64 %t64
  %v = load float, ptr %pi
  store float %v, ptr addrspace(3) %ps
  call void @llvm.nvvm.barrier0()
  %r = sub i32 255, %t
  %r64 = zext i32 %r to i64
  %pr = getelementptr [256 x float], ptr addrspace(3) @tile2, i64 0, i64 %r64
  %w = load float, ptr addrspace(3) %pr
  %b64 = zext i32 %b to i64
  %po = getelementptr float, ptr %out, i64 %b64
  store float %w, ptr %po
  br label %done

done:
  ret void
}

; 16 KiB of shared memory: doubled it would be over the 16 KiB asked for.
define void @_Z7bigtilePKfPf(ptr %in, ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %pi = getelementptr float, ptr %in, i64 %t64
  %v = load float, ptr %pi
  %ps = getelementptr [4096 x float], ptr addrspace(3) @big, i64 0, i64 %t64
  store float %v, ptr addrspace(3) %ps
  call void @llvm.nvvm.barrier0()
  %r = sub i32 4095, %t
  %r64 = zext i32 %r to i64
  %pr = getelementptr [4096 x float], ptr addrspace(3) @big, i64 0, i64 %r64
  %w = load float, ptr addrspace(3) %pr
  %po = getelementptr float, ptr %out, i64 %t64
  store float %w, ptr %po
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @_Z6mirrorPKfPf, !"kernel", i32 1}
!1 = !{ptr @_Z9mirrordynPKfPf, !"kernel", i32 1}
!2 = !{ptr @_Z8condsyncPKfPfi, !"kernel", i32 1}
!3 = !{ptr @_Z7bigtilePKfPf, !"kernel", i32 1}
