#!/usr/bin/env bash
# Session 47, call 16: the final library (recycle by bisection, the pool's
# zeroing told by a host counter on the side stream; done events kept)
# against session 46's (`old`) on the six kernels of call 1, sync and
# queued launches only (PB_VARIANTS=0123), alternated, two rounds; then the
# runtime GPU suite with the final library.
#   OUT=DIR bash bench/preempt/results/session47/final_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session final .stage/s47c.tgz
six_kernels_manifest
cp "$S/lib/libgmemrt_old.so" "$S/lib/libgmemrt_b.so"
for r in 1 2; do
  BUDGET=20 aslaunched "new_r$r" libgmemrt.so sync_manifest.txt PB_VARIANTS=0123 | tee -a "$LOG"
  BUDGET=20 aslaunched "old_r$r" libgmemrt_b.so sync_manifest.txt PB_VARIANTS=0123 | tee -a "$LOG"
done
runtime_suite 150 | tee -a "$LOG"
device_archive final
