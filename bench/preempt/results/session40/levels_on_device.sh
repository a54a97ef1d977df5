#!/usr/bin/env bash
# Session 40, call 3: segment scale levels (static segments of K x 1, 1.5,
# 2, 3, ... 12; grid_z bits 27..31) against the powers of two alone (the
# previous default), whole overhead table as libgmemrt launches it.
#   OUT=DIR bash bench/preempt/results/session40/levels_on_device.sh
#   aslaunched_{def,lv}_rN  part aslaunched of the previous default (def,
#                           .stage/preempt_def) and of the levels (lv,
#                           .stage/preempt), alternated ROUNDS times (default 2)
#   aslaunched_lv_log       one more run of lv with GMEM_LOG=sched (the
#                           shapes' level decisions and stop probes)
# GPU machine, repository root, .stage/s40c.tgz carried (a tar of .stage's
# preempt/ and preempt_def/). Everything goes into $OUT/levels.tgz plus
# $OUT/levels.log.
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh" # device_session, ab_rounds, ...
device_session levels .stage/s40c.tgz
ab_rounds def .stage/preempt_def lv .stage/preempt
aslaunched_step aslaunched_lv_log 150 .stage/preempt 110 GMEM_LOG=sched
device_archive levels aslaunched_lv_log.log
