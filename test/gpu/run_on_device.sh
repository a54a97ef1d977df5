#!/usr/bin/env bash
# GPU ground truth for gmem: run on the GPU machine from the repo root, with
# the staging folder (.stage, written by test/gpu/stage.py) carried along:
#
#   bash test/gpu/run_on_device.sh            # results in $OUT
#
# Writes $OUT/gpu_truth.log (nvidia-smi -L + the runner's output) and
# $OUT/gpu_truth.json (the runner's --json results; summarize.py reads it).
# GMEM_GPU_STAGE overrides the staging folder (default .stage/gpu); extra
# arguments are passed to run_twice. Exit status: run_twice's (124 = timeout).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
STAGE="${GMEM_GPU_STAGE:-.stage/gpu}"
OUT="${OUT:-$STAGE/out}"
mkdir -p "$OUT" || exit 2
LOG="$OUT/gpu_truth.log"

{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) host $(hostname)"
  nvidia-smi -L
} 2>&1 | tee "$LOG"

if [ ! -f "$STAGE/run_twice" ] || [ ! -f "$STAGE/manifest.txt" ]; then
  echo "error: $STAGE/run_twice or $STAGE/manifest.txt missing; run test/gpu/stage.py and carry .stage" | tee -a "$LOG"
  exit 2
fi
[ -x "$STAGE/run_twice" ] || chmod +x "$STAGE/run_twice" 2>/dev/null || true

CMD=(timeout 300 "$STAGE/run_twice" "$STAGE/manifest.txt" --json "$OUT/gpu_truth.json" "$@")
echo "+ ${CMD[*]}" | tee -a "$LOG"
"${CMD[@]}" 2>&1 | tee -a "$LOG"
rc=${PIPESTATUS[0]}
[ "$rc" = 124 ] && echo "error: run_twice exceeded the 300 s timeout" | tee -a "$LOG"
echo "# exit status $rc" | tee -a "$LOG"
exit "$rc"
