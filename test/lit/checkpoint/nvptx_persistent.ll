; Persistent clones (ABI version 2): where no barrier or warp collective is
; control dependent on a thread-dependent branch, the clone loops over
; virtual CTAs: CTA p runs p, p + P, ... (P = %nctaid.x), blockIdx/gridDim
; come from the virtual CTA and the three grid parameters, thread 0 reads
; the request at the start of each virtual CTA and one bar.red.or at its end
; decides the stop; a stop writes the CTA's redo and resume words, the end
; writes resume = total + 1. Elsewhere the version-1 clone (entry
; checkpoint, done bitmap) is kept, and a remark says why.
; (GMEM_CHECKPOINT_VSTOP=light: the bar.red.or decision after a virtual CTA;
; nvptx_stamped_stop.ll checks the default, a stop word for kernels
; without shared memory.)
; (GMEM_CHECKPOINT_LATE=0: the late read at the end of a virtual CTA has its
; own test, nvptx_late_read.ll.)
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_TAIL=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -pass-remarks-analysis=gmem-checkpoint -S %s -o %t.ll 2> %t.remarks
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=PTX
; GMEM_CHECKPOINT_LOOPS=0: stops only between virtual CTAs (entry-only flag).
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_TAIL=0 GMEM_CHECKPOINT_LOOPS=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=NOLOOPS
; RUN: FileCheck %s --check-prefix=LIGHT < %t.ll
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_TAIL=0 GMEM_CHECKPOINT_LIGHT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=NOLIGHT
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_TAIL=0 GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=OFF
; GMEM_CHECKPOINT_STATE=shared: the loop's state (ticket, next, coordinates,
; steps, total) in a shared array with volatile accesses instead of
; registers; read before the end-of-CTA barrier, written after it.
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_TAIL=0 GMEM_CHECKPOINT_STATE=shared opt -load-pass-plugin=%gmem_plugin \
; RUN:   -passes=gmem-checkpoint -S %s -o %t.shared.ll
; RUN: FileCheck %s --check-prefix=SHARED < %t.shared.ll
; RUN: llc -mcpu=sm_90 < %t.shared.ll | FileCheck %s --check-prefix=SHARED-PTX
; A kernel with loop checkpoints also gets the alternate full clone
; __gmem_pra_ (flag bit 6): the same clone with its loop state in shared
; memory, for the runtime to time against the register form.
; RUN: FileCheck %s --check-prefix=ALT < %t.ll
; RUN: llc -mcpu=sm_90 < %t.ll | FileCheck %s --check-prefix=ALT-PTX
; RUN: env GMEM_CHECKPOINT_LATE=0 GMEM_CHECKPOINT_VSTOP=light GMEM_CHECKPOINT_BATCH=0 GMEM_CHECKPOINT_TAIL=0 GMEM_CHECKPOINT_ALT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=NOALT

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; CHECK-NOT: __gmem_pstate___gmem_pre_
; SHARED: @__gmem_pstate___gmem_pre_copy2d = internal addrspace(3) global [9 x i32] undef, align 4
; SHARED-LABEL: define void @__gmem_pre_copy2d(
; SHARED: store volatile i32 %gmem.total, ptr addrspace(3) getelementptr inbounds ([9 x i32], ptr addrspace(3) @__gmem_pstate___gmem_pre_copy2d, i32 0, i32 8)
; SHARED: gmem.exit:
; SHARED-NEXT: %gmem.v.cur = load volatile i32, ptr addrspace(3) @__gmem_pstate___gmem_pre_copy2d
; SHARED-NEXT: %gmem.v.next = load volatile i32, ptr addrspace(3) getelementptr inbounds ([9 x i32], ptr addrspace(3) @__gmem_pstate___gmem_pre_copy2d, i32 0, i32 1)
; SHARED: call i32 @llvm.nvvm.barrier0.or(
; SHARED: gmem.p.header:
; SHARED: %gmem.v = load volatile i32, ptr addrspace(3) @__gmem_pstate___gmem_pre_copy2d
; SHARED: gmem.p.cont:
; SHARED: store volatile i32 %gmem.v.next, ptr addrspace(3) @__gmem_pstate___gmem_pre_copy2d
; SHARED: gmem.p.save:
; SHARED-NEXT: call i32 asm sideeffect "mov.u32 $0, %ctaid.x;", "=r"()
; SHARED-PTX-LABEL: .entry __gmem_pre_copy2d(
; SHARED-PTX: .shared .align 4 .b8 __gmem_pstate___gmem_pre_copy2d[36];
; SHARED-PTX: ld.volatile.shared.u32
; SHARED-PTX: bar.red.or.pred

; REMARK-DAG: remark: <unknown>:0:0: persistent clone: loops over virtual CTAs
; REMARK-DAG: clone not persistent: a barrier or warp collective depends on a thread-dependent branch or an early return
; REMARK-DAG: clone not persistent: device function helper_block reads blockIdx/gridDim
; REMARK-DAG: clone not persistent: dynamic alloca
; The divergence rules behind "a barrier depends on a thread-dependent
; branch": values that may differ between the threads of a CTA (an atomic's
; result, a volatile load, per-thread memory) make a barrier under them
; unsafe; a plain load of shared memory at one address after a barrier is
; the same in every thread of a race-free kernel (the broadcast idiom).
; REMARK-DAG: <unknown>:0:0: clone not persistent: a barrier or warp collective depends on a thread-dependent branch or an early return{{.*}}
; CHECK-DAG: @__gmem_pre_info_sync_if_atomic = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4,
; CHECK-DAG: @__gmem_pre_info_sync_if_volatile = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4,
; CHECK-DAG: @__gmem_pre_info_sync_if_private = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4,
; CHECK-DAG: @__gmem_pre_info_sync_if_broadcast = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 52,

; Flags: bit 4 persistent; 2d_sum has a barrier in a loop (bit 2) too.
; copy2d has no barrier, collective or shared memory: a free form (bit 7,
; nvptx_free.ll) too.
; CHECK-DAG: @__gmem_pre_info_copy2d = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 176, i32 0, i32 0]
; block_sum has loop checkpoints, so a light twin too (bit 5).
; CHECK-DAG: @__gmem_pre_info_block_sum = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 117,
; CHECK-DAG: @__gmem_pre_info_early_ret_sync = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 4,
; CHECK-DAG: @__gmem_pre_info_calls_helper = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0,
; CHECK-DAG: @__gmem_pre_info_vla = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0,

; The 2-D kernel: virtual x = v % grid.x, y = (v / grid.x) % grid.y; the
; body reads no %ctaid/%nctaid of its own any more (only the loop's own
; %ctaid.x and %nctaid.x: which CTA, how many).
; CHECK-LABEL: define void @__gmem_pre_copy2d(ptr %in, ptr %out, i32 %w, i32 %h, ptr addrspace(1) noundef %gmem.ctl, i32 noundef %gmem.grid.x, i32 noundef %gmem.grid.y, i32 noundef %gmem.grid.z)
; CHECK:       gmem.entry:
; CHECK:         %gmem.p = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT:    %gmem.P = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK:         %gmem.redo = getelementptr inbounds i8, ptr addrspace(1) %gmem.ctl, i64
; CHECK-NEXT:    %gmem.resume = getelementptr inbounds i8, ptr addrspace(1) %gmem.redo, i64 4
; CHECK:         %gmem.total = mul i32 %{{.*}}, %gmem.grid.z
; The step from one virtual CTA of this CTA to its next, in coordinates.
; CHECK-NEXT:    %[[PQ:.*]] = udiv i32 %gmem.P, %gmem.grid.x
; CHECK-NEXT:    %gmem.step.x = urem i32 %gmem.P, %gmem.grid.x
; CHECK-NEXT:    %gmem.step.y = urem i32 %[[PQ]], %gmem.grid.y
; CHECK-NEXT:    %gmem.step.z = udiv i32 %[[PQ]], %gmem.grid.y
; CHECK-NEXT:    %gmem.w.redo = load volatile i32, ptr addrspace(1) %gmem.redo
; CHECK-NEXT:    %gmem.w.resume = load volatile i32, ptr addrspace(1) %gmem.resume
; CHECK-NOT:     @llvm.nvvm.read.ptx.sreg.ctaid
; CHECK-NOT:     @llvm.nvvm.read.ptx.sreg.nctaid
; CHECK:       gmem.exit:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; A kernel that reads blockIdx.y carries its coordinates from one virtual
; CTA to the next; they carry the ranges %ctaid has (x < 2^31, y, z < 2^16).
; CHECK:       gmem.p.header:
; CHECK:         %gmem.vcta.x = and i32 %gmem.cx.0, 2147483647
; CHECK-NEXT:    %gmem.vcta.y = and i32 %gmem.cy.0, 65535
; CHECK-NEXT:    %gmem.vcta.z = and i32 %gmem.cz.0, 65535
; CHECK-NOT:     @llvm.nvvm.read.ptx.sreg.ctaid
; CHECK-NOT:     @llvm.nvvm.read.ptx.sreg.nctaid
; CHECK:       gmem.p.decide:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(
; CHECK:         %gmem.resume.at = select i1 %{{.*}}, i32 %{{.*}}, i32 %gmem.p
; CHECK:       gmem.p.clear:
; CHECK-NEXT:    store i32 0, ptr addrspace(1) %gmem.redo
; The next virtual CTA of this CTA is P further: its coordinates by adding
; P's with carries, by division only after a redo (not P further).
; CHECK:       gmem.p.cont:
; CHECK-NEXT:    %[[CUR:.*]] = add i32 %gmem.vcta.0, %gmem.P
; CHECK-NEXT:    %[[STEPPED:.*]] = icmp eq i32 %gmem.vnext.0, %[[CUR]]
; CHECK-NEXT:    %[[NX:.*]] = add i32 %gmem.vnext.{{[0-9]+}}, %gmem.P
; CHECK:       gmem.p.step:
; CHECK-NEXT:    %[[X1:.*]] = add i32 %gmem.cx.0, %gmem.step.x
; CHECK-NEXT:    %[[CX:.*]] = icmp uge i32 %[[X1]], %gmem.grid.x
; CHECK-NEXT:    %[[X2:.*]] = sub i32 %[[X1]], %gmem.grid.x
; CHECK-NEXT:    select i1 %[[CX]], i32 %[[X2]], i32 %[[X1]]
; CHECK-NEXT:    %[[Y1:.*]] = add i32 %gmem.cy.0, %gmem.step.y
; CHECK-NEXT:    %[[CY:.*]] = zext i1 %[[CX]] to i32
; CHECK-NEXT:    add i32 %[[Y1]], %[[CY]]
; CHECK:       gmem.p.jump:
; CHECK-NEXT:    udiv i32 %gmem.vnext.0, %gmem.grid.x
; CHECK-NEXT:    urem i32 %gmem.vnext.0, %gmem.grid.x
; CHECK:       gmem.p.advance:
; CHECK-NEXT:    br i1 %[[STEPPED]], label %gmem.p.step, label %gmem.p.jump
; A stop after a virtual CTA: nothing to redo (no loop checkpoint could
; have cut it); resume = next + 1.
; CHECK:       gmem.p.save:
; CHECK-NEXT:    store i32 0, ptr addrspace(1) %gmem.redo
; CHECK-NEXT:    %[[N1:.*]] = add i32 %gmem.vnext.{{[0-9]+}}, 1
; CHECK-NEXT:    store i32 %[[N1]], ptr addrspace(1) %gmem.resume
; At the end: resume past the total.
; CHECK:       gmem.p.save.done:
; CHECK-NEXT:    store i32 0, ptr addrspace(1) %gmem.redo
; CHECK-NEXT:    %[[T1:.*]] = add i32 %gmem.total, 1
; CHECK-NEXT:    store i32 %[[T1]], ptr addrspace(1) %gmem.resume
; CHECK:       }
; No version-1 pieces and no shared ticket counter in a persistent clone.
; CHECK-NOT:   @__gmem_state___gmem_pre_copy2d
; CHECK-NOT:   atomicrmw
; CHECK-LABEL: define void @__gmem_prf_copy2d(

; A barrier after an early return that depends on the thread: not persistent.
; CHECK-LABEL: define void @__gmem_pre_early_ret_sync(
; CHECK:         atomicrmw or ptr addrspace(1)

; PTX: .entry __gmem_pre_copy2d(
; PTX:   mov.u32 {{.*}}%nctaid.x
; PTX:   bar.red.or.pred
; PTX: .entry __gmem_pre_block_sum(

; The full clone of block_sum redoes the current virtual CTA under request 2
; (a loop checkpoint may have cut it); its light twin has the same
; parameters, no loop checkpoint, and never redoes.
; A kernel that reads blockIdx.x only: x is the ticket below grid.x (every
; ticket of a one-dimensional grid), else ticket % grid.x; nothing carried.
; LIGHT-LABEL: define void @__gmem_pre_block_sum(
; LIGHT-NOT:     gmem.cx
; LIGHT:         gmem.site
; LIGHT:       gmem.p.header:
; LIGHT:         %gmem.v.row0 = icmp ult i32 %gmem.vcta.0, %gmem.grid.x
; LIGHT-NEXT:    br i1 %gmem.v.row0, label %gmem.p.coords, label %gmem.p.div
; LIGHT:       gmem.p.div:
; LIGHT-NEXT:    %[[RX:.*]] = urem i32 %gmem.vcta.0, %gmem.grid.x
; LIGHT:       gmem.p.coords:
; LIGHT-NEXT:    %[[PX:.*]] = phi i32 [ %gmem.vcta.0, %gmem.p.header ], [ %[[RX]], %gmem.p.div ]
; LIGHT-NEXT:    %gmem.vcta.x = and i32 %[[PX]], 2147483647
; A stop ORs the threads' loop-abort flags (a relaunch may already have
; reset the request word): thread 0 redoes the virtual CTA only if one cut it.
; LIGHT:       gmem.p.stop:
; LIGHT-NEXT:    %[[AB:.*]] = zext i1 %gmem.aborted.{{[0-9]+}} to i32
; LIGHT-NEXT:    %[[CUT:.*]] = call i32 @llvm.nvvm.barrier0.or(i32 %[[AB]])
; LIGHT-NEXT:    %[[CUTB:.*]] = icmp ne i32 %[[CUT]], 0
; LIGHT:       gmem.p.save:
; LIGHT-NEXT:    %[[R1:.*]] = add i32 %gmem.vcta.0, 1
; LIGHT-NEXT:    %gmem.p.redo = select i1 %[[CUTB]], i32 %[[R1]], i32 0
; LIGHT-NOT:     %gmem.ctl
; LIGHT:         store i32 %gmem.p.redo, ptr addrspace(1) %gmem.redo
; LIGHT-LABEL: define void @__gmem_prl_block_sum(ptr %in, ptr %out, ptr addrspace(1) noundef %gmem.ctl, i32 noundef %gmem.grid.x, i32 noundef %gmem.grid.y, i32 noundef %gmem.grid.z)
; LIGHT-NOT:     gmem.site
; LIGHT:         call i32 @llvm.nvvm.barrier0.or(
; LIGHT:       gmem.p.save:
; LIGHT-NEXT:    store i32 0, ptr addrspace(1) %gmem.redo
; LIGHT-NOT:     gmem.site
; LIGHT:       }
; A persistent kernel without loop checkpoints gets a twin too (its main
; clone plus the late read, off here); the non-persistent ones get none.
; LIGHT-NOT:   define void @__gmem_prl_{{early_ret_sync|calls_helper|vla|sync_if_atomic|sync_if_volatile|sync_if_private}}(
; LIGHT:       define void @__gmem_prl_sync_if_broadcast(
; NOLIGHT: @__gmem_pre_info_block_sum = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 21,
; NOLIGHT-NOT: @__gmem_prl_
; NOLIGHT-NOT: @__gmem_pra_
; ALT-NOT:     @__gmem_pstate___gmem_pra_copy2d
; ALT:         @__gmem_pstate___gmem_pra_block_sum = internal addrspace(3) global [9 x i32] undef, align 4
; ALT-NOT:     @__gmem_pstate___gmem_pra_copy2d
; ALT-LABEL: define void @__gmem_pra_block_sum(ptr %in, ptr %out, ptr addrspace(1) noundef %gmem.ctl, i32 noundef %gmem.grid.x, i32 noundef %gmem.grid.y, i32 noundef %gmem.grid.z)
; ALT:         gmem.site
; ALT:         call i32 @llvm.nvvm.barrier0.or(
; ALT:       gmem.p.header:
; ALT:         %gmem.v = load volatile i32, ptr addrspace(3) @__gmem_pstate___gmem_pra_block_sum
; ALT:       gmem.p.stop:
; ALT:         call i32 @llvm.nvvm.barrier0.or(
; ALT:       gmem.p.save:
; ALT:         %gmem.p.redo = select i1
; ALT:       }
; ALT-NOT:   define void @__gmem_pra_copy2d
; ALT-PTX:     .entry __gmem_pra_block_sum(
; ALT-PTX:     .shared .align 4 .b8 __gmem_pstate___gmem_pra_block_sum[36];
; ALT-PTX:     ld.volatile.shared.u32
; ALT-PTX:     bar.red.or.pred
; NOALT:       @__gmem_pre_info_block_sum = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 53,
; NOALT-NOT:   @__gmem_pra_
; NOLOOPS: @__gmem_pre_info_block_sum = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 54, i32 0, i32 0]
; NOLOOPS-NOT: gmem.site

; OFF-NOT: %gmem.vcta
; OFF:     @__gmem_pre_info_copy2d = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0, i32 0, i32 0]

define void @copy2d(ptr %in, ptr %out, i32 %w, i32 %h) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %x0 = mul i32 %bx, %nx
  %x = add i32 %x0, %tx
  %inx = icmp slt i32 %x, %w
  %iny = icmp slt i32 %by, %h
  %in.range = and i1 %inx, %iny
  br i1 %in.range, label %body, label %done

body:
  %row = mul i32 %by, %w
  %i = add i32 %row, %x
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx
  %v = load float, ptr %src, align 4
  %dst = getelementptr inbounds float, ptr %out, i64 %idx
  store float %v, ptr %dst, align 4
  br label %done

done:
  ret void
}

; Shared-memory tree sum: the loop's trip count depends on blockDim only
; (uniform), the `tid < s` branch holds no barrier: persistent.
define void @block_sum(ptr %in, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %ntid
  %g = add i32 %base, %tid
  %gidx = sext i32 %g to i64
  %src = getelementptr inbounds float, ptr %in, i64 %gidx
  %x = load float, ptr %src, align 4
  %tidx = zext i32 %tid to i64
  %slot = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %tidx
  store float %x, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  %s0 = lshr i32 %ntid, 1
  %any = icmp ugt i32 %s0, 0
  br i1 %any, label %loop, label %tail

loop:
  %s = phi i32 [ %s0, %entry ], [ %s.next, %join ]
  %lt = icmp ult i32 %tid, %s
  br i1 %lt, label %add, label %join

add:
  %o = add i32 %tid, %s
  %oidx = zext i32 %o to i64
  %oslot = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %oidx
  %a = load float, ptr addrspace(3) %slot, align 4
  %b = load float, ptr addrspace(3) %oslot, align 4
  %sum = fadd float %a, %b
  store float %sum, ptr addrspace(3) %slot, align 4
  br label %join

join:
  call void @llvm.nvvm.barrier0()
  %s.next = lshr i32 %s, 1
  %more = icmp ugt i32 %s.next, 0
  br i1 %more, label %loop, label %tail

tail:
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %write, label %exit

write:
  %r = load float, ptr addrspace(3) @tile, align 4
  %bidx = zext i32 %bid to i64
  %dst = getelementptr inbounds float, ptr %out, i64 %bidx
  store float %r, ptr %dst, align 4
  br label %exit

exit:
  ret void
}

; Threads past n return, the others meet at a barrier: a returned thread
; waiting at the end-of-CTA barrier would release or block it wrongly.
define void @early_ret_sync(ptr %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %out = icmp sge i32 %tid, %n
  br i1 %out, label %ret, label %work

work:
  %idx = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %idx
  store float 1.0, ptr %p, align 4
  call void @llvm.nvvm.barrier0()
  store float 2.0, ptr %p, align 4
  br label %ret

ret:
  ret void
}

; A device function that reads blockIdx: the rewrite covers the kernel only.
define internal i32 @helper_block() noinline {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  ret i32 %b
}

define void @calls_helper(ptr %a) {
entry:
  %b = call i32 @helper_block()
  %idx = zext i32 %b to i64
  %p = getelementptr inbounds i32, ptr %a, i64 %idx
  store i32 1, ptr %p, align 4
  ret void
}

; A dynamic alloca would grow the stack once per virtual CTA.
define void @vla(ptr %a, i32 %n) {
entry:
  %buf = alloca i32, i32 %n, align 4
  store i32 1, ptr %buf, align 4
  %v = load i32, ptr %buf, align 4
  store i32 %v, ptr %a, align 4
  ret void
}

@flag = internal addrspace(3) global i32 undef, align 4

; A barrier only where an atomic returned 0: one thread sees 0, the others
; do not.
define void @sync_if_atomic(ptr addrspace(1) %c) {
entry:
  %old = atomicrmw add ptr addrspace(1) %c, i32 1 monotonic
  %first = icmp eq i32 %old, 0
  br i1 %first, label %sync, label %done
sync:
  call void @llvm.nvvm.barrier0()
  br label %done
done:
  ret void
}

; The same under a volatile load (another agent may write it any time).
define void @sync_if_volatile(ptr addrspace(1) %c) {
entry:
  %v = load volatile i32, ptr addrspace(1) %c, align 4
  %go = icmp ne i32 %v, 0
  br i1 %go, label %sync, label %done
sync:
  call void @llvm.nvvm.barrier0()
  br label %done
done:
  ret void
}

; The same under a value read back from per-thread memory.
define void @sync_if_private(ptr addrspace(1) %c) {
entry:
  %slot = alloca i32, align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr %slot, align 4
  %v = load i32, ptr %slot, align 4
  %go = icmp eq i32 %v, 0
  br i1 %go, label %sync, label %done
sync:
  call void @llvm.nvvm.barrier0()
  br label %done
done:
  ret void
}

; Thread 0 publishes a flag in shared memory, a barrier, then every thread
; reads the same word: uniform, so the barrier under it is safe.
define void @sync_if_broadcast(ptr addrspace(1) %c) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %pub, label %wait
pub:
  %g = load i32, ptr addrspace(1) %c, align 4
  store i32 %g, ptr addrspace(3) @flag, align 4
  br label %wait
wait:
  call void @llvm.nvvm.barrier0()
  %f = load i32, ptr addrspace(3) @flag, align 4
  %go = icmp ne i32 %f, 0
  br i1 %go, label %sync, label %done
sync:
  call void @llvm.nvvm.barrier0()
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7, !8}
!0 = !{ptr @copy2d, !"kernel", i32 1}
!1 = !{ptr @block_sum, !"kernel", i32 1}
!2 = !{ptr @early_ret_sync, !"kernel", i32 1}
!3 = !{ptr @calls_helper, !"kernel", i32 1}
!4 = !{ptr @vla, !"kernel", i32 1}
!5 = !{ptr @sync_if_atomic, !"kernel", i32 1}
!6 = !{ptr @sync_if_volatile, !"kernel", i32 1}
!7 = !{ptr @sync_if_private, !"kernel", i32 1}
!8 = !{ptr @sync_if_broadcast, !"kernel", i32 1}
