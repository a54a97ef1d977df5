; Deferred stops are NVPTX only (CheckpointDeferredStop.cpp): AMDGPU's
; joined barriers decide through LDS stop words, not a barrier reduction, so
; a loop followed by s_barrier keeps no checkpoint there (flags 4: barriers,
; no loop checkpoints), as before.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK: @__gmem_pre_info__Z13sum_then_syncPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4, i32 0, i32 0]
; CHECK-LABEL: define amdgpu_kernel void @__gmem_pre__Z13sum_then_syncPfi(
; CHECK-NOT:     gmem.ckpt
; CHECK-NOT:     gmem.meet
; CHECK:       }

define amdgpu_kernel void @_Z13sum_then_syncPfi(ptr addrspace(1) %a, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %after

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %a, i64 %i64
  %v = load float, ptr addrspace(1) %p
  %s.next = fadd float %s, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %after

after:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  store float %r, ptr addrspace(1) %a
  ret void
}

declare void @llvm.amdgcn.s.barrier()
