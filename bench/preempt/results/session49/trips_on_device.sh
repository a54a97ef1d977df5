#!/usr/bin/env bash
# Session 49, call 2: how many trips of a grid-stride loop a virtual CTA
# should run. The overhead table's four grid-stride instances (saxpy_gs,
# copy_vec4, iota_i32, im2col) as launched through libgmemrt with
# GMEM_PREEMPT_GRID_STRIDE = 0 (the launch's own grid), 1, 4, 16 and 64
# trips per virtual CTA, side by side in each of three rounds.
# Stage: call 1's (.stage/s49.tgz), its libgmemrt rebuilt with the trips
# option.
#   OUT=DIR bash bench/preempt/results/session49/trips_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session trips .stage/s49.tgz
S=.stage/s49/preempt
chmod +x "$S/preempt_bench"
grep -E "name=(saxpy.cu:saxpy_gs|copy.cu:copy_vec4|iota.cu:iota_i32|im2col.cu:im2col) " \
  "$S/overhead_manifest.txt" > "$S/gs4_manifest.txt"
for r in 1 2 3; do
  for t in 0 1 4 16 64; do
    BUDGET=20 aslaunched "t${t}_r$r" libgmemrt.so gs4_manifest.txt GMEM_PREEMPT_GRID_STRIDE=$t | tee -a "$LOG"
  done
done
device_archive trips
