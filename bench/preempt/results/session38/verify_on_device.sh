#!/usr/bin/env bash
# Session 38: the segment scale against today's default, whole overhead table.
#   OUT=DIR bash bench/preempt/results/session38/verify_on_device.sh
#   aslaunched_{ns,sc}_rN  part aslaunched of the default build (ns,
#                          .stage/preempt_def) and of the build with the
#                          scale (sc, .stage/preempt, GMEM_CHECKPOINT_SEG_SCALE=1,
#                          run with GMEM_PREEMPT_SEG_SCALE=${SEG:-3}),
#                          alternated ROUNDS times (default 2)
#   aslaunched_sc_log      one more sc run under GMEM_LOG=sched: which shapes
#                          the runtime raised, and each probe's drain
#   stops_sc_s0, _s1       part stops of sc at PB_SEG_SCALE=0 and 1 (in the
#                          same call: the stops at the scales it chose)
#   correctness_s3         forced preemption of sc at PB_SEG_SCALE=3
# GPU machine, repository root, .stage/s38v.tgz carried (a tar of .stage's
# preempt/ and preempt_def/). Everything goes into $OUT/verify.tgz plus
# $OUT/verify.log.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
OUT=${OUT:?}
. bench/preempt/device_common.sh # device_begin, step, aslaunched_step
device_begin verify
tar xzf .stage/s38v.tgz -C .stage || exit 2
for R in $(seq 1 "${ROUNDS:-2}"); do
  aslaunched_step "aslaunched_ns_r$R" 150 .stage/preempt_def 110
  aslaunched_step "aslaunched_sc_r$R" 150 .stage/preempt 110 GMEM_PREEMPT_SEG_SCALE=${SEG:-3}
done
S=.stage/preempt
aslaunched_step aslaunched_sc_log 150 "$S" 110 GMEM_LOG=sched GMEM_PREEMPT_SEG_SCALE=${SEG:-3}
for K in 0 1; do
  step "stops_sc_s$K" 70 env PB_SEG_SCALE=$K "$S/preempt_bench" stops \
    --manifest "$S/overhead_manifest.txt" --kernels "$S/kernels.ptx" --trials 60 --budget 50 \
    --json "$W/stops_sc_s$K.json"
done
step correctness_s3 120 env PB_SEG_SCALE=3 "$S/preempt_bench" correctness \
  --manifest "$S/corpus/manifest.txt" --kernels "$S/kernels.ptx" --trials 40 --budget 100 \
  --json "$W/correctness_s3.json"
grep -E "correctness: wrote|mismatch" "$W/correctness_s3.log" | tail -2 | tee -a "$LOG"
gzip -9 "$W"/*.json "$W"/aslaunched_sc_log.log 2>/dev/null
tar czf "$OUT/verify.tgz" -C "$W" . && echo "archived $OUT/verify.tgz" | tee -a "$LOG"
