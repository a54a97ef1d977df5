#!/usr/bin/env bash
# Session 47, call 6: how long the launch call holds the host (harness's
# new orig_call_us / gmem_call_us, sync and queued), release libgmemrt and
# the launch-profile build, on the six kernels of call 1, twice each.
#   OUT=DIR bash bench/preempt/results/session47/synccall_on_device.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session synccall .stage/s47.tgz
six_kernels_manifest
for r in 1 2; do
  BUDGET=40 aslaunched "base_r$r" libgmemrt.so sync_manifest.txt | tee -a "$LOG"
  BUDGET=40 aslaunched "prof_r$r" libgmemrt_prof.so sync_manifest.txt | tee -a "$LOG"
done
grep -h "gmem-profile" "$W"/aslaunched_prof_r2.log | tail -17
device_archive synccall
