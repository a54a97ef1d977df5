; GMEM_CHECKPOINT_JOIN=flag: a joined barrier stays the plain barrier; thread
; 0, on a due iteration, reads the request at the top of the iteration and
; writes "request == 2" to one of two shared stop words, and every thread
; reads that word after the barrier and leaves on 1. The word alternates by
; barrier instance (a parity carried through the clone, like AMDGPU's), and
; thread 0 zeroes both words before the clone's entry barrier.
; RUN: env GMEM_CHECKPOINT_JOIN=flag GMEM_CHECKPOINT_JOIN_SEGMENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s \
; RUN:   | FileCheck %s
; RUN: env GMEM_CHECKPOINT_JOIN=flag GMEM_CHECKPOINT_JOIN_SEGMENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint %s -o - \
; RUN:   | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX
; Without the flag (and without segments): the reduction form, no stop words.
; RUN: env GMEM_CHECKPOINT_JOIN_SEGMENT=0 opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -S %s | FileCheck %s --check-prefix=DEFAULT

; DEFAULT-NOT: __gmem_stop_
; DEFAULT: call i32 @llvm.nvvm.barrier0.or(

; CHECK: @__gmem_stop___gmem_pre__Z5tiledPfPKfi = internal addrspace(3) global [2 x i32] undef, align 8
; CHECK-LABEL: define void @__gmem_pre__Z5tiledPfPKfi(
; The site's counter says which iterations are due; the parity flips at
; every iteration and picks the word.
; CHECK:       loop:
; CHECK:         %gmem.parity.0 = phi i32
; CHECK:         %gmem.site.due = icmp slt i32 %{{.*}}, 0
; CHECK:         %[[LEAD:.*]] = and i1 %gmem.site.due, %gmem.tid0
; CHECK-NEXT:    %[[FLIP:.*]] = xor i32 %gmem.parity.0, 1
; CHECK-NEXT:    %gmem.stop.word = getelementptr inbounds [2 x i32], ptr addrspace(3) @__gmem_stop___gmem_pre__Z5tiledPfPKfi, i32 0, i32 %gmem.parity.0
; CHECK-NEXT:    br i1 %[[LEAD]], label %[[READ:.*]], label %[[BODY:.*]]
; Thread 0 on a due iteration: read the request, write the word.
; CHECK:       [[READ]]:
; CHECK-NEXT:    %gmem.request = load volatile i32, ptr addrspace(1) %gmem.ctl
; CHECK-NEXT:    %[[IS2:.*]] = icmp eq i32 %gmem.request, 2
; CHECK-NEXT:    %[[W:.*]] = zext i1 %[[IS2]] to i32
; CHECK-NEXT:    store volatile i32 %[[W]], ptr addrspace(3) %gmem.stop.word
; The original barrier, then everyone reads the word.
; CHECK:       [[BODY]]:
; CHECK:         call void @llvm.nvvm.barrier0()
; CHECK-NEXT:    %gmem.stop.seen = load volatile i32, ptr addrspace(3) %gmem.stop.word
; CHECK-NEXT:    %gmem.stop = icmp ne i32 %gmem.stop.seen, 0
; CHECK-NEXT:    br i1 %gmem.stop, label %gmem.abort,
; The second barrier of the iteration is left alone.
; CHECK:       loop.end:
; CHECK:         call void @llvm.nvvm.barrier0()
; CHECK-NOT:     barrier0.or
; CHECK:       gmem.exit:
; Thread 0 zeroes both words before the entry barrier.
; CHECK:       gmem.p.read:
; CHECK:         store volatile i32 0, ptr addrspace(3) @__gmem_stop___gmem_pre__Z5tiledPfPKfi
; CHECK-NEXT:    store volatile i32 0, ptr addrspace(3) getelementptr inbounds ([2 x i32], ptr addrspace(3) @__gmem_stop___gmem_pre__Z5tiledPfPKfi, i32 0, i32 1)
; CHECK:       gmem.p.decide:
; CHECK:         call i32 @llvm.nvvm.barrier0.or(

; PTX: .shared .align 8 .b8 __gmem_stop___gmem_pre__Z5tiledPfPKfi[8];
; PTX: st.volatile.shared.u32
; PTX: bar.sync 0;
; PTX-NEXT: ld.volatile.shared.u32

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4







; for (k = 0; k < n; k += 256) { tile[t] = b[k+t]; sync; for j<8: s += tile[j]; sync; }
define void @_Z5tiledPfPKfi(ptr %a, ptr %b, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %slot = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop.end ]
  %s = phi float [ 0.0, %entry ], [ %s.inner, %loop.end ]
  %kt = add i32 %k, %t
  %kt64 = zext i32 %kt to i64
  %pb = getelementptr float, ptr %b, i64 %kt64
  %v = load float, ptr %pb
  store float %v, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  br label %inner

inner:
  %j = phi i32 [ 0, %loop ], [ %j.next, %inner ]
  %acc = phi float [ %s, %loop ], [ %acc.next, %inner ]
  %j64 = zext i32 %j to i64
  %pj = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %j64
  %x = load float, ptr addrspace(3) %pj
  %acc.next = fadd float %acc, %x
  %j.next = add i32 %j, 1
  %cj = icmp ult i32 %j.next, 8
  br i1 %cj, label %inner, label %loop.end

loop.end:
  %s.inner = phi float [ %acc.next, %inner ]
  call void @llvm.nvvm.barrier0()
  %k.next = add i32 %k, 256
  %ck = icmp slt i32 %k.next, %n
  br i1 %ck, label %loop, label %exit

exit:
  %r = phi float [ 0.0, %entry ], [ %s.inner, %loop.end ]
  %pa = getelementptr float, ptr %a, i64 %t64
  store float %r, ptr %pa
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @_Z5tiledPfPKfi, !"kernel", i32 1}
