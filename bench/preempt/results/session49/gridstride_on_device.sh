#!/usr/bin/env bash
# Session 49, call 1: grid-stride kernels on the loop's own grid.
#  1. the overhead table as launched through libgmemrt, side by side in each
#     round: gs (GMEM_PREEMPT_GRID_STRIDE on, the default) and nogs (off:
#     every launch keeps its grid), two rounds;
#  2. stops of every form of the overhead table's grid-stride instances on
#     the grid libgmemrt now gives them (ceil(n / blockDim.x), gs_manifest.txt)
#     and on their own grid (nogs_manifest.txt);
#  3. forced preemption of those instances on the loop's grid (segment
#     scale 3, 40 trials each), against their unpreempted runs.
# Staged with python3 bench/preempt/stage.py --build-dir build --out
# .stage/s49/preempt (kernels_b256/b1024 and their cubins removed), tar czf
# .stage/s49.tgz -C .stage s49.
#   OUT=DIR bash bench/preempt/results/session49/gridstride_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session gridstride .stage/s49.tgz
S=.stage/s49/preempt
chmod +x "$S/preempt_bench"
for r in 1 2; do
  BUDGET=80 aslaunched "gs_r$r" libgmemrt.so overhead_manifest.txt | tee -a "$LOG"
  BUDGET=80 aslaunched "nogs_r$r" libgmemrt.so overhead_manifest.txt GMEM_PREEMPT_GRID_STRIDE=0 | tee -a "$LOG"
done
# The overhead table's grid-stride instances (the pass's flag), on the grid
# libgmemrt picks: items = the bound argument, ceil(items / 256).
grep -E "name=(saxpy.cu:saxpy_gs|copy.cu:copy_vec4|iota.cu:iota_i32|im2col.cu:im2col) " \
  "$S/overhead_manifest.txt" > "$S/nogs_manifest.txt"
sed -e '/saxpy_gs /s/grid=1056/grid=1048576/' -e '/copy_vec4 /s/grid=1056/grid=262144/' \
  -e '/iota_i32 /s/grid=1056/grid=2097152/' -e '/im2col /s/grid=1056/grid=16384/' \
  "$S/nogs_manifest.txt" > "$S/gs_manifest.txt"
cut -d' ' -f3,5 "$S/gs_manifest.txt" | tee -a "$LOG"
for m in gs nogs; do
  step "stops_$m" 80 env PB_SEG_SCALE=0 "$S/preempt_bench" stops --manifest "$S/${m}_manifest.txt" \
    --kernels "$S/kernels.ptx" --trials 60 --budget 60 --json "$W/stops_$m.json"
done
step correctness_gs 90 env PB_SEG_SCALE=3 "$S/preempt_bench" correctness \
  --manifest "$S/gs_manifest.txt" --kernels "$S/kernels.ptx" --trials 40 --budget 70 \
  --json "$W/correctness_gs.json"
grep -E "correctness: wrote|mismatch" "$W/correctness_gs.log" | tail -2 | tee -a "$LOG"
device_archive gridstride
