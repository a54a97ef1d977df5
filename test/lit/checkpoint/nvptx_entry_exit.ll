; The clone of a loop-free NVPTX kernel: the kernel itself is untouched; the
; clone takes one more parameter (the control block), leaves at entry when
; request != 0 or its CTA's done bit is set (thread 0 reads both with
; volatile loads, one bar.red.or gives the CTA's decision), funnels both returns into
; one exit where the last thread out sets the done bit, and gets the
; kernel's annotations. The info global describes it.
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; Running the pass twice adds nothing; the analysis and the descriptors see
; only the user's kernel.
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint,gmem-checkpoint -S %s \
; RUN:   | grep -c "^define.*@__gmem_pre_" | FileCheck %s --check-prefix=ONCE
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint,gmem-embed,gmem-print \
; RUN:   -S %s -o %t.ll | FileCheck %s --check-prefix=REPORT
; RUN: FileCheck %s --check-prefix=DESC < %t.ll
; GMEM_CHECKPOINTS=0 turns the pass off.
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 GMEM_CHECKPOINTS=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: env GMEM_CHECKPOINT_PERSISTENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 \
; RUN:   | FileCheck %s --check-prefix=PTX

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__gmem_state___gmem_pre__Z4copyPKfPfi = internal addrspace(3) global i32 undef, align 4
; magic "GMP1", version 1, flags 0, no loop checkpoints, interval 0
; CHECK: @__gmem_pre_info__Z4copyPKfPfi = addrspace(1) constant [5 x i32] [i32 827346247, i32 2, i32 0, i32 0, i32 0], align 4
; CHECK: @llvm.used = appending global [2 x ptr] [ptr @__gmem_pre__Z4copyPKfPfi, ptr addrspacecast (ptr addrspace(1) @__gmem_pre_info__Z4copyPKfPfi to ptr)]

; The kernel is left exactly as it was.
; CHECK-LABEL: define void @_Z4copyPKfPfi(ptr %in, ptr %out, i32 %n) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NOT:     gmem
; CHECK:         ret void
; CHECK-NOT:     gmem
; CHECK:         ret void
; CHECK-NEXT:  }

; CHECK-LABEL: define void @__gmem_pre__Z4copyPKfPfi(ptr %in, ptr %out, i32 %n, ptr addrspace(1) noundef %gmem.ctl, i32 noundef %gmem.grid.x, i32 noundef %gmem.grid.y, i32 noundef %gmem.grid.z) {
; CHECK-NEXT:  gmem.entry:
; Thread 0 clears the exit counter before the entry barrier and reads the
; request and the done bit; the others contribute "no" to the bar.red.or.
; CHECK:         %gmem.tid0 = icmp eq i32 %{{.*}}, 0
; CHECK-NEXT:    br i1 %gmem.tid0, label %[[CLEAR:.*]], label %[[DECIDE:.*]]
; CHECK:       [[CLEAR]]:
; CHECK-NEXT:    store i32 0, ptr addrspace(3) @__gmem_state___gmem_pre__Z4copyPKfPfi, align 4
; CHECK-NEXT:    %gmem.request = load volatile i32, ptr addrspace(1) %gmem.ctl, align 4
; bid = ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z), 64-bit; done
; word at byte 8 + 4 * (bid / 32), bit bid % 32.
; CHECK:         %gmem.bid = add i64
; CHECK-NEXT:    %[[W:.*]] = lshr i64 %gmem.bid, 5
; CHECK-NEXT:    %[[B:.*]] = shl i64 %[[W]], 2
; CHECK-NEXT:    %[[O:.*]] = add i64 8, %[[B]]
; CHECK-NEXT:    %gmem.done.word = getelementptr inbounds i8, ptr addrspace(1) %gmem.ctl, i64 %[[O]]
; CHECK:         %gmem.done.bit = shl i32 1,
; CHECK-NEXT:    %[[DW:.*]] = load volatile i32, ptr addrspace(1) %gmem.done.word, align 4
; CHECK-NEXT:    %[[DB:.*]] = and i32 %[[DW]], %gmem.done.bit
; CHECK-NEXT:    %[[DONE:.*]] = icmp ne i32 %[[DB]], 0
; CHECK-NEXT:    %[[REQ:.*]] = icmp ne i32 %gmem.request, 0
; CHECK-NEXT:    %gmem.skip.mine = or i1 %[[REQ]], %[[DONE]]
; CHECK-NEXT:    br label %[[DECIDE]]
; CHECK:       [[DECIDE]]:
; CHECK-NEXT:    %gmem.skip.seen = phi i1 [ %gmem.skip.mine, %[[CLEAR]] ], [ false, %gmem.entry ]
; CHECK-NEXT:    %[[Z:.*]] = zext i1 %gmem.skip.seen to i32
; CHECK-NEXT:    %[[RED:.*]] = call i32 @llvm.nvvm.barrier0.or(i32 %[[Z]])
; CHECK-NEXT:    %gmem.cta.stop = icmp ne i32 %[[RED]], 0
; CHECK-NEXT:    br i1 %gmem.cta.stop, label %gmem.skip, label %entry
; CHECK:       entry:
; CHECK:         br i1 %c, label %body, label %done
; CHECK:       body:
; CHECK:         store float %v, ptr %q
; CHECK-NEXT:    br label %gmem.exit
; CHECK:       done:
; CHECK-NEXT:    br label %gmem.exit
; Each thread counts itself out (+1, or +0x10001 when it left through a loop
; checkpoint: none here); the one completing the CTA sets the done bit.
; CHECK:       gmem.exit:
; CHECK-NEXT:    %[[INC:.*]] = select i1 false, i32 65537, i32 1
; CHECK-NEXT:    %[[OLD:.*]] = atomicrmw add ptr addrspace(3) @__gmem_state___gmem_pre__Z4copyPKfPfi, i32 %[[INC]] monotonic, align 4
; CHECK-NEXT:    %gmem.out = add i32 %[[OLD]], %[[INC]]
; CHECK:         %[[LOW:.*]] = and i32 %gmem.out, 65535
; CHECK-NEXT:    %[[LAST:.*]] = icmp eq i32 %[[LOW]], %[[NT:.*]]
; CHECK-NEXT:    %[[CLEAN:.*]] = icmp ult i32 %gmem.out, 65536
; CHECK-NEXT:    %gmem.cta.done = and i1 %[[LAST]], %[[CLEAN]]
; CHECK-NEXT:    br i1 %gmem.cta.done, label %gmem.set.done, label %gmem.ret
; CHECK:       gmem.skip:
; CHECK-NEXT:    ret void
; CHECK:       gmem.set.done:
; CHECK:         atomicrmw or ptr addrspace(1) %gmem.done.word{{.*}}, i32 %gmem.done.bit{{.*}} monotonic, align 4
; CHECK-NEXT:    br label %gmem.ret
; CHECK:       gmem.ret:
; CHECK-NEXT:    ret void

; The clone is a kernel with the same launch bounds.
; CHECK: !nvvm.annotations = !{!0, !1, !2, !3}
; CHECK: !2 = !{ptr @__gmem_pre__Z4copyPKfPfi, !"kernel", i32 1}
; CHECK: !3 = !{ptr @__gmem_pre__Z4copyPKfPfi, !"maxntidx", i32 256}

; ONCE: 1

; REPORT:     kernel copy(float const*, float*, int)  [nvptx]
; REPORT-NOT: gmem_pre
; DESC:       @__gmem_desc__Z4copyPKfPfi =
; DESC-NOT:   @__gmem_desc___gmem_pre_

; OFF-NOT: __gmem_pre

; PTX-LABEL: .entry __gmem_pre__Z4copyPKfPfi(
; PTX:         .maxntid 256, 1, 1
; PTX:         ld.volatile.global.u32
; PTX:         bar.red.or.pred
; PTX:         atom.shared.add.u32
; PTX:         atom.global.or.b32

define void @_Z4copyPKfPfi(ptr %in, ptr %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %ctaid, %ntid
  %i = add i32 %m, %tid
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %done

body:
  %idx = sext i32 %i to i64
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %q = getelementptr float, ptr %out, i64 %idx
  store float %v, ptr %q
  ret void

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @_Z4copyPKfPfi, !"kernel", i32 1}
!1 = !{ptr @_Z4copyPKfPfi, !"maxntidx", i32 256}
