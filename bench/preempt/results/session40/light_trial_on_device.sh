#!/usr/bin/env bash
# Session 40, call 4: a decided shape whose virtual CTAs take 3-6 us tries
# the light twin once, timed, and keeps it only where it beats its own form
# (libgmemrt's GMEM_PREEMPT_LIGHT_TIMED_US, default 6; runtime only: both
# stages hold the same PTX, the previous default's).
#   OUT=DIR bash bench/preempt/results/session40/light_trial_on_device.sh
#   aslaunched_{def,lt}_rN  part aslaunched of the previous libgmemrt (def,
#                           .stage/preempt_def) and of the new one (lt,
#                           .stage/preempt_lt), alternated ROUNDS times (2)
#   aslaunched_lt_log       one more lt run with GMEM_LOG=sched
#   stops                   part stops of every form (light twins included)
# GPU machine, repository root, .stage/s40d.tgz carried. Everything goes
# into $OUT/light-trial.tgz plus $OUT/light-trial.log.
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh" # device_session, ab_rounds, ...
device_session light-trial .stage/s40d.tgz
ab_rounds def .stage/preempt_def lt .stage/preempt_lt
aslaunched_step aslaunched_lt_log 150 .stage/preempt_lt 110 GMEM_LOG=sched
stops_step stops .stage/preempt_lt 0
device_archive light-trial aslaunched_lt_log.log
