#!/usr/bin/env bash
# Session 47, call 5: is the side-stream zeroing of released control blocks,
# issued right behind each clone, what costs the sync column its ~20 us? On
# the six kernels of call 1 (release libgmemrt; each variant twice,
# alternated):
#   before: GMEM_SCHED_RELEASE_BEFORE=1, blocks given back (their memset
#           queued on the side stream) before the clone's launch call
#   high:   GMEM_SCHED_ZERO_PRIO=high, that side stream at the greatest
#           priority instead of the least
# (The GMEM_SCHED_* knobs were a diagnostics build: diag_knobs.patch.)
#   OUT=DIR bash bench/preempt/results/session47/syncrel_on_device.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session syncrel .stage/s47.tgz
six_kernels_manifest
for r in 1 2; do
  BUDGET=40 aslaunched "base_r$r" libgmemrt.so sync_manifest.txt | tee -a "$LOG"
  BUDGET=40 aslaunched "before_r$r" libgmemrt.so sync_manifest.txt GMEM_SCHED_RELEASE_BEFORE=1 | tee -a "$LOG"
  BUDGET=40 aslaunched "high_r$r" libgmemrt.so sync_manifest.txt GMEM_SCHED_ZERO_PRIO=high | tee -a "$LOG"
done
device_archive syncrel
