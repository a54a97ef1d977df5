#!/usr/bin/env bash
# Session 47, call 4: what the sync column's extra ~20 us is made of, on the
# six kernels of call 1 (release libgmemrt; each variant twice, alternated):
#   kick: GMEM_SCHED_KICK=1, a stream query right after the clone's launch
#         call (does the driver hold the launch back until a later call?)
#   rel0: GMEM_SCHED_RELEASES=0, no finished block zeroed on the side
#         stream behind each launch (does that memset delay the clone?)
# and the harness's new orig_ops_sync_ms: the kernel as compiled with the
# clone's stream operations behind it, on an idle stream.
# (The GMEM_SCHED_* knobs were a diagnostics build: diag_knobs.patch.)
#   OUT=DIR bash bench/preempt/results/session47/synckick_on_device.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session synckick .stage/s47.tgz
six_kernels_manifest
for r in 1 2; do
  BUDGET=40 aslaunched "base_r$r" libgmemrt.so sync_manifest.txt | tee -a "$LOG"
  BUDGET=40 aslaunched "kick_r$r" libgmemrt.so sync_manifest.txt GMEM_SCHED_KICK=1 | tee -a "$LOG"
  BUDGET=40 aslaunched "rel0_r$r" libgmemrt.so sync_manifest.txt GMEM_SCHED_RELEASES=0 | tee -a "$LOG"
  BUDGET=40 aslaunched "both_r$r" libgmemrt.so sync_manifest.txt GMEM_SCHED_RELEASES=0 GMEM_SCHED_KICK=1 | tee -a "$LOG"
done
device_archive synckick
