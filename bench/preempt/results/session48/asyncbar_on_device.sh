#!/usr/bin/env bash
# Session 48, call 5: every-trip (cached) loop checks refreshed by a cp.async
# into the cache (nobody waiting; the refresher tests the value cached
# before), the copies waited for before the forms' barriers instead of at
# their returns (a wait at a return cost ptxas 8 registers). Hand variants
# (asyncbar, /tmp/clock_variants.py in the session's notes) of im2col's and
# gemv_warp's alternate forms and kmeans_assign's and stencil3d's full
# clones, beside the forms as built and refresh0: part overhead (five
# rounds), part stops (60 a form) and forced preemption.
#   OUT=DIR bash bench/preempt/results/session48/asyncbar_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session asyncbar .stage/c48e.tgz
S=.stage/d48/preempt
chmod +x "$S/preempt_bench"
for r in 1 2 3 4 5; do
  step "overhead_async_r$r" 100 env PB_SPREAD_ALL=1 "$S/preempt_bench" overhead \
    --manifest "$S/var_async.txt" --kernels "$S/kernels.ptx" --budget 60 \
    --json "$W/overhead_async_r$r.json"
done
step stops_async 150 env PB_SEG_SCALE=0 "$S/preempt_bench" stops \
  --manifest "$S/var_async.txt" --kernels "$S/kernels.ptx" --trials 60 --budget 120 \
  --json "$W/stops_async.json"
step correctness_async 150 env PB_SEG_SCALE=3 "$S/preempt_bench" correctness \
  --manifest "$S/var_async.txt" --kernels "$S/kernels.ptx" --trials 60 --budget 120 \
  --json "$W/correctness_async.json"
grep -E "correctness: wrote|mismatch" "$W/correctness_async.log" | tail -2 | tee -a "$LOG"
device_archive asyncbar
