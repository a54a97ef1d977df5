#!/usr/bin/env bash
# Session 47, call 10 (and 11, with one profile per launch kind): the launch-path profile (libgmemrt_prof.so) with and
# without part aslaunched's chains in the mix (PB_VARIANTS=0123 / 012345),
# on the six kernels of call 1: which stage of the hook grows.
#   OUT=DIR bash bench/preempt/results/session47/syncchainprof_on_device.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session syncchainprof .stage/s47.tgz
six_kernels_manifest
for v in 0123 012345; do
  BUDGET=40 aslaunched "v$v" libgmemrt_prof.so sync_manifest.txt PB_VARIANTS=$v | tee -a "$LOG"
done
device_archive syncchainprof
