#!/usr/bin/env bash
# Session 42, call 4 (diagnostics, measurement only): part overhead with
# PB_SPREAD_ALL=1, three runs, of the kernels with paced loop segments
# beside PTX variants of their full clone and alternate form
# (bench/preempt/ptx_variants.py --variants seg4x,oneseg,alt-seg4x,
# alt-oneseg on session 41's final stage; var/*/*.cubin assembled with
# ptxas -arch=sm_90 on the build machine): paced segments aiming at 4x the
# cycles, and one segment per loop entry (what the segment boundaries
# cost). Nsight Compute's per-line counts of softmax_rows (call 1) were
# taken under SASS instrumentation, which lengthens an iteration and so
# shortens paced segments: these runs are not instrumented.
#   OUT=DIR bash bench/preempt/results/session42/pace_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session pace .stage/s42d.tgz
variant_runs pace
device_archive pace
