#!/usr/bin/env bash
# Chaos testing on the GPU machine (repo root): programs built with gmem run
# under GMEM_SCHED_CHAOS (libgmemrt preempts them at random moments and
# resumes them, docs/PREEMPTION_DESIGN.md "Chaos testing"); each program's
# own check must pass, and give what it gives without chaos.
#
#   OUT=DIR bash test/chaos/run_on_device.sh
#
# Carry .stage/colocation (bench/colocation/stage.sh) and, optionally,
# .stage/external (test/chaos/stage_external.sh: self-checking programs
# from outside this repository).
#   1. The co-location demo's training alone, 25 ms kernels of 100 waves,
#      chaos every ~500 us: `step` (idempotent: stops at loop checkpoints)
#      and `accum` (not idempotent: stops at CTA entry; its check counts
#      every CTA exactly once). The demo's "check" must be "ok".
#   2. Each external program: once plain, once under chaos (50 us and
#      500 us): exit status and every line its check prints ("PASS",
#      "FAIL", "Non-Matching ...", "error") must match the plain run.
# Exit status 0 when everything passed.
set -u -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
OUT="${OUT:-.stage/chaos_out}"
mkdir -p "$OUT"
LOG="$OUT/chaos.log"
FAIL=0
exec > >(tee "$LOG") 2>&1
{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
  nvidia-smi -L
  S=.stage/colocation
  RT="$PWD/$S/lib/libgmemrt.so"
  BIN=$S/bin/colocation_pass
  if [ -x "$BIN" ]; then
    ITERS=$(timeout 60 $BIN --calibrate --be-ms 25) || { echo "FAIL: calibrate"; FAIL=1; }
    for B in step accum; do
      echo "=== colocation training $B under GMEM_SCHED_CHAOS=500"
      timeout 120 env LD_PRELOAD="$RT" GMEM_SCHED_CHAOS=500 $BIN --mode be --gmem --be $B \
        --iters "$ITERS" --requests 1500 --period-us 2000 --label chaos-$B --out "$OUT/chaos_colocation.jsonl" \
        > "$OUT/colocation_$B.txt" 2>&1
      R=$?
      grep -E "^gmem: chaos|be |check" "$OUT/colocation_$B.txt" | tail -4
      if [ $R = 0 ] && tail -1 "$OUT/chaos_colocation.jsonl" | grep -q '"check":"ok"' \
         && grep -q "^gmem: chaos: " "$OUT/colocation_$B.txt"; then
        echo "PASS colocation-$B (exit 0, check ok)"
      else
        echo "FAIL colocation-$B (exit $R)"; FAIL=1; tail -5 "$OUT/colocation_$B.txt"
      fi
    done
  else
    echo "(no .stage/colocation: part 1 skipped)"
  fi

  X=.stage/external
  if [ -f "$X/programs.txt" ]; then
    export LD_LIBRARY_PATH="$PWD/$X/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    chmod +x $X/bin/* 2>/dev/null
    checks() { grep -aiE "pass|fail|non-matching|error|mismatch|incorrect|correct" "$1" | sed 's/[0-9.]* *s(ec)*$//'; }
    ext() { # one program: plain, then under chaos at 50 and 500 us; result in $OUT/ext_P.result
      local P=$1 R0 R C SUM
      {
        timeout 120 $X/bin/$P > "$OUT/ext_${P}_plain.txt" 2>&1; R0=$?
        for C in 50 500; do
          timeout 120 env GMEM_SCHED_CHAOS=$C $X/bin/$P > "$OUT/ext_${P}_chaos$C.txt" 2>&1; R=$?
          SUM="$(grep -a "^gmem: chaos" "$OUT/ext_${P}_chaos$C.txt")"
          if [ $R = $R0 ] && [ -n "$SUM" ] \
             && diff <(checks "$OUT/ext_${P}_plain.txt") <(checks "$OUT/ext_${P}_chaos$C.txt") > /dev/null; then
            echo "PASS $P chaos $C us (exit $R as plain; ${SUM#gmem: chaos: })"
          else
            echo "FAIL $P chaos $C us (exit $R, plain $R0)"
            diff <(checks "$OUT/ext_${P}_plain.txt") <(checks "$OUT/ext_${P}_chaos$C.txt") | head -5
            tail -3 "$OUT/ext_${P}_chaos$C.txt"
          fi
        done
        checks "$OUT/ext_${P}_plain.txt" | head -3 | sed 's/^/    plain: /'
      } > "$OUT/ext_$P.result" 2>&1
    }
    # Six programs at a time (their CPU references take seconds each; the
    # GPU is shared between their processes, which chaos does not mind).
    # (waited for by pid: a bare `wait` would also wait for the tee above)
    PIDS=()
    while read -r P; do
      [ -n "$P" ] || continue
      while [ "$(jobs -rp | wc -l)" -ge 6 ]; do sleep 0.2; done
      ext "$P" < /dev/null &
      PIDS+=($!)
    done < "$X/programs.txt"
    wait "${PIDS[@]}"
    while read -r P; do
      [ -n "$P" ] || continue
      echo "=== $P"; cat "$OUT/ext_$P.result"
      grep -q "^FAIL" "$OUT/ext_$P.result" && FAIL=1
    done < "$X/programs.txt"
  else
    echo "(no .stage/external: part 2 skipped)"
  fi
  echo "# chaos: $([ $FAIL = 0 ] && echo PASS || echo FAIL)"
}
exit $FAIL
