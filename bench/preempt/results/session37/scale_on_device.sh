#!/usr/bin/env bash
# Session 37: the segment scale (flag SegmentScale; runtime/src/CloneScale.cpp).
#   OUT=DIR bash bench/preempt/results/session37/scale_on_device.sh ab
#     part aslaunched, the stage built without the flag ("ns": today's
#     segments) and the one built with GMEM_CHECKPOINT_SEG_SCALE=1 ("sc",
#     run with GMEM_PREEMPT_SEG_SCALE=${SEG:-3}: libgmemrt picks a scale per
#     shape) alternated ROUNDS times (default 2); part stops of sc at
#     PB_SEG_SCALE=0..3 and of ns (NOSTOPS=1: none); LOGGED=1: one more sc
#     run under GMEM_LOG=sched.
#   (This session's calls ran the stages as they were then: the flag and the
#   runtime's scale were the default, and ns was built with
#   GMEM_CHECKPOINT_SEG_SCALE=0; the runs are the same.)
#   OUT=DIR bash bench/preempt/results/session37/scale_on_device.sh verify
#     part correctness of sc at PB_SEG_SCALE=3 (forced preemption, every
#     instance's output against an unpreempted run), then the runtime GPU
#     suite (test/runtime/gpu, its stage from .stage/rt.tgz) under the
#     default scale.
# GPU machine, repository root, .stage/s37.tgz carried: a tar of .stage's
# preempt/ (`GMEM_CHECKPOINT_SEG_SCALE=1 python3 bench/preempt/stage.py
# --build-dir build --out .stage/preempt`) and preempt_ns/ (the same without
# the variable, `--out .stage/preempt_ns`); verify also .stage/rt.tgz, a tar
# of .stage/runtime (`GMEM_CHECKPOINT_SEG_SCALE=1 python3
# test/runtime/gpu/stage.py --build-dir build`; the suite then runs with
# GMEM_PREEMPT_SEG_SCALE=${SEG:-3}). Everything goes into
# $OUT/scale_MODE.tgz plus $OUT/scale_MODE.log.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
OUT=${OUT:?} MODE=${1:?ab or verify}
. bench/preempt/device_common.sh # device_begin, step, aslaunched_step
device_begin "scale_$MODE"
tar xzf .stage/s37.tgz -C .stage || exit 2
chmod +x .stage/preempt/preempt_bench .stage/preempt_ns/preempt_bench
if [ "$MODE" = ab ]; then
  for R in $(seq 1 "${ROUNDS:-2}"); do
    for L in ns sc; do
      S=.stage/preempt; [ $L = ns ] && S=.stage/preempt_ns
      aslaunched_step "aslaunched_${L}_r$R" 150 "$S" 110 GMEM_PREEMPT_SEG_SCALE=${SEG:-3}
    done
  done
  S=.stage/preempt
  # The runtime's own account of one run (GMEM_LOG=sched: each timing, probe
  # and verdict), apart from the timed rounds: logging costs host time.
  [ -n "${LOGGED:-}" ] && aslaunched_step aslaunched_sc_log 150 "$S" 110 GMEM_LOG=sched \
    GMEM_PREEMPT_SEG_SCALE=${SEG:-3}
  [ -n "${NOSTOPS:-}" ] || for K in 0 1 2 3; do
    step "stops_sc_s$K" 60 env PB_SEG_SCALE=$K "$S/preempt_bench" stops \
      --manifest "$S/overhead_manifest.txt" --kernels "$S/kernels.ptx" --trials 60 --budget 45 \
      --json "$W/stops_sc_s$K.json"
  done
  S=.stage/preempt_ns
  [ -n "${NOSTOPS:-}" ] || step stops_ns 60 "$S/preempt_bench" stops --manifest "$S/overhead_manifest.txt" \
    --kernels "$S/kernels.ptx" --trials 60 --budget 45 --json "$W/stops_ns.json"
else
  S=.stage/preempt
  step correctness_s3 260 env PB_SEG_SCALE=3 "$S/preempt_bench" correctness \
    --manifest "$S/corpus/manifest.txt" --kernels "$S/kernels.ptx" --trials 40 --budget 200 \
    --json "$W/correctness_s3.json"
  grep -E "correctness: wrote|mismatch" "$W/correctness_s3.log" | tail -3 | tee -a "$LOG"
  if [ -f .stage/rt.tgz ]; then
    tar xzf .stage/rt.tgz -C .stage || exit 2
    GMEM_PREEMPT_SEG_SCALE=${SEG:-3} runtime_suite 300 | tee -a "$LOG"
  fi
fi
gzip -9 "$W"/*.json "$W"/aslaunched_sc_log.log 2>/dev/null
tar czf "$OUT/scale_$MODE.tgz" -C "$W" . && echo "archived $OUT/scale_$MODE.tgz" | tee -a "$LOG"
