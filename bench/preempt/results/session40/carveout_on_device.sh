#!/usr/bin/env bash
# Session 40, call 1: does the L1/shared split the driver picks for a clone
# (a few bytes of static shared memory more than its kernel) cost it?
# Part overhead of the whole table with the preferred carveout left to the
# driver, at 0 (most L1) for every function, and at 0 for the clones only
# (harness knob PB_CARVEOUT); then one as-launched round each of the
# default and GMEM_PREEMPT_CARVEOUT=0 (libgmemrt sets it on every clone form;
# that knob is carveout_runtime.patch, staged for this call, not in the tree).
#   OUT=DIR bash bench/preempt/results/session40/carveout_on_device.sh
# GPU machine, repository root; .stage/s40.tgz holds .stage/preempt.
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh" # device_session, ab_rounds, ...
device_session carveout .stage/s40.tgz
overhead_step overhead_def_r1 $S
overhead_step overhead_all0_r1 $S PB_CARVEOUT=0
overhead_step overhead_cl0_r1 $S PB_CARVEOUT=clones:0
overhead_step overhead_def_r2 $S
overhead_step overhead_cl0_r2 $S PB_CARVEOUT=clones:0
overhead_step overhead_all0_r2 $S PB_CARVEOUT=0
grep -h "^carveout" "$W/overhead_all0_r1.log" | sort -u > "$W/carveout_functions.txt"
ROUNDS=1 ab_rounds def $S cv $S GMEM_PREEMPT_CARVEOUT=0
device_archive carveout carveout_functions.txt
