#!/usr/bin/env bash
# Session 47, call 1: where the host's launch path goes in part aslaunched's
# sync column (the stream idle at each launch). libgmemrt built with
# -DGMEMRT_LAUNCH_PROFILE=ON (per-stage means on stderr at exit) beside the
# release library, alternated, on six kernels of the overhead manifest.
#   OUT=DIR bash bench/preempt/results/session47/syncpath_on_device.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session syncpath .stage/s47.tgz
six_kernels_manifest
wc -l "$S/sync_manifest.txt" | tee -a "$LOG"
# Control: no libgmemrt at all, so both columns launch the kernel as
# compiled, on the legacy stream and on the harness's best-effort stream:
# what the stream alone adds to each column.
nolib() {
  echo "=== aslaunched nolib_r$1"
  timeout 200 "$S/preempt_bench" aslaunched --manifest "$S/sync_manifest.txt" \
    --kernels "$S/kernels.ptx" --budget 40 --json "$W/aslaunched_nolib_r$1.json" \
    > "$W/aslaunched_nolib_r$1.log" 2>&1
  echo "exit $?"
}
for r in 1 2; do
  BUDGET=40 aslaunched "rel_r$r" libgmemrt.so sync_manifest.txt | tee -a "$LOG"
  BUDGET=40 aslaunched "prof_r$r" libgmemrt_prof.so sync_manifest.txt | tee -a "$LOG"
  nolib "$r" | tee -a "$LOG"
done
grep -h "gmem-profile" "$W"/aslaunched_prof_r*.log
device_archive syncpath
