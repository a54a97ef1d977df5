#!/usr/bin/env bash
# Session 41, call 4: the clones read their control block at GPU scope
# (ld.relaxed.gpu.global, CheckpointIR.cpp loadControlWord) instead of with
# ld.volatile.global (a system-scope strong load in SASS). Both stages carry
# the new libgmemrt (the paired scale timings of call 2):
#   sp  .stage/preempt_sp: the PTX of the calls before (session 40's)
#   gs  .stage/preempt_gs: python3 bench/preempt/stage.py --build-dir build
#       --out .stage/s41d/preempt_gs on this session's plugin
#   aslaunched_{sp,gs}_rN  part aslaunched, alternated ROUNDS times (2)
#   aslaunched_gs_log      one more gs run with GMEM_LOG=sched
#   correctness_gs         forced preemption over gs's corpus (bit-exact)
#   stops_gs               part stops of every form of gs
#   OUT=DIR bash bench/preempt/results/session41/scope_on_device.sh
# GPU machine, repository root, .stage/s41e.tgz carried. Everything goes
# into $OUT/scope.tgz plus $OUT/scope.log.
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh" # device_session, ab_rounds, ...
device_session scope .stage/s41e.tgz
ab_rounds sp .stage/preempt_sp gs .stage/preempt_gs
aslaunched_step aslaunched_gs_log 150 .stage/preempt_gs 110 GMEM_LOG=sched
correctness_step correctness_gs .stage/preempt_gs 0
stops_step stops_gs .stage/preempt_gs 0
device_archive scope aslaunched_gs_log.log
