#!/usr/bin/env bash
# Session 44, call 6: the kernel holds its stream (info flag HoldsStream,
# docs/PREEMPTION_DESIGN.md). Part aslaunched, three configurations
# alternated, two rounds:
#   wait: session 43's stage (.stage/preempt_old: its PTX and libgmemrt,
#         this session's preempt_bench)
#   hold: this session's stage (.stage/preempt: `python3 bench/preempt/
#         stage.py --build-dir build --out .stage/s44d/preempt`), libgmemrt
#         puts no wait behind clones whose kernel has the flag
#   kwait: the same stage with GMEM_SCHED_HOLD=wait (the flag's code in the
#         clones, the wait kept): what the code costs without its use
#   OUT=DIR bash bench/preempt/results/session44/hold_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session hold .stage/s44e.tgz
for r in 1 2; do
  aslaunched_step "aslaunched_wait_r$r" 150 .stage/preempt_old 120
  aslaunched_step "aslaunched_hold_r$r" 150 .stage/preempt 120
  aslaunched_step "aslaunched_kwait_r$r" 150 .stage/preempt 120 GMEM_SCHED_HOLD=wait
done
device_archive hold
