#!/usr/bin/env bash
# Session 41, call 5: the GPU-scope request reads as committed (only the
# request word; a CTA's entry words stay volatile loads: the PTX then equals
# call 3's `relaxed` variant but for register numbers), both stages with the
# new libgmemrt (paired scale timings):
#   sp  .stage/preempt_sp: session 40's PTX
#   gs  .stage/preempt_gs: python3 bench/preempt/stage.py --build-dir build
#       --out .stage/s41d/preempt_gs on the final plugin
#   aslaunched_{sp,gs}_rN  part aslaunched, alternated ROUNDS times (2)
#   correctness_gs         forced preemption over gs's corpus (bit-exact)
#   stops_gs               part stops of every form of gs
#   runtime/               the runtime GPU suite (test/runtime/gpu, staged
#                          by test/runtime/gpu/stage.py --build-dir build)
#   OUT=DIR bash bench/preempt/results/session41/final_on_device.sh
# GPU machine, repository root, .stage/s41f.tgz and .stage/rt.tgz carried.
# Everything goes into $OUT/final.tgz plus $OUT/final.log.
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh" # device_session, ab_rounds, ...
device_session final .stage/s41f.tgz
ab_rounds sp .stage/preempt_sp gs .stage/preempt_gs
correctness_step correctness_gs .stage/preempt_gs 0
stops_step stops_gs .stage/preempt_gs 0
tar xzf .stage/rt.tgz -C .stage || exit 2
runtime_suite 240 | tee -a "$LOG"
device_archive final
