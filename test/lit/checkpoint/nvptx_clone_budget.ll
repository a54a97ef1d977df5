; A clone adds a few words of static shared memory and four parameters
; (20 bytes). A kernel already at a limit gets no clone
; (CheckpointCloneBudget.cpp): ptxas would reject the clones, and with them
; the module. Static shared memory: 48 KB. Parameters: 32,764 bytes where
; the PTX ISA is 8.1 or newer on sm_70 or newer, else 4 KB. One with room
; left keeps its clones (ptxas -v by hand: 48,128 bytes for the kernel,
; at most 48,152 for a clone).
; RUN: opt -load-pass-plugin=%gmem_plugin -passes=gmem-checkpoint -pass-remarks-analysis=gmem-checkpoint \
; RUN:   -S %s -o %t.ll 2> %t.remarks
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=NO < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: llc -mcpu=sm_90 -mattr=+ptx85 < %t.ll | FileCheck %s --check-prefix=PTX

; CHECK: define void @__gmem_pre_room_left(
; PTX: .entry __gmem_pre_room_left(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_at_limit(
; NO: !nvvm.annotations
; CHECK: define void @__gmem_pre_params_4k_new_ptx(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_params_32k(
; NO-NOT: define {{.*}}@__gmem_{{pr.}}_params_4k_old_ptx(
; REMARK-DAG: remark: {{.*}}no preemptible clone: its static shared memory (49152 bytes) leaves no room under the 48 KB limit for the clone's own words
; REMARK-DAG: remark: {{.*}}no preemptible clone: its parameters (32764 bytes) leave no room under the 32764-byte limit for the clone's own
; REMARK-DAG: remark: {{.*}}no preemptible clone: its parameters (4088 bytes) leave no room under the 4096-byte limit for the clone's own

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@full = internal addrspace(3) global [12288 x float] undef, align 4
@most = internal addrspace(3) global [12032 x float] undef, align 4

define void @at_limit(ptr %out) #0 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %t to i64
  %p = getelementptr inbounds [12288 x float], ptr addrspace(3) @full, i64 0, i64 %te
  store float 1.0, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier0()
  %q = getelementptr inbounds [12288 x float], ptr addrspace(3) @full, i64 0, i64 12287
  %v = load float, ptr addrspace(3) %q, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

define void @room_left(ptr %out) #0 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %t to i64
  %p = getelementptr inbounds [12032 x float], ptr addrspace(3) @most, i64 0, i64 %te
  store float 1.0, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier0()
  %q = getelementptr inbounds [12032 x float], ptr addrspace(3) @most, i64 0, i64 12031
  %v = load float, ptr addrspace(3) %q, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

%Big = type { [8188 x float] }
%Mid = type { [1020 x float] }

; 32,752 bytes of struct + a pointer + an int: 32,764, the limit.
define void @params_32k(ptr byval(%Big) align 4 %b, ptr %out, i32 %n) #1 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %t to i64
  %p = getelementptr inbounds %Big, ptr %b, i64 0, i32 0, i64 %te
  %v = load float, ptr %p, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

; 4,080 + 8 bytes: room under 32,764 with PTX 8.5, none under 4 KB before 8.1.
define void @params_4k_new_ptx(ptr byval(%Mid) align 4 %b, ptr %out) #1 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %t to i64
  %p = getelementptr inbounds %Mid, ptr %b, i64 0, i32 0, i64 %te
  %v = load float, ptr %p, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

define void @params_4k_old_ptx(ptr byval(%Mid) align 4 %b, ptr %out) #2 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %t to i64
  %p = getelementptr inbounds %Mid, ptr %b, i64 0, i32 0, i64 %te
  %v = load float, ptr %p, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %te
  store float %v, ptr %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" }
attributes #2 = { "target-cpu"="sm_90" "target-features"="+ptx78,+sm_90" }

!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{ptr @at_limit, !"kernel", i32 1}
!1 = !{ptr @room_left, !"kernel", i32 1}
!2 = !{ptr @params_32k, !"kernel", i32 1}
!3 = !{ptr @params_4k_new_ptx, !"kernel", i32 1}
!4 = !{ptr @params_4k_old_ptx, !"kernel", i32 1}
