#!/usr/bin/env bash
# Session 49, call 8: one more side-by-side round of the overhead table as
# launched, GMEM_PREEMPT_GRID_STRIDE=auto (the default) against 0, with the
# final libgmemrt (call 4's stage .stage/s49f.tgz; the code since changed
# only tests, comments and a test script).
#   OUT=DIR bash bench/preempt/results/session49/final_ab_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session finalab .stage/s49f.tgz
S=.stage/s49/preempt
chmod +x "$S/preempt_bench"
BUDGET=80 aslaunched off_r2 libgmemrt.so overhead_manifest.txt GMEM_PREEMPT_GRID_STRIDE=0 | tee -a "$LOG"
BUDGET=80 aslaunched auto_r2 libgmemrt.so overhead_manifest.txt | tee -a "$LOG"
device_archive finalab
