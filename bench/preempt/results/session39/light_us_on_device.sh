#!/usr/bin/env bash
# Session 39, call 5: the light twin for shapes whose virtual CTAs take up
# to 6 us (GMEM_PREEMPT_LIGHT_US=6) against the default 3 us, whole overhead
# table, the new default build (.stage/preempt), runtime setting only.
#   OUT=DIR bash bench/preempt/results/session39/light_us_on_device.sh
#   aslaunched_{def,l6}_rN  part aslaunched, alternated ROUNDS times (default 2)
#   aslaunched_l6_log       one more l6 run under GMEM_LOG=sched
# GPU machine, repository root, .stage/s39l.tgz carried (a tar of .stage's
# preempt/). Everything goes into $OUT/light.tgz plus $OUT/light.log.
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh" # device_session, ab_rounds, ...
device_session light .stage/s39l.tgz
ab_rounds def "$S" l6 "$S" GMEM_PREEMPT_LIGHT_US=6
aslaunched_step aslaunched_l6_log 150 "$S" 110 GMEM_PREEMPT_LIGHT_US=6 GMEM_LOG=sched
device_archive light aslaunched_l6_log.log
