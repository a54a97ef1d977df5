#!/usr/bin/env bash
# Session 41, call 1 (diagnostics, nothing kept from it by itself):
#  - the SASS of the staged corpus cubins of the kernels with the largest
#    overhead left (cuobjdump -sass: no disassembler on the build machine);
#  - part overhead of those kernels with PB_SPREAD_ALL=1: every form also at
#    4x its resident CTAs (one virtual CTA per CTA where that covers the
#    grid), to tell a form's body cost from its static virtual-CTA order;
#  - Nsight Compute of kmeans_assign (original, full clone, light twin).
#   OUT=DIR bash bench/preempt/results/session41/diag_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session diag .stage/s41a.tgz
S=.stage/preempt
CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
mkdir -p "$W/sass"
for f in kmeans im2col scan softmax gemm iota reduction bitonic_sort embedding layernorm optimizer; do
  timeout 30 "$CUOBJ" -sass "$S/corpus/ptx/$f.cubin" > "$W/sass/$f.sass" 2>&1
done
echo "sass: $(ls "$W/sass" | wc -l) files" | tee -a "$LOG"
for r in 1; do
  step overhead_sall_r$r 150 env PB_SPREAD_ALL=1 "$S/preempt_bench" overhead \
    --manifest "$S/overhead_sub.txt" --kernels "$S/kernels.ptx" --budget 110 \
    --json "$W/overhead_sall_r$r.json"
done
ncu_step 200 _Z13kmeans_assignPKfS0_Piiii
gzip -9 "$W"/sass/*.sass 2>/dev/null
device_archive diag
