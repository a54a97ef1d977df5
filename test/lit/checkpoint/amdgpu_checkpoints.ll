; AMDGPU clones. No bar.red there: thread 0 reads the request and the done
; bit and publishes the CTA's decision in an LDS word around s_barrier
; (fences on both sides, as HIP's __syncthreads). A joined loop barrier
; works the same way with two alternating LDS stop words: any thread that
; saw request == 2 stores 1 before the barrier, every thread reads after it.
; The attributor's "amdgpu-no-*" facts of the kernel do not hold for the
; clone (it reads the dispatch packet and all thread/workgroup ids).
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - \
; RUN:   | llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a | FileCheck %s --check-prefix=ASM

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; CHECK: @__gmem_state___gmem_pre__Z5tiledPfPKfi = internal addrspace(3) global [4 x i32] undef, align 4
; CHECK: @__gmem_pre_info__Z5tiledPfPKfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 5, i32 1, i32 {{[0-9]+}}]
; CHECK: @__gmem_pre_info__Z8saxpy_gsifPKfPf = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 1, i32 1, i32 {{[0-9]+}}]

; The kernel keeps its attributes; the clone loses the amdgpu-no-* ones.
; CHECK-LABEL: define amdgpu_kernel void @_Z5tiledPfPKfi(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %n) #0 {
; CHECK:       define amdgpu_kernel void @__gmem_pre__Z5tiledPfPKfi(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %n, ptr addrspace(1) noundef %gmem.ctl, i32 noundef %gmem.grid.x, i32 noundef %gmem.grid.y, i32 noundef %gmem.grid.z) #[[CLONE:[0-9]+]] {
; CHECK:         %gmem.tid0 = icmp eq i32
; CHECK-NEXT:    br i1 %gmem.tid0, label %[[T0:.*]], label %[[ALL:.*]]
; CHECK:       [[T0]]:
; CHECK-NEXT:    %gmem.request{{[0-9]*}} = load volatile i32, ptr addrspace(1) %gmem.ctl, align 4
; The grid in workgroups from the dispatch packet (grid_size / workgroup_size).
; CHECK:         call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
; CHECK:         load volatile i32, ptr addrspace(1) %gmem.done.word
; CHECK:         %gmem.skip.mine = or i1
; CHECK:         store i32 %{{.*}}, ptr addrspace(3) getelementptr inbounds ([4 x i32], ptr addrspace(3) @__gmem_state___gmem_pre__Z5tiledPfPKfi, i32 0, i32 1), align 4
; CHECK-NEXT:    store i32 0, ptr addrspace(3) @__gmem_state___gmem_pre__Z5tiledPfPKfi, align 4
; CHECK-NEXT:    store i32 0, ptr addrspace(3) getelementptr inbounds ([4 x i32], ptr addrspace(3) @__gmem_state___gmem_pre__Z5tiledPfPKfi, i32 0, i32 2), align 4
; CHECK-NEXT:    store i32 0, ptr addrspace(3) getelementptr inbounds ([4 x i32], ptr addrspace(3) @__gmem_state___gmem_pre__Z5tiledPfPKfi, i32 0, i32 3), align 4
; CHECK:       [[ALL]]:
; CHECK-NEXT:    fence syncscope("workgroup") release
; CHECK-NEXT:    call void @llvm.amdgcn.s.barrier()
; CHECK-NEXT:    fence syncscope("workgroup") acquire
; CHECK-NEXT:    %gmem.skip.cta = load i32, ptr addrspace(3) getelementptr inbounds ([4 x i32], ptr addrspace(3) @__gmem_state___gmem_pre__Z5tiledPfPKfi, i32 0, i32 1), align 4
; CHECK-NEXT:    %[[SK:.*]] = icmp ne i32 %gmem.skip.cta, 0
; CHECK-NEXT:    br i1 %[[SK]], label %gmem.skip, label %entry
; The joined loop barrier: the parity alternates the stop word.
; CHECK:       loop:
; CHECK:         %gmem.parity.0 = phi i32 [ 0, %entry ], [ %[[PNEXT:.*]], %loop.end ]
; CHECK:         %[[PNEXT]] = xor i32 %gmem.parity.0, 1
; CHECK-NEXT:    %[[IDX:.*]] = add i32 %gmem.parity.0, 2
; CHECK-NEXT:    %gmem.stop.word = getelementptr inbounds [4 x i32], ptr addrspace(3) @__gmem_state___gmem_pre__Z5tiledPfPKfi, i32 0, i32 %[[IDX]]
; CHECK:         br i1 %gmem.stop.mine, label %[[SET:.*]], label %[[BAR:.*]]
; CHECK:       [[SET]]:
; CHECK-NEXT:    store i32 1, ptr addrspace(3) %gmem.stop.word, align 4
; CHECK:       [[BAR]]:
; CHECK-NEXT:    fence syncscope("workgroup") release
; CHECK-NEXT:    call void @llvm.amdgcn.s.barrier()
; CHECK-NEXT:    fence syncscope("workgroup") acquire
; CHECK-NEXT:    %[[W:.*]] = load i32, ptr addrspace(3) %gmem.stop.word, align 4
; CHECK-NEXT:    %gmem.stop = icmp ne i32 %[[W]], 0
; CHECK-NEXT:    br i1 %gmem.stop, label %gmem.abort, label
; The unified exit: LDS counter at workgroup scope, done bit at agent scope.
; CHECK:       gmem.exit:
; CHECK:         atomicrmw add ptr addrspace(3) @__gmem_state___gmem_pre__Z5tiledPfPKfi, i32 %{{.*}} syncscope("workgroup") monotonic, align 4
; CHECK:       gmem.set.done:
; CHECK:         atomicrmw or ptr addrspace(1) %gmem.done.word{{.*}}, i32 %gmem.done.bit{{.*}} syncscope("agent") monotonic, align 4

; Barrier-free grid-stride loop: per-thread check on the latch.
; CHECK-LABEL: define amdgpu_kernel void @__gmem_pre__Z8saxpy_gsifPKfPf(
; CHECK:         %gmem.cont = icmp {{.*}} i32 %i.next, %gmem.ckpt.limit
; CHECK:       gmem.ckpt:
; CHECK-NEXT:    load volatile i32, ptr addrspace(1) %gmem.ctl, align 4

; CHECK: attributes #0 = { {{.*}}"amdgpu-no-dispatch-ptr"{{.*}}"amdgpu-no-workitem-id-y"
; CHECK: attributes #[[CLONE]] = {
; CHECK-NOT: amdgpu-no-
; CHECK-SAME: "amdgpu-flat-work-group-size"="1,256"

; ASM: .amdhsa_kernel __gmem_pre__Z5tiledPfPKfi
; ASM: .amdhsa_kernel __gmem_pre__Z8saxpy_gsifPKfPf
; ASM: __gmem_pre_info__Z5tiledPfPKfi:
; ASM-NEXT: .long 827346247

define amdgpu_kernel void @_Z5tiledPfPKfi(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %n) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr [256 x float], ptr addrspace(3) @tile, i32 0, i32 %t
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop.end ]
  %kt = add i32 %k, %t
  %kt64 = zext i32 %kt to i64
  %pb = getelementptr float, ptr addrspace(1) %b, i64 %kt64
  %v = load float, ptr addrspace(1) %pb
  store float %v, ptr addrspace(3) %slot
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %w = load float, ptr addrspace(3) @tile
  %pa = getelementptr float, ptr addrspace(1) %a, i64 %kt64
  store float %w, ptr addrspace(1) %pa
  br label %loop.end

loop.end:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %k.next = add i32 %k, 256
  %ck = icmp slt i32 %k.next, %n
  br i1 %ck, label %loop, label %exit

exit:
  ret void
}

define amdgpu_kernel void @_Z8saxpy_gsifPKfPf(i32 %n, float %s, ptr addrspace(1) %x, ptr addrspace(1) %y) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %g = call i32 @llvm.amdgcn.workgroup.id.x()
  %g256 = shl i32 %g, 8
  %i0 = add i32 %g256, %t
  %c0 = icmp slt i32 %i0, %n
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ %i0, %entry ], [ %i.next, %loop ]
  %i64 = sext i32 %i to i64
  %px = getelementptr float, ptr addrspace(1) %x, i64 %i64
  %vx = load float, ptr addrspace(1) %px
  %py = getelementptr float, ptr addrspace(1) %y, i64 %i64
  %vy = load float, ptr addrspace(1) %py
  %m = fmul float %vx, %s
  %r = fadd float %m, %vy
  store float %r, ptr addrspace(1) %py
  %i.next = add i32 %i, 262144
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" "amdgpu-no-dispatch-ptr" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "uniform-work-group-size"="true" }
