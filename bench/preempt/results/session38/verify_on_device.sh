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
. bench/preempt/device_common.sh # device_unpack, ab_rounds, stops_step, ...
device_unpack verify .stage/s38v.tgz
ab_rounds ns .stage/preempt_def sc .stage/preempt GMEM_PREEMPT_SEG_SCALE=${SEG:-3}
S=.stage/preempt
aslaunched_step aslaunched_sc_log 150 "$S" 110 GMEM_LOG=sched GMEM_PREEMPT_SEG_SCALE=${SEG:-3}
for K in 0 1; do
  stops_step "stops_sc_s$K" "$S" $K
done
correctness_step correctness_s3 "$S" 3
device_archive verify aslaunched_sc_log.log
