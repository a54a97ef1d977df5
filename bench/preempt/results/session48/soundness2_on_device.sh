#!/usr/bin/env bash
# Session 48, call 8: after the second round of fixes (inline-asm address
# provenance, wmma, %gridid, heap addresses, atomics' order):
#   corpus:  test/gpu's ground truth over the whole corpus (354 instances);
#   adv:     test/gpu/adversarial (round 1) with the final analysis;
#   adv2:    a second adversarial corpus (104 kernels: inline PTX, launch
#            aliasing, warp cooperation, pointer casts, 3-D grids, control
#            flow, globals, nondeterminism), kept outside the repository
#            like the blind ones; adv2old: the same with session 47's tool;
#   blind2:  120 kernels of framework and library code (PyTorch ATen, ONNX
#            Runtime, TensorRT plugins, DGL, faiss, MAGMA, HPGMG, SPONGE);
#   blind:   forced preemption of session 48's first blind corpus again
#            (its totals did not come back from call 6).
# Ground truth for each; forced preemption (segment scale 3, 40 trials an
# instance) for adv2, blind2 and blind.
# Staged with test/gpu/stage.py --corpus DIR --out .stage/c48g/NAME/gpu
# (adv2old: GMEM_PLUGIN=<47's plugin> ... --tool <47's gmem-analyze>),
# preempt_bench and kernels.ptx of .stage/s48b/preempt copied into
# .stage/c48g/preempt (one copy); (cd .stage && tar czf c48g.tgz c48g gpu).
#   OUT=DIR bash bench/preempt/results/session48/soundness2_on_device.sh
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
: "${OUT:?OUT must name the folder the results go to}"
mkdir -p "$OUT" .stage && tar xzf .stage/c48g.tgz -C .stage || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
chmod +x .stage/gpu/run_twice
mkdir -p "$OUT/corpus"
OUT="$OUT/corpus" bash test/gpu/run_on_device.sh > "$OUT/corpus/truth_console.log" 2>&1
echo "=== corpus truth exit $?"
grep -E "^verdicts:|write regions:|read regions:|passed," "$OUT/corpus/gpu_truth.log" | tail -4
for N in adv adv2 adv2old blind2 blind; do
  S=.stage/c48g/$N
  [ -d "$S" ] || continue
  chmod +x "$S/gpu/run_twice" .stage/c48g/preempt/preempt_bench 2>/dev/null
  mkdir -p "$OUT/$N"
  if [ "$N" != blind ]; then
    GMEM_GPU_STAGE="$S/gpu" OUT="$OUT/$N" bash test/gpu/run_on_device.sh > "$OUT/$N/truth_console.log" 2>&1
    echo "=== $N truth exit $?"
    grep -E "^verdicts:|write regions:|read regions:|passed," "$OUT/$N/gpu_truth.log" | tail -4
    grep -E "FALSE-IDEMPOTENT|OUTSIDE" "$OUT/$N/gpu_truth.log" | cut -c1-200 | head -20
  fi
  case $N in adv|adv2old) continue ;; esac
  PB_SEG_SCALE=3 timeout 150 .stage/c48g/preempt/preempt_bench correctness \
    --manifest "$S/gpu/manifest.txt" --kernels .stage/c48g/preempt/kernels.ptx \
    --trials 40 --budget 120 --json "$OUT/$N/correctness.json" > "$OUT/$N/correctness.log" 2>&1
  echo "=== $N correctness exit $?"
  command -v python3 >/dev/null && python3 - "$OUT/$N/correctness.json" <<'PY'
import json, sys
it = json.load(open(sys.argv[1]))["items"]
print("items %d trials %d cut %d mismatches %d incomplete %d errors %d" % (
    len(it), sum(i.get("trials", 0) for i in it), sum(i.get("cut", 0) for i in it),
    sum(i.get("mismatches", 0) for i in it), sum(i.get("relaunch_incomplete", 0) for i in it),
    sum(1 for i in it if "error" in i)))
print("mismatched:", [i["name"] for i in it if i.get("mismatches")])
PY
  rm -f "$OUT/$N/truth_console.log"
done
gzip -9 "$OUT"/*/*.json "$OUT"/*/correctness.log 2>/dev/null
