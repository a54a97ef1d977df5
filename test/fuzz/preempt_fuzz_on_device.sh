#!/usr/bin/env bash
# Random kernels under forced preemption (test/fuzz/preempt_fuzz.py), on
# the GPU machine: each staged set runs twice plainly and once under
# GMEM_SCHED_CHAOS at each of CHAOS_US (default "20 200"); every launch
# whose two plain runs agree must give the same hashes under chaos.
#
#   OUT=DIR bash test/fuzz/preempt_fuzz_on_device.sh SET_DIR...
#
# SET_DIR: a preempt_fuzz.py --out folder (bin/, lib/, launches.txt).
# Prints one PASS/FAIL line per set and chaos setting, with libgmemrt's
# chaos summary; writes the runs' outputs to $OUT/NAME_*.txt. Exit 1 on any
# FAIL.
set -u
OUT=${OUT:?}
mkdir -p "$OUT"
FAIL=0
for D in "$@"; do
  N=$(basename "$D")
  chmod +x "$D/bin/preempt_fuzz"
  run() { # LABEL [ENV...]
    local L=$1
    shift
    timeout 300 env LD_LIBRARY_PATH="$PWD/$D/lib" "$@" "$D/bin/preempt_fuzz" "$D/launches.txt" \
      > "$OUT/${N}_$L.txt" 2> "$OUT/${N}_$L.err"
  }
  run plain1 || { echo "FAIL $N: plain run exit $?"; tail -3 "$OUT/${N}_plain1.err"; FAIL=1; continue; }
  run plain2
  for C in ${CHAOS_US:-20 200}; do
    run chaos$C GMEM_SCHED_CHAOS=$C GMEM_SCHED_CHAOS_SEED=$C
    R=$?
    SUM=$(grep -a "^gmem: chaos" "$OUT/${N}_chaos$C.err")
    V=$(python3 - "$OUT/${N}_plain1.txt" "$OUT/${N}_plain2.txt" "$OUT/${N}_chaos$C.txt" <<'EOF'
import sys
rd = lambda p: dict((l.split()[0], l.split()[1:]) for l in open(p) if l.startswith('L'))
a, b, c = (rd(p) for p in sys.argv[1:])
steady = [k for k in a if b.get(k) == a[k]]
bad = [k for k in steady if c.get(k) != a[k]]
print(f'{len(a)} launches, {len(a) - len(steady)} differ between plain runs (left out), '
      f'{len(bad)} wrong under chaos' + (': ' + ' '.join(f'{k}({a[k][0]})' for k in bad[:20]) if bad else ''))
sys.exit(1 if bad or not a else 0)
EOF
)
    V_RC=$?
    if [ $R = 0 ] && [ $V_RC = 0 ] && [ -n "$SUM" ]; then
      echo "PASS $N chaos $C us: $V; ${SUM#gmem: chaos: }"
    else
      echo "FAIL $N chaos $C us (exit $R): $V; ${SUM:-no chaos summary}"
      tail -3 "$OUT/${N}_chaos$C.err"
      FAIL=1
    fi
  done
done
exit $FAIL
