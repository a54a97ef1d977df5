#!/usr/bin/env bash
# Session 34's device call: re-verify the preemptible clones after session
# 33's compiler change (persistent clones take their redo decision from the
# threads' abort flags) and its runtime changes (first launches, code-load
# wrappers). GPU machine, repo root, .stage/s34p.tgz carried (a tar of
# .stage/preempt from `python3 bench/preempt/stage.py --build-dir build`).
#
#   OUT=DIR [TGZ=.stage/OTHER.tgz] bash bench/preempt/results/session34/run_on_device.sh
#
# 1. forced-preemption correctness over the corpus (40 trials an instance)
# 2. the overhead table as libgmemrt launches it (part aslaunched, no cap)
# 3. stop latency of the overhead table's kernels (part stops, every form)
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
OUT=${OUT:?}
mkdir -p "$OUT" .stage && tar xzf "${TGZ:-.stage/s34p.tgz}" -C .stage || exit 2
S=.stage/preempt
chmod +x "$S/preempt_bench"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
step() { # NAME LIMIT CMD...
  local name=$1 limit=$2 t0=$(date +%s)
  shift 2
  echo "=== $name $(date -u +%H:%M:%S)"
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  echo "=== $name: exit $? in $(( $(date +%s) - t0 )) s"
  tail -3 "$OUT/$name.log"
}
step correctness 280 "$S/preempt_bench" correctness --manifest "$S/corpus/manifest.txt" \
  --kernels "$S/kernels.ptx" --trials 40 --budget 240 --json "$OUT/correctness.json"
step aslaunched 170 env GMEM_SCHED=1 LD_PRELOAD="$PWD/$S/lib/libgmemrt.so" "$S/preempt_bench" \
  aslaunched --manifest "$S/overhead_manifest.txt" --kernels "$S/kernels.ptx" --budget 110 \
  --json "$OUT/aslaunched_nocap.json"
step stops 110 "$S/preempt_bench" stops --manifest "$S/overhead_manifest.txt" \
  --kernels "$S/kernels.ptx" --trials 40 --budget 70 --json "$OUT/stops.json"
gzip -9 "$OUT"/*.json
