#!/usr/bin/env bash
# Session 49, call 3: GMEM_PREEMPT_GRID_STRIDE=auto (trips per virtual CTA
# chosen per launch shape by timing, runtime/src/GridStrideTuner.h) against
# the launches' own grids (0): the whole overhead table as launched, side by
# side in each of two rounds; then the four grid-stride instances alone,
# three more rounds, with the tuner's choices from libgmemrt's log.
# Stage: call 1's (.stage/s49.tgz), its libgmemrt rebuilt with the tuner.
#   OUT=DIR bash bench/preempt/results/session49/auto_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session auto .stage/s49.tgz
S=.stage/s49/preempt
chmod +x "$S/preempt_bench"
for r in 1 2; do
  BUDGET=80 aslaunched "auto_r$r" libgmemrt.so overhead_manifest.txt GMEM_PREEMPT_GRID_STRIDE=auto | tee -a "$LOG"
  BUDGET=80 aslaunched "off_r$r" libgmemrt.so overhead_manifest.txt GMEM_PREEMPT_GRID_STRIDE=0 | tee -a "$LOG"
done
grep -E "name=(saxpy.cu:saxpy_gs|copy.cu:copy_vec4|iota.cu:iota_i32|im2col.cu:im2col) " \
  "$S/overhead_manifest.txt" > "$S/gs4_manifest.txt"
for r in 1 2 3; do
  BUDGET=20 aslaunched "gs4auto_r$r" libgmemrt.so gs4_manifest.txt GMEM_PREEMPT_GRID_STRIDE=auto GMEM_LOG=sched | tee -a "$LOG"
  BUDGET=20 aslaunched "gs4off_r$r" libgmemrt.so gs4_manifest.txt GMEM_PREEMPT_GRID_STRIDE=0 | tee -a "$LOG"
done
grep -h "grid-stride\|trips" "$W"/aslaunched_gs4auto_r1.log | head -20 | tee -a "$LOG"
device_archive auto
