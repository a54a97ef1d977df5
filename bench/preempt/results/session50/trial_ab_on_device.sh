#!/usr/bin/env bash
# Session 50, call 1: the overhead table as launched through session 49's
# final libgmemrt (libgmemrt.so) and this session's (libgmemrt_s50.so: the
# light trial right after a shape's decision; the grid-stride tuner judges
# a grid once the chooser has settled it), alternated, two rounds each.
# The PTX is session 49's (.stage/s49, unchanged since); .stage/s50a.tgz.
#   OUT=DIR bash bench/preempt/results/session50/trial_ab_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session trialab .stage/s50a.tgz
S=.stage/s49/preempt
chmod +x "$S/preempt_bench"
for R in 1 2; do
  BUDGET=80 aslaunched old_r$R libgmemrt.so overhead_manifest.txt | tee -a "$LOG"
  BUDGET=80 aslaunched new_r$R libgmemrt_s50.so overhead_manifest.txt | tee -a "$LOG"
done
device_archive trialab
