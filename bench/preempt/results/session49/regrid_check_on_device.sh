#!/usr/bin/env bash
# Session 49, call 6: evidence that call 5's suite regridded. The corpus
# instances of the ten kernels with the GridStride flag, through libgmemrt
# with GMEM_PREEMPT_GRID_STRIDE=1 and GMEM_LOG=sched (its log names each
# regridded kernel), checksums unpreempted and under chaos (20 us) against
# the plain runs.
# Stage: call 5's (.stage/rt49.tgz).
#   OUT=DIR bash bench/preempt/results/session49/regrid_check_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_begin regrid
tar xzf .stage/rt49.tgz -C .stage || exit 2
S=.stage/runtime
RT=$S/lib/libgmemrt.so
chmod +x $S/bin/*
grep -E "name=(copy.cu:copy_vec4|im2col.cu:im2col|image_ops.cu:lut_apply_inplace|iota.cu:iota_i32|loop_nests.cu:first_match|loop_nests.cu:prefix_rows|pointer_table.cu:batched_scale|saxpy.cu:saxpy_gs)" \
  $S/manifest.txt > $S/gs_manifest.txt
echo "instances: $(wc -l < $S/gs_manifest.txt)" | tee -a "$LOG"
timeout 60 $S/bin/gpu_host $S/gs_manifest.txt --sums 2>&1 | grep "^SUM" > "$OUT/plain.txt"
for mode in clone chaos; do
  extra=""; [ $mode = chaos ] && extra="GMEM_SCHED_CHAOS=20"
  env $extra LD_PRELOAD=$RT GMEM_SCHED=1 GMEM_LOG=sched GMEM_PREEMPT_GRID_STRIDE=1 timeout 90 \
    $S/bin/gpu_host $S/gs_manifest.txt --sums --stream > "$OUT/$mode.out" 2>&1
  echo "$mode exit $?" | tee -a "$LOG"
  grep "^SUM" "$OUT/$mode.out" > "$OUT/$mode.txt"
  grep -h "grid-stride launch" "$OUT/$mode.out" | sed 's/^gmem-sched: *[0-9.]* us //' | tee -a "$LOG"
  grep -h "chaos:" "$OUT/$mode.out" | tail -1 | tee -a "$LOG"
  diff "$OUT/plain.txt" "$OUT/$mode.txt" > /dev/null && echo "$mode: $(wc -l < "$OUT/$mode.txt") checksums identical to plain" | tee -a "$LOG" \
    || { echo "$mode: checksums differ" | tee -a "$LOG"; diff "$OUT/plain.txt" "$OUT/$mode.txt" | head -10 | tee -a "$LOG"; }
done
gzip -9 "$OUT"/*.out
