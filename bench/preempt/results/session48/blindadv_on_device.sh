#!/usr/bin/env bash
# Session 48, call 6: two corpora written by helpers this session, kept
# outside the repository (third-party code, or written to break the
# analysis), checked on the GPU like the project's own corpus:
#   blind:  102 kernels of public code not seen before (llama.cpp's
#           ggml-cuda, XSBench, RSBench, LULESH, darknet, cuDF bitmasks,
#           Smith-Waterman, option pricing, graph frontiers, stencils, ...);
#   adv:    155 kernels written to make the region analysis predict too
#           little (index arithmetic, odd loops, vector and sub-word
#           accesses, idempotence traps, templates and functors, wrapped
#           launch values, clocks and hardware ids), with this session's
#           analysis; advold: the same with session 47's, for the record.
# For each: test/gpu's ground truth (each instance run twice;
# FALSE-IDEMPOTENT, WRITE-/READ-OUTSIDE-REGION must be zero), then forced
# preemption of every instance (segment scale 3, 40 trials an instance).
# Staged with
#   python3 test/gpu/stage.py --corpus DIR --out .stage/c48f/NAME/gpu
#   (advold: GMEM_PLUGIN=<47's plugin> ... --tool <47's gmem-analyze>)
#   cp .stage/s48/preempt/{preempt_bench,kernels.ptx} .stage/c48f/NAME/preempt/
#   (cd .stage && tar czf c48f.tgz c48f)
#   OUT=DIR bash bench/preempt/results/session48/blindadv_on_device.sh
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
: "${OUT:?OUT must name the folder the results go to}"
mkdir -p "$OUT" .stage && tar xzf .stage/c48f.tgz -C .stage || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for N in adv advold blind; do
  S=.stage/c48f/$N
  chmod +x "$S/preempt/preempt_bench" "$S/gpu/run_twice"
  mkdir -p "$OUT/$N"
  GMEM_GPU_STAGE="$S/gpu" OUT="$OUT/$N" bash test/gpu/run_on_device.sh > "$OUT/$N/truth_console.log" 2>&1
  echo "=== $N truth exit $?"
  grep -E "^verdicts:|write regions:|read regions:|passed," "$OUT/$N/gpu_truth.log" | tail -4
  [ "$N" = advold ] && continue
  PB_SEG_SCALE=3 timeout 200 "$S/preempt/preempt_bench" correctness \
    --manifest "$S/gpu/manifest.txt" --kernels "$S/preempt/kernels.ptx" \
    --trials 40 --budget 150 --json "$OUT/$N/correctness.json" > "$OUT/$N/correctness.log" 2>&1
  echo "=== $N correctness exit $?"
  grep -E "correctness: wrote|mismatch" "$OUT/$N/correctness.log" | tail -3
done
gzip -9 "$OUT"/*/*.json
