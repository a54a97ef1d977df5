#!/usr/bin/env bash
# Session 41, call 2: a candidate segment scale is timed alternately with
# the shape's own scale, three timings each, and goes on to its stop probes
# where the medians differ by more than 1% (libgmemrt's
# GMEM_PREEMPT_SEG_PAIRS=3, GMEM_PREEMPT_SEG_MARGIN=1; before: one timing
# against the own form's latest time, 2%). Runtime only: both stages hold
# the same PTX (session 40's).
#   OUT=DIR bash bench/preempt/results/session41/scale_pairs_on_device.sh
#   aslaunched_{def,sp}_rN  part aslaunched of the previous libgmemrt (def,
#                           .stage/preempt_def) and of the new one (sp,
#                           .stage/preempt_sp), alternated ROUNDS times (2)
#   aslaunched_sp_log       one more sp run with GMEM_LOG=sched
#   stops_s1                part stops of every form at segment scale 1
# GPU machine, repository root, .stage/s41b.tgz carried. Everything goes
# into $OUT/scale-pairs.tgz plus $OUT/scale-pairs.log.
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh" # device_session, ab_rounds, ...
device_session scale-pairs .stage/s41b.tgz
ab_rounds def .stage/preempt_def sp .stage/preempt_sp
aslaunched_step aslaunched_sp_log 150 .stage/preempt_sp 110 GMEM_LOG=sched
stops_step stops_s1 .stage/preempt_sp 1
device_archive scale-pairs aslaunched_sp_log.log
