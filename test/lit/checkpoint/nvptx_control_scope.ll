; The clones read the request word of their control block (in every form)
; with `ld.relaxed.gpu.global` on sm_70+: only the
; GPU writes the block (stream memory operations, the clones), so GPU scope
; sees every write, and LLVM 19 would lower a volatile or atomic load to
; ld.volatile, which ptxas makes a system-scope strong load (H200: the
; table's forms +0.99% -> +0.87% over their kernels, bench/preempt/results/
; session41). The asm has side effects: it stays where it is and is never
; merged with another read. A CTA's entry words (redo, resume), read once,
; stay volatile loads (as asm their addresses took registers of their own).
;  * sm_90: every request read is the asm;
;  * sm_60 (no PTX memory model), and GMEM_CHECKPOINT_SCOPE=volatile: the
;    volatile loads of before;
;  * llc accepts the result (PTX prefix; ptxas: ctest checkpoint-ptxas).
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s
; RUN: env GMEM_CHECKPOINT_SCOPE=volatile opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint \
; RUN:   -S %s | FileCheck %s --check-prefix=VOL
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - | llc -mcpu=sm_90 -mattr=+ptx80 \
; RUN:   -o %t.ptx
; RUN: FileCheck %s --check-prefix=PTX < %t.ptx

; CHECK-LABEL: define void @__gmem_pre_copy90(
; CHECK:         %gmem.w.redo = load volatile i32, ptr addrspace(1)
; CHECK:         %gmem.w.resume = load volatile i32, ptr addrspace(1)
; CHECK:       gmem.p.read:
; CHECK-NEXT:    %gmem.request = call i32 asm sideeffect "ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l"(ptr addrspace(1) %gmem.ctl)
; CHECK-NOT:     load volatile i32, ptr addrspace(1)
; CHECK:       }
; CHECK-LABEL: define void @__gmem_prl_copy90(
; CHECK:       gmem.p.read:
; CHECK-NEXT:    %gmem.request = call i32 asm sideeffect "ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l"(ptr addrspace(1) %gmem.ctl)
; CHECK-NOT:     load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK:       }
; CHECK-LABEL: define void @__gmem_prf_copy90(
; CHECK:         call i32 asm sideeffect "ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l"(ptr addrspace(1) %gmem.ctl)
; CHECK-NOT:     load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK:       }
; CHECK-LABEL: define void @__gmem_pre_copy60(
; CHECK-NOT:     asm sideeffect "ld.relaxed
; CHECK:         %gmem.w.redo = load volatile i32, ptr addrspace(1)
; CHECK:       gmem.p.read:
; CHECK-NEXT:    %gmem.request = load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK:       }

; VOL-LABEL: define void @__gmem_pre_copy90(
; VOL-NOT:     ld.relaxed
; VOL:         %gmem.request = load volatile i32, ptr addrspace(1) %gmem.ctl
; VOL:       }

; PTX-LABEL: .entry __gmem_pre_copy90(
; PTX:         ld.volatile.global.u32 {{.*}}+8]
; PTX:         ld.volatile.global.u32 {{.*}}+12]
; PTX:         ld.relaxed.gpu.global.u32
; PTX-NOT:     ld.volatile.global
; PTX:       }

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @copy90(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) #0 {
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
  %p = getelementptr float, ptr addrspace(1) %in, i64 %idx
  %v = load float, ptr addrspace(1) %p
  %q = getelementptr float, ptr addrspace(1) %out, i64 %idx
  store float %v, ptr addrspace(1) %q
  ret void

done:
  ret void
}

define void @copy60(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) #1 {
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
  %p = getelementptr float, ptr addrspace(1) %in, i64 %idx
  %v = load float, ptr addrspace(1) %p
  %q = getelementptr float, ptr addrspace(1) %out, i64 %idx
  store float %v, ptr addrspace(1) %q
  ret void

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { "target-cpu"="sm_60" }

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @copy90, !"kernel", i32 1}
!1 = !{ptr @copy60, !"kernel", i32 1}
