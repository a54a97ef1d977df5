#!/usr/bin/env bash
# Session 42, call 7 (diagnostics, measurement only): part overhead with
# PB_SPREAD_ALL=1, three runs, of five kernels with paced loop segments
# beside PTX variants of their full clone and alternate form
# (bench/preempt/ptx_variants.py --variants frozen2,frozen3,init3,
# alt-frozen2,alt-frozen3 on session 41's final stage): s kept at 2 (K = 4)
# or at 3 (K = 8), or starting at 3 and updated. Is it the update of s
# that costs (a segment kept at the K the update settles on), or the number
# of segments (call 6)?
#   OUT=DIR bash bench/preempt/results/session42/frozen_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session frozen .stage/s42g.tgz
variant_runs frozen
device_archive frozen
