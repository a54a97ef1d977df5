#!/usr/bin/env bash
# Session 47, call 3: the sync column by the host's clock (orig_host_ms,
# gmem_host_ms: mark to synchronised end, as a program that waits for each
# kernel sees it) beside the GPU events, and with PB_FLUSH_START=1 (a stream
# query right after the start mark in both kinds of launch), on the six
# kernels of call 1; release libgmemrt and no libgmemrt, alternated.
#   OUT=DIR bash bench/preempt/results/session47/synchost_on_device.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session synchost .stage/s47.tgz
six_kernels_manifest
nolib() {
  echo "=== aslaunched nolib_$1"
  env "${@:2}" timeout 200 "$S/preempt_bench" aslaunched --manifest "$S/sync_manifest.txt" \
    --kernels "$S/kernels.ptx" --budget 40 --json "$W/aslaunched_nolib_$1.json" \
    > "$W/aslaunched_nolib_$1.log" 2>&1
  echo "exit $?"
}
for r in 1 2; do
  BUDGET=40 aslaunched "rel_r$r" libgmemrt.so sync_manifest.txt | tee -a "$LOG"
  BUDGET=40 aslaunched "relflush_r$r" libgmemrt.so sync_manifest.txt PB_FLUSH_START=1 | tee -a "$LOG"
  nolib "r$r" PB_X=0 | tee -a "$LOG"
  nolib "flush_r$r" PB_FLUSH_START=1 | tee -a "$LOG"
done
device_archive synchost
