#!/usr/bin/env bash
# Session 39, call 2: the request cache's refresh period under the segment scale
# (1024 << s cycles; GMEM_CHECKPOINT_REFRESH_SCALE) against the previous
# default (a fixed 1024), whole overhead table, one device call.
#   OUT=DIR bash bench/preempt/results/session39/refresh_scale_on_device.sh
#   aslaunched_{def,rs}_rN  part aslaunched of the previous default (def,
#                           .stage/preempt_def, GMEM_CHECKPOINT_REFRESH_SCALE=0
#                           at stage time) and of the new one (rs,
#                           .stage/preempt), alternated ROUNDS times (default 2)
#   aslaunched_rs_log       one more rs run under GMEM_LOG=sched: which shapes
#                           the runtime raised, and each probe's drain
#   stops_rs_s0, _s1        part stops of rs at PB_SEG_SCALE=0 and 1
#   correctness_s3          forced preemption of rs at PB_SEG_SCALE=3
# GPU machine, repository root, .stage/s39v.tgz carried (a tar of .stage's
# preempt/ and preempt_def/). Everything goes into $OUT/verify.tgz plus
# $OUT/verify.log.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
OUT=${OUT:?}
. bench/preempt/device_common.sh # device_begin, step, aslaunched_step
device_begin verify
tar xzf .stage/s39v.tgz -C .stage || exit 2
for R in $(seq 1 "${ROUNDS:-2}"); do
  aslaunched_step "aslaunched_def_r$R" 150 .stage/preempt_def 110
  aslaunched_step "aslaunched_rs_r$R" 150 .stage/preempt 110
done
S=.stage/preempt
aslaunched_step aslaunched_rs_log 150 "$S" 110 GMEM_LOG=sched
for K in 0 1; do
  step "stops_rs_s$K" 70 env PB_SEG_SCALE=$K "$S/preempt_bench" stops \
    --manifest "$S/overhead_manifest.txt" --kernels "$S/kernels.ptx" --trials 60 --budget 50 \
    --json "$W/stops_rs_s$K.json"
done
step correctness_s3 120 env PB_SEG_SCALE=3 "$S/preempt_bench" correctness \
  --manifest "$S/corpus/manifest.txt" --kernels "$S/kernels.ptx" --trials 40 --budget 100 \
  --json "$W/correctness_s3.json"
grep -E "correctness: wrote|mismatch" "$W/correctness_s3.log" | tail -2 | tee -a "$LOG"
gzip -9 "$W"/*.json "$W"/aslaunched_rs_log.log 2>/dev/null
tar czf "$OUT/verify.tgz" -C "$W" . && echo "archived $OUT/verify.tgz" | tee -a "$LOG"
