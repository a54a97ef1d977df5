#!/usr/bin/env bash
# Session 47, call 7: the launch-path profile (libgmemrt_prof.so) of sync
# launches alone (PB_VARIANTS=01) and of queued launches alone
# (PB_VARIANTS=23), on the six kernels of call 1.
#   OUT=DIR bash bench/preempt/results/session47/syncsplit_on_device.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session syncsplit .stage/s47.tgz
six_kernels_manifest
BUDGET=40 aslaunched "sync" libgmemrt_prof.so sync_manifest.txt PB_VARIANTS=01 | tee -a "$LOG"
BUDGET=40 aslaunched "queued" libgmemrt_prof.so sync_manifest.txt PB_VARIANTS=23 | tee -a "$LOG"
for m in sync queued; do
  echo "--- $m"
  grep -h "gmem-profile" "$W/aslaunched_$m.log" | awk '/after/{n++} n>0' | tail -17
done
device_archive syncsplit
