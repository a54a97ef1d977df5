#!/usr/bin/env bash
# Session 37, last call: part stops of the kernels libgmemrt raised to
# segment scale 1 in the aslaunched runs, at PB_SEG_SCALE=0 / 1 and
# PB_SPREAD=1 / 4 (the runtime launched some at 4x their resident CTAs).
#   OUT=DIR bash bench/preempt/results/session37/spread_stops_on_device.sh
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
OUT=${OUT:?}
. bench/preempt/device_common.sh # device_begin, step
device_begin spread_stops
tar xzf .stage/s37.tgz -C .stage preempt || exit 2
S=.stage/preempt
chmod +x "$S/preempt_bench"
grep -E 'wmma_gemm|gemv_warp|gemm_naive|name=gemv.cu:gemv |atax_kernel1|bicg_kernel2|embedding_lookup' \
  "$S/overhead_manifest.txt" > "$S/scaled_manifest.txt"
for A in 0:1 0:4 1:1 1:4; do
  step "stops_s${A%%:*}_sp${A##*:}" 60 env PB_SEG_SCALE=${A%%:*} PB_SPREAD=${A##*:} \
    "$S/preempt_bench" stops --manifest "$S/scaled_manifest.txt" --kernels "$S/kernels.ptx" \
    --trials 100 --budget 40 --json "$W/stops_s${A%%:*}_sp${A##*:}.json"
done
gzip -9 "$W"/*.json
tar czf "$OUT/spread_stops.tgz" -C "$W" . && echo "archived" | tee -a "$LOG"
