#!/usr/bin/env bash
# Same-call A/B of which persistent forms take the late read at the end of a
# long virtual CTA (GMEM_CHECKPOINT_LATE_FORMS at staging time): "def" the
# light twin only (the default), "alt" the alternate form too, "all" the
# full clone too. GPU machine, repo root, .stage/s34late.tgz carried: a tar
# of .stage/preempt (default), .stage/preempt_late_alt and
# .stage/preempt_late_all, each from `python3 bench/preempt/stage.py
# --build-dir build --out DIR` with the variable set.
#
#   OUT=DIR bash bench/preempt/results/session34/late_forms_on_device.sh
#
# Per variant: part aslaunched twice (alternating variants), part stops and
# forced-preemption correctness once.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
OUT=${OUT:?}
mkdir -p "$OUT" .stage && tar xzf .stage/s34late.tgz -C .stage || exit 2
declare -A STAGE=([def]=.stage/preempt [alt]=.stage/preempt_late_alt [all]=.stage/preempt_late_all)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
step() { # NAME LIMIT CMD...
  local name=$1 limit=$2 t0=$(date +%s)
  shift 2
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  echo "=== $name: exit $? in $(( $(date +%s) - t0 )) s"
}
for round in 1 2; do
  for v in def alt all; do
    S=${STAGE[$v]}
    chmod +x "$S/preempt_bench"
    step "aslaunched_${v}_$round" 120 env GMEM_SCHED=1 LD_PRELOAD="$PWD/$S/lib/libgmemrt.so" \
      "$S/preempt_bench" aslaunched --manifest "$S/overhead_manifest.txt" --kernels "$S/kernels.ptx" \
      --budget 80 --json "$OUT/aslaunched_${v}_$round.json"
  done
done
for v in def alt all; do
  S=${STAGE[$v]}
  step "stops_$v" 60 "$S/preempt_bench" stops --manifest "$S/overhead_manifest.txt" \
    --kernels "$S/kernels.ptx" --trials 60 --budget 45 --json "$OUT/stops_$v.json"
done
for v in alt all; do
  S=${STAGE[$v]}
  step "correctness_$v" 60 "$S/preempt_bench" correctness --manifest "$S/corpus/manifest.txt" \
    --kernels "$S/kernels.ptx" --trials 40 --budget 45 --json "$OUT/correctness_$v.json"
done
gzip -9 "$OUT"/*.json "$OUT"/*.log
