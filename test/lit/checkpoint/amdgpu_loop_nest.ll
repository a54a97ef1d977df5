; The nest copy and the entry-time K (CheckpointLoopNest.cpp) on AMDGPU:
; the same im2col-shaped nest as nvptx_loop_nest.ll, a grid-stride loop over
; elements and a k x k patch per element. The short guard and the copy are
; target-independent IR; the result goes through the AMDGPU backend.
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_NEST=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - \
; RUN:   | llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a | FileCheck %s --check-prefix=ASM

; CHECK-LABEL: define amdgpu_kernel void @__gmem_pre__Z5patchPfS_ii(
; CHECK:         %gmem.iter.work{{[0-9]*}} = call i64 @llvm.umin.i64
; CHECK:         udiv i32
; CHECK:         %gmem.ckpt.isshort = icmp ule i64 %gmem.nest.work{{[0-9]*}}, 1024
; CHECK:         br i1 %gmem.ckpt.isshort, label %rowloop.short, label %gmem.ckpt.seg
; CHECK:       rowloop.short:
; CHECK-NOT:     gmem.ctl
; CHECK:       colloop.short:
; CHECK-NOT:     gmem.ctl
; CHECK:       row.done.short:
; CHECK:       }

; OFF-NOT: gmem.nest
; OFF-NOT: gmem.iter.work

; ASM-LABEL: __gmem_pre__Z5patchPfS_ii:
; ASM:         s_endpgm

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @_Z5patchPfS_ii(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n, i32 %k) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c0 = icmp slt i32 %tid, %n
  br i1 %c0, label %gs.pre, label %exit

gs.pre:
  %kpos = icmp sgt i32 %k, 0
  br label %gs

gs:
  %i = phi i32 [ %tid, %gs.pre ], [ %i.next, %gs.latch ]
  br i1 %kpos, label %rowloop.pre, label %gs.latch

rowloop.pre:
  %ik = mul i32 %i, %k
  br label %rowloop

rowloop:
  %r = phi i32 [ 0, %rowloop.pre ], [ %r.next, %row.done ]
  %ikr = add i32 %ik, %r
  %base = mul i32 %ikr, %k
  %ir = add i32 %i, %r
  br label %colloop

colloop:
  %c = phi i32 [ 0, %rowloop ], [ %c.next, %colloop ]
  %src = add i32 %ir, %c
  %ps = getelementptr float, ptr addrspace(1) %in, i32 %src
  %v = load float, ptr addrspace(1) %ps
  %dst = add i32 %base, %c
  %pd = getelementptr float, ptr addrspace(1) %out, i32 %dst
  store float %v, ptr addrspace(1) %pd
  %c.next = add nsw i32 %c, 1
  %cm = icmp slt i32 %c.next, %k
  br i1 %cm, label %colloop, label %row.done

row.done:
  %r.next = add nsw i32 %r, 1
  %rm = icmp slt i32 %r.next, %k
  br i1 %rm, label %rowloop, label %gs.latch

gs.latch:
  %i.next = add i32 %i, 1024
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %gs, label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
