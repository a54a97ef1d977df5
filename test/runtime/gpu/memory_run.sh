#!/usr/bin/env bash
# Run the memory-side GPU checks staged by memory_stage.sh (GPU machine).
# Writes $OUT/memory.log; exit status non-zero if any check failed.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 2
S=.stage/memory
OUT="${OUT:-$S/out}"; mkdir -p "$OUT"
B="$S/bin/memory_check"
[ -x "$B" ] || { echo "SKIPPED memory: $B not staged"; exit 0; }
status=0
step() { # label, env..., part
  echo "## $*"
  env "$@" 2>&1 || echo "FAIL step exit $?: $*"
}
{
  step GMEM_LOG=errors timeout 120 "$B" pool
  step GMEM_LOG=errors timeout 120 "$B" share
  step GMEM_LOG=errors,driver timeout 120 "$B" sync
  step GMEM_LOG=errors GMEM_PREFETCH_TRUST=1 timeout 120 "$B" sync
  step GMEM_LOG=errors GMEM_PREFETCH=0 timeout 120 "$B" sync
  step GMEM_LOG=errors timeout 120 "$B" hints
  step GMEM_LOG=errors PF_CUPTI=1 GMEM_DEVICE_BUDGET=1G timeout 120 "$B" budget
  step GMEM_LOG=errors PF_CUPTI=1 GMEM_DEVICE_BUDGET=1G GMEM_PREFETCH=0 timeout 120 "$B" budget
} 2>&1 | tee "$OUT/memory.log"
grep -q '^FAIL' "$OUT/memory.log" && status=1
echo "memory checks: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
