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
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh" # device_session, ab_rounds, ...
device_session verify .stage/s39v.tgz
ab_rounds def .stage/preempt_def rs .stage/preempt
aslaunched_step aslaunched_rs_log 150 "$S" 110 GMEM_LOG=sched
for K in 0 1; do
  stops_step "stops_rs_s$K" "$S" $K
done
correctness_step correctness_s3 "$S" 3
device_archive verify aslaunched_rs_log.log
