#!/usr/bin/env bash
# The preemption harness on the GPU machine, all four parts in ~6 minutes:
# stage first here (python3 bench/preempt/stage.py --build-dir BUILD), carry
# .stage, then from the repository root there:
#
#   bash bench/preempt/run_on_device.sh          # results in $OUT
#
# Writes $OUT/correctness.json, overhead.json, latency.json, stops.json (the harness's
# results), $OUT/preempt.log (everything printed) and, when python3 is
# there, $OUT/RESULTS.md (bench/preempt/summarize.py). Each part has a time
# budget inside the harness and an outer timeout; a part that fails does not
# stop the others. Env: PREEMPT_STAGE (default .stage/preempt),
# PREEMPT_TRIALS_LATENCY (1000), PREEMPT_TRIALS_CORRECTNESS (102),
# PREEMPT_TRIALS_STOPS (60).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
STAGE="${PREEMPT_STAGE:-.stage/preempt}"
OUT="${OUT:-$STAGE/out}"
mkdir -p "$OUT" || exit 2
LOG="$OUT/preempt.log"
BENCH="$STAGE/preempt_bench"
{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) host $(hostname)"
  nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
} 2>&1 | tee "$LOG" "$OUT/device.txt"
if [ ! -x "$BENCH" ] && [ -f "$BENCH" ]; then chmod +x "$BENCH" 2>/dev/null; fi
if [ ! -x "$BENCH" ]; then
  echo "error: $BENCH missing; run bench/preempt/stage.py and carry .stage" | tee -a "$LOG"
  exit 2
fi
status=0
part() { # name, outer timeout, args...
  local name=$1 limit=$2; shift 2
  echo "=== $name" | tee -a "$LOG"
  timeout "$limit" "$BENCH" "$name" "$@" --json "$OUT/$name.json" 2>&1 | tee -a "$LOG"
  local rc=${PIPESTATUS[0]}
  echo "=== $name: exit $rc" | tee -a "$LOG"
  [ "$rc" = 0 ] || status=1
}
part correctness 90 --manifest "$STAGE/corpus/manifest.txt" --kernels "$STAGE/kernels.ptx" \
  --trials "${PREEMPT_TRIALS_CORRECTNESS:-102}" --budget 60
part overhead 110 --manifest "$STAGE/overhead_manifest.txt" --kernels "$STAGE/kernels.ptx" \
  --budget 85
part latency 170 --kernels "$STAGE/kernels.ptx" --variant "b256=$STAGE/kernels_b256.ptx" \
  --variant "b1024=$STAGE/kernels_b1024.ptx" --trials "${PREEMPT_TRIALS_LATENCY:-1000}" --budget 150
# Stops of the overhead table's kernels (real kernels at realistic sizes).
part stops 100 --manifest "$STAGE/overhead_manifest.txt" --kernels "$STAGE/kernels.ptx" \
  --trials "${PREEMPT_TRIALS_STOPS:-60}" --budget 80
if command -v python3 >/dev/null; then
  python3 bench/preempt/summarize.py "$OUT" --out "$OUT/RESULTS.md" 2>&1 | tail -40 | tee -a "$LOG"
fi
echo "# exit status $status" | tee -a "$LOG"
exit $status
