#!/usr/bin/env bash
# Session 41, call 3 (measurement only):
#  - part overhead, twice, of the overhead table beside its `relaxed` PTX
#    variant (bench/preempt/ptx_variants.py --variants relaxed: every
#    volatile 32-bit global load of every form at GPU scope instead of
#    ptxas's system scope; var/relaxed/*.cubin assembled with ptxas
#    -arch=sm_90 on the build machine), each variant its own instance,
#    timed against its own kernel in the same run;
#  - Nsight Compute of kmeans_assign's original, full clone and light twin
#    (the harness's first three launches).
#   OUT=DIR bash bench/preempt/results/session41/relaxed_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session relaxed .stage/s41c.tgz
for r in 1 2; do
  step overhead_rel_r$r 170 "$S/preempt_bench" overhead --manifest "$S/var_manifest.txt" \
    --kernels "$S/kernels.ptx" --budget 130 --json "$W/overhead_rel_r$r.json"
done
ncu_step 150 _Z13kmeans_assignPKfS0_Piiii 0 3
device_archive relaxed
