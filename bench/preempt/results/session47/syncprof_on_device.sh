#!/usr/bin/env bash
# Session 47, call 2: the launch-path profile (libgmemrt_prof.so, built with
# -DGMEMRT_LAUNCH_PROFILE=ON, prints per-stage means every power of two of
# gated launches) in part aslaunched on the six kernels of call 1.
#   OUT=DIR bash bench/preempt/results/session47/syncprof_on_device.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session syncprof .stage/s47.tgz
six_kernels_manifest
BUDGET=40 aslaunched prof_r1 libgmemrt_prof.so sync_manifest.txt | tee -a "$LOG"
grep -h "gmem-profile" "$W"/aslaunched_prof_r1.log | tail -20
device_archive syncprof
