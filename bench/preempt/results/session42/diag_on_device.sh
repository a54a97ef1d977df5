#!/usr/bin/env bash
# Session 42, call 1 (diagnostics, measurement only):
#  - part overhead with PB_SPREAD_ALL=1 (every form at 1x and 4x its
#    resident CTAs), three runs, of 17 kernels with the most overhead left
#    beside two PTX variants of each (bench/preempt/ptx_variants.py
#    --variants nomeet,entry0 on session 41's final stage; var/*/*.cubin
#    assembled with ptxas -arch=sm_90 on the build machine):
#      nomeet  the deferred stops' meeting barriers as predicate moves
#      entry0  every persistent CTA's entry reads of its redo/resume words
#              as `mov 0` (what a first launch reads there)
#  - Nsight Compute of softmax_rows's launches (original and its forms).
#   OUT=DIR bash bench/preempt/results/session42/diag_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session diag .stage/s42a.tgz
for r in 1 2 3; do
  step overhead_var_r$r 120 env PB_SPREAD_ALL=1 "$S/preempt_bench" overhead \
    --manifest "$S/var_manifest.txt" --kernels "$S/kernels.ptx" --budget 90 \
    --json "$W/overhead_var_r$r.json"
done
ncu_step 200 _Z12softmax_rowsPKfPfii 0 8
device_archive diag
