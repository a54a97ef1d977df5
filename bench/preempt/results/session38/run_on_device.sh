#!/usr/bin/env bash
# Session 38: why libgmemrt's segment-scale stop probes read lower than part
# stops' random stops of the same launches (results/session37, section 3).
#   OUT=DIR bash bench/preempt/results/session38/run_on_device.sh
# On the kernels whose loops take the scale (a manifest cut from the stage's
# overhead manifest), at segment scale ${SEG:-1}:
#   stops_q_full   part stops as before: the write queued behind a wait on a
#                  host flag, released 5-85% into the run
#   stops_q_mid    the same, released 30-60% into the run (the probes' window)
#   stops_d_full   the host issues the write at the stop's moment, as the
#   stops_d_mid    runtime's monitor does (PB_STOP_ISSUE=direct)
#   asl_log_rN     part aslaunched under GMEM_LOG=sched with the runtime's
#                  scale capped at SEG: every probe's two readings (after its
#                  request landed, after its issue) in the log
# Then, where the tar has them, a same-call A/B of preempt_def/ (default
# build) against preempt_sp/ (GMEM_CHECKPOINT_REFRESH_ORDER=sparse) on the
# overhead kernels whose code differs (kmeans_assign, im2col, spmv_*) and two
# controls (layernorm_rows, gemm_naive): part aslaunched alternated ROUNDS
# times (default 3), part stops of each, forced-preemption correctness of sp.
# GPU machine, repository root, .stage/s38.tgz carried (a tar of .stage's
# preempt/, `GMEM_CHECKPOINT_SEG_SCALE=1 python3 bench/preempt/stage.py
# --build-dir build --out .stage/preempt`, and of preempt_def/ and
# preempt_sp/, the same without the scale, `--out .stage/preempt_def`, and
# with GMEM_CHECKPOINT_REFRESH_ORDER=sparse, `--out .stage/preempt_sp`).
# Everything goes into $OUT/calibrate.tgz plus $OUT/calibrate.log.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
OUT=${OUT:?}
. bench/preempt/device_common.sh # device_begin, step, aslaunched_step
device_begin calibrate
tar xzf .stage/s38.tgz -C .stage || exit 2
S=.stage/preempt
chmod +x "$S/preempt_bench"
grep -E '^#|(gemm_naive|gemv|bicg_kernel2|atax_kernel1|embedding_lookup|wmma_gemm|tile_sum_async|warp_reduce_sum|iota_i32|saxpy_gs)' \
  "$S/overhead_manifest.txt" > "$S/scaled_manifest.txt"
grep -vc '^#' "$S/scaled_manifest.txt" | sed 's/^/instances: /' | tee -a "$LOG"
SEG=${SEG:-1}
for I in q d; do
  ISSUE=queued; [ $I = d ] && ISSUE=direct
  for Wn in full mid; do
    WIN=0.05,0.85; [ $Wn = mid ] && WIN=0.3,0.6
    step "stops_${I}_$Wn" 90 env PB_SEG_SCALE=$SEG PB_STOP_ISSUE=$ISSUE PB_STOP_WINDOW=$WIN \
      "$S/preempt_bench" stops --manifest "$S/scaled_manifest.txt" --kernels "$S/kernels.ptx" \
      --trials 100 --budget 70 --json "$W/stops_${I}_$Wn.json"
  done
done
for R in $(seq 1 "${ROUNDS:-2}"); do
  step "asl_log_r$R" 120 env GMEM_LOG=sched GMEM_PREEMPT_SEG_SCALE=$SEG GMEM_SCHED=1 \
    LD_PRELOAD="$PWD/$S/lib/libgmemrt.so" "$S/preempt_bench" aslaunched \
    --manifest "$S/scaled_manifest.txt" --kernels "$S/kernels.ptx" --budget 90 \
    --json "$W/asl_log_r$R.json"
done
if [ -d .stage/preempt_sp ] && [ -d .stage/preempt_def ]; then
  for L in def sp; do
    S=.stage/preempt_$L
    chmod +x "$S/preempt_bench"
    grep -E '^#|(kmeans_assign|im2col|spmv_|layernorm_rows|gemm_naive)' "$S/overhead_manifest.txt" \
      > "$S/sparse_manifest.txt"
  done
  for R in $(seq 1 "${ROUNDS:-3}"); do
    for L in def sp; do
      S=.stage/preempt_$L
      step "asl_${L}_r$R" 90 env GMEM_SCHED=1 LD_PRELOAD="$PWD/$S/lib/libgmemrt.so" \
        "$S/preempt_bench" aslaunched --manifest "$S/sparse_manifest.txt" --kernels "$S/kernels.ptx" \
        --budget 60 --json "$W/asl_${L}_r$R.json"
    done
  done
  for L in def sp; do
    S=.stage/preempt_$L
    step "stops_$L" 90 "$S/preempt_bench" stops --manifest "$S/sparse_manifest.txt" \
      --kernels "$S/kernels.ptx" --trials 100 --budget 60 --json "$W/stops_$L.json"
  done
  S=.stage/preempt_sp
  step correctness_sp 90 "$S/preempt_bench" correctness --manifest "$S/corpus/manifest.txt" \
    --kernels "$S/kernels.ptx" --trials 40 --budget 60 --json "$W/correctness_sp.json"
  grep -E "correctness: wrote|mismatch" "$W/correctness_sp.log" | tail -3 | tee -a "$LOG"
fi
gzip -9 "$W"/*.json "$W"/asl_log_*.log 2>/dev/null
tar czf "$OUT/calibrate.tgz" -C "$W" . && echo "archived $OUT/calibrate.tgz" | tee -a "$LOG"
