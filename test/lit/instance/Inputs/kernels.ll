; Small NVPTX kernels shared by the instance-mode tests (not a test itself:
; lit.cfg.py excludes Inputs/).
;
;   vadd(n, a, b, c):   if (i < n) c[i] = a[i] + b[i]
;   gather(n, idx, a, out): if (i < n) out[i] = a[idx[i]]
;   shift(n, buf):      if (i < n) buf[i + n] = buf[i]
;   uscale(n, x, y):    unsigned i, n; if (i < n) y[i] = 2 * x[i]
;   count(n, hist):     if (i < n) atomicAdd(&hist[i], 1)
;   masked(out):        out[i & 15] = 1
; with i = blockIdx.x * blockDim.x + threadIdx.x (unsigned arithmetic, as
; clang emits it for CUDA).

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @vadd(i32 %n, ptr %a, ptr %b, ptr %c) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit

body:
  %idx = sext i32 %i to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %idx
  %va = load float, ptr %pa, align 4
  %pb = getelementptr inbounds float, ptr %b, i64 %idx
  %vb = load float, ptr %pb, align 4
  %s = fadd float %va, %vb
  %pc = getelementptr inbounds float, ptr %c, i64 %idx
  store float %s, ptr %pc, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @gather(i32 %n, ptr %idx, ptr %a, ptr %out) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit

body:
  %ie = sext i32 %i to i64
  %pidx = getelementptr inbounds i32, ptr %idx, i64 %ie
  %j = load i32, ptr %pidx, align 4
  %je = sext i32 %j to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %je
  %v = load float, ptr %pa, align 4
  %po = getelementptr inbounds float, ptr %out, i64 %ie
  store float %v, ptr %po, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @shift(i32 %n, ptr %buf) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit

body:
  %ie = sext i32 %i to i64
  %pr = getelementptr inbounds float, ptr %buf, i64 %ie
  %v = load float, ptr %pr, align 4
  %j = add nsw i32 %i, %n
  %je = sext i32 %j to i64
  %pw = getelementptr inbounds float, ptr %buf, i64 %je
  store float %v, ptr %pw, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @uscale(i32 %n, ptr %x, ptr %y) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %in = icmp ult i32 %i, %n
  br i1 %in, label %body, label %exit

body:
  %ie = zext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %ie
  %v = load float, ptr %px, align 4
  %m = fmul float %v, 2.0
  %py = getelementptr inbounds float, ptr %y, i64 %ie
  store float %m, ptr %py, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; count(n, hist): if (i < n) atomicAdd(&hist[i], 1)
define ptx_kernel void @count(i32 %n, ptr %hist) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit

body:
  %ie = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %hist, i64 %ie
  %old = atomicrmw add ptr %p, i32 1 monotonic, align 4
  br label %exit

exit:
  ret void
}

; masked(out): out[i & 15] = 1
define ptx_kernel void @masked(ptr %out) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %slot = and i32 %i, 15
  %se = zext i32 %slot to i64
  %p = getelementptr inbounds i32, ptr %out, i64 %se
  store i32 1, ptr %p, align 4
  ret void
}
