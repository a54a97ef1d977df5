#!/usr/bin/env bash
# Session 50, call 2: why im2col kept its own grid in call 1: its launches
# alone through this session's libgmemrt with GMEM_LOG=sched (every timing
# and the chooser's verdict), auto then one trip forced; the other three
# grid-stride kernels of the table under auto, logged too.
#   OUT=DIR bash bench/preempt/results/session50/im2col_log_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session im2col .stage/s50b.tgz
S=.stage/s49/preempt
chmod +x "$S/preempt_bench"
BUDGET=25 aslaunched im2col_auto libgmemrt_s50.so im2col_manifest.txt GMEM_LOG=sched | tee -a "$LOG"
BUDGET=25 aslaunched im2col_t1 libgmemrt_s50.so im2col_manifest.txt GMEM_LOG=sched GMEM_PREEMPT_GRID_STRIDE=1 | tee -a "$LOG"
BUDGET=40 aslaunched gs3_auto libgmemrt_s50.so gs3_manifest.txt GMEM_LOG=sched | tee -a "$LOG"
for f in "$W"/aslaunched_*.log; do grep -c 'took' "$f"; gzip -9 "$f"; done
device_archive im2col
