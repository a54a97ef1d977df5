#!/usr/bin/env bash
# Session 45, call 2: values a deferred stop's jump skips are computed again
# at the meeting point (CheckpointDeferredStop.cpp recomputeAtMeet), no phi
# with poison. `.stage/preempt` is this session's default stage (s45b); its
# var_manifest.txt adds, for every table kernel whose clones differ,
# `NAME@poison` (GMEM_CHECKPOINT_JUMP_VALUE=poison: the code before this
# session) and `NAME@cast` (call 1's default: phis, a pointer's cast
# carried by the jump).
#   part overhead x3 (PB_SPREAD_ALL=1), part stops, part aslaunched x3
#   (libgmemrt choosing forms) of the var manifest, and forced preemption of
#   every corpus instance of the changed files (new default).
#   OUT=DIR bash bench/preempt/results/session45/remat_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session remat .stage/s45b.tgz
ROUNDS=3 variant_runs remat
variant_stops stops_remat 150 120
for r in 1 2 3; do
  step "aslaunched_remat_r$r" 120 env GMEM_SCHED=1 LD_PRELOAD="$PWD/$S/lib/libgmemrt.so" \
    "$S/preempt_bench" aslaunched --manifest "$S/var_manifest.txt" --kernels "$S/kernels.ptx" \
    --budget 100 --json "$W/aslaunched_remat_r$r.json"
done
manifest_correctness correctness_remat "$S/corpus/changed_manifest.txt" 240 200
device_archive remat
