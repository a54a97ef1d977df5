#!/usr/bin/env bash
# Session 47, call 9: which of part aslaunched's other launch kinds makes its
# sync launches pay ~20 us more than its queued ones (call 8: ~4 us with
# only sync and queued launches): PB_VARIANTS subsets, release libgmemrt,
# on the six kernels of call 1, each subset twice.
#   OUT=DIR bash bench/preempt/results/session47/syncmix_on_device.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session syncmix .stage/s47.tgz
six_kernels_manifest
for r in 1 2; do
  for v in 0123 012345 012367 01234567; do
    BUDGET=40 aslaunched "v${v}_r$r" libgmemrt.so sync_manifest.txt PB_VARIANTS=$v | tee -a "$LOG"
  done
done
device_archive syncmix
