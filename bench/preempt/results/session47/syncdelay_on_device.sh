#!/usr/bin/env bash
# Session 47, call 8: the queued column with shorter delay kernels in front
# (PB_QUEUE_DELAY_US = 2 .. 100; PB_VARIANTS=0123, sync and queued only),
# release libgmemrt, on the six kernels of call 1: the excess over the
# kernel as compiled as a function of how much of the host's launch path
# the delay hides.
#   OUT=DIR bash bench/preempt/results/session47/syncdelay_on_device.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session syncdelay .stage/s47.tgz
six_kernels_manifest
for d in 2 5 10 15 20 30 50 100; do
  BUDGET=40 aslaunched "d$d" libgmemrt.so sync_manifest.txt PB_VARIANTS=0123 PB_QUEUE_DELAY_US=$d | tee -a "$LOG"
done
device_archive syncdelay
