#!/usr/bin/env bash
# Session 43, call 5 (measurement of an experimental pass option): paced
# in-body loops whose entries start at the s the site's last check chose
# (GMEM_CHECKPOINT_PACE_CARRY=1, per thread across entries and virtual
# CTAs) instead of at min(K, 4) trips, against this session's default
# stage (.stage/s43b/preempt). Variant built by the pass
# (bench/preempt/pass_variants.py .stage/s43e/preempt carry:GMEM_CHECKPOINT_PACE_CARRY=1).
# Part overhead, PB_SPREAD_ALL=1, three runs; part stops (60 a form, segment
# scale 0); forced preemption of the carry build over the whole corpus.
# The pass code of the variant is pace_carry.patch (on af14730; not kept).
#   OUT=DIR bash bench/preempt/results/session43/carry_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session carry .stage/s43e.tgz
variant_runs carry
step stops_carry 150 env PB_SEG_SCALE=0 "$S/preempt_bench" stops \
  --manifest "$S/var_manifest.txt" --kernels "$S/kernels.ptx" --trials 60 --budget 120 \
  --json "$W/stops_carry.json"
step correctness_carry 150 env PB_SEG_SCALE=3 "$S/preempt_bench" correctness \
  --manifest "$S/corpus/manifest_carry.txt" --kernels "$S/kernels.ptx" --trials 40 --budget 120 \
  --json "$W/correctness_carry.json"
grep -E "correctness: wrote|mismatch" "$W/correctness_carry.log" | tail -2 | tee -a "$LOG"
device_archive carry
