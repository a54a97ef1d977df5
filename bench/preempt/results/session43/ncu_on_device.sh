#!/usr/bin/env bash
# Session 43, call 6 (diagnostics, measurement only): Nsight Compute of
# iota_i32, saxpy_gs and warp_reduce_sum (original, full clone, light twin;
# SpeedOfLight, WarpStateStats, SchedulerStats, SourceCounters) on this
# session's default stage (.stage/s43c.tgz's `preempt`): where a warp of a
# paced loop's full clone waits that the kernel's does not, now that its
# checks run in the loop body.
#   OUT=DIR bash bench/preempt/results/session43/ncu_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session ncu .stage/s43c.tgz
ncu_step 400 "_Z8iota_i32Piii _Z8saxpy_gsifPKfS0_Pf _Z15warp_reduce_sumPKfPfi"
device_archive ncu ncu.log
