#!/usr/bin/env bash
# The driver's GPU test: run on the GPU machine from the repo root, with the
# staging folder (written by test/driver/gpu/stage.sh) carried along:
#
#   bash test/driver/gpu/run.sh
#
# Runs every program in .stage/driver/programs.txt (GMEM_DRIVER_STAGE
# overrides the folder) with a 120 s timeout; *_chaos programs with
# GMEM_SCHED_CHAOS=50 (synthetic preemptions every ~50 us). Each self-checks against a CPU
# reference and prints PASS; a line per program here:
#   PASS <name>   exit 0 and the program's own "PASS <name>" line
#   FAIL <name>   anything else (including exit 77: no usable GPU)
# The log goes to $OUT/driver_gpu.log when $OUT is set. Exit status 0 when
# every program passed, 1 otherwise, 2 when the stage is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 2
STAGE="${GMEM_DRIVER_STAGE:-.stage/driver}"
if [ -n "${OUT:-}" ]; then mkdir -p "$OUT" && LOG="$OUT/driver_gpu.log"; else LOG=/dev/null; fi
exec > >(tee "$LOG") 2>&1

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) host $(hostname) stage $STAGE"
nvidia-smi -L 2>&1 || echo "(nvidia-smi not available)"
nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | sed 's/^/# driver version /'
if [ ! -f "$STAGE/programs.txt" ]; then
  echo "error: $STAGE/programs.txt missing: run test/driver/gpu/stage.sh on the build machine and carry .stage/driver"
  exit 2
fi
pass=0; total=0
while read -r name; do
  [ -n "$name" ] || continue
  total=$((total + 1))
  exe="$STAGE/bin/$name"
  [ -x "$exe" ] || chmod +x "$exe" 2>/dev/null
  chaos=""; [[ "$name" == *_chaos ]] && chaos=50
  out="$(GMEM_SCHED_CHAOS=$chaos timeout 120 "$exe" 2>&1)"; rc=$?
  prog="${name%_static}"; prog="${prog%_gmemrt}"; prog="${prog%_chaos}"
  # Under chaos the runtime must also say what it did (its summary line).
  if [ -n "$chaos" ] && ! grep -q "^gmem: chaos: " <<<"$out"; then rc="$rc, no chaos summary"; fi
  if [ "$rc" = 0 ] && grep -q "^PASS $prog\$" <<<"$out"; then
    pass=$((pass + 1)); echo "PASS $name"
  else
    echo "FAIL $name (exit $rc$([ "$rc" = 124 ] && echo ', timeout')$([ "$rc" = 77 ] && echo ', no usable GPU'))"
  fi
  sed 's/^/    | /' <<<"$out" | tail -n 15
  if [ "$rc" != 0 ]; then ldd "$exe" 2>&1 | sed 's/^/    ldd: /'; fi
done < "$STAGE/programs.txt"
echo "# driver GPU test: $pass/$total PASS"
[ "$pass" = "$total" ] && [ "$total" -gt 0 ]
