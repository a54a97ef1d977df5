#!/usr/bin/env bash
# Session 46, call 4: a blind corpus (public kernels adapted by a helper into
# the corpus format, kept outside the repository: third-party code) checked
# on the GPU like the project's own corpus:
#   1. test/gpu's ground truth (each RUN instance run twice: FALSE-IDEMPOTENT,
#      WRITE-OUTSIDE-REGION, READ-OUTSIDE-REGION must be zero);
#   2. forced preemption of every instance (bench/preempt correctness,
#      segment scale 3, 40 trials an instance): bit-exact against an
#      unpreempted run.
# Staged here with
#   python3 test/gpu/stage.py --corpus /tmp/blindcorpus --out ".stage/$N/"gpu
#   cp .stage/s46a/preempt/{preempt_bench,kernels.ptx} ".stage/$N/"preempt/
#   (cd .stage && tar czf blind.tgz blind)
#   OUT=DIR bash bench/preempt/results/session46/blind_on_device.sh
# NAME=adv runs .stage/adv.tgz (the adversarial corpus, staged the same way
# into .stage/adv) instead of .stage/blind.tgz.
set -u
N="${NAME:-blind}"
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
: "${OUT:?OUT must name the folder the results go to}"
mkdir -p "$OUT" .stage && tar xzf ".stage/$N.tgz" -C .stage || exit 2
chmod +x ".stage/$N/"preempt/preempt_bench ".stage/$N/"gpu/run_twice
GMEM_GPU_STAGE=".stage/$N/"gpu OUT="$OUT" bash test/gpu/run_on_device.sh > "$OUT/truth_console.log" 2>&1
echo "=== truth exit $?"
sed -n '/== summary ==/,$p' "$OUT/gpu_truth.log" | head -12
PB_SEG_SCALE=3 timeout 300 ".stage/$N/"preempt/preempt_bench correctness \
  --manifest ".stage/$N/"gpu/manifest.txt --kernels ".stage/$N/"preempt/kernels.ptx \
  --trials 40 --budget 240 --json "$OUT/correctness_$N.json" > "$OUT/correctness_$N.log" 2>&1
echo "=== correctness exit $?"
grep -E "correctness: wrote|mismatch" "$OUT/correctness_$N.log" | tail -3
gzip -9 "$OUT"/*.json
