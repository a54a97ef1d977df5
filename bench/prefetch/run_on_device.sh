#!/usr/bin/env bash
# Prefetch benchmarks and GPU tests, in one command on the GPU machine (repo
# root, ".stage" carried; staged by bench/prefetch/stage.sh):
#
#   bash bench/prefetch/run_on_device.sh         # results in $OUT
#
# Steps (each under `timeout`, progress printed as it goes):
#   1. launch cost (part 4): pf_launch plain / libgmemrt GMEM_PREFETCH=0 /
#      GMEM_PREFETCH=1 (/ =1 with GMEM_PREFETCH_TRUST=1), 3 rounds alternated
#   2. first-touch streaming (part 1): pf_stream modes uvm, manual, pinned
#      (plain process) and gmem (LD_PRELOAD), timed; then once more with
#      CUPTI's unified-memory counters (PF_CUPTI=1, one repetition) for faults;
#      stencil3d (read region not bounded) also with GMEM_PREFETCH_UNBOUNDED=whole
#   3. oversubscription (part 2): pf_apps plain (uvm), libgmemrt without a
#      budget, and for each ratio r the gmem arm (prefetch + budget F/r) and
#      the baseline arm (GMEM_PREFETCH=0 + the same budget)
#   4. checks (part 3) and tables: summarize.py prints PASS/FAIL lines and
#      writes $OUT/RESULTS.md; the exit status is 1 if any check failed
# Knobs (environment): PF_KERNELS (vadd,copy,stencil2d,stencil3d),
# PF_SIZES (GiB, 1,2,4,8), PF_REPS (3), PF_COUNT_SIZES (1,2), PF_APPS (all),
# PF_APP_GIB (footprint per workload, 2), PF_APP_REPS (4), PF_RATIOS
# (1.0,1.15,1.3,1.5,2.0), PF_APP_COUNT_RATIO (1.5; empty: no fault counts under a
# budget), PF_LAUNCHES (20000), PF_SKIP (steps to skip, e.g. "1 3"), PF_STAGE (.stage/prefetch),
# PF_DEVICE_MEMORY_CHECK (fail; "info": the cudaMemGetInfo budget check does not fail the run).
# Files under $OUT: run.log, prefetch.jsonl (every measurement), RESULTS.md,
# checks.txt.
set -u -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
S="${PF_STAGE:-.stage/prefetch}"
OUT="${OUT:-$S/out}"
mkdir -p "$OUT"
LOG="$OUT/run.log"
export PF_JSON="$OUT/prefetch.jsonl"
: > "$PF_JSON"
S="$(cd "$S" 2>/dev/null && pwd || echo "$S")"
RT="$S/lib/libgmemrt.so"
export LD_LIBRARY_PATH="$S/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONUNBUFFERED=1
KERNELS="${PF_KERNELS:-vadd,copy,stencil2d,stencil3d}"
SIZES="${PF_SIZES:-1,2,4,8}"
REPS="${PF_REPS:-3}"
COUNT_SIZES="${PF_COUNT_SIZES:-1,2}"
APPS="${PF_APPS:-gemm,2mm,atax,bicg,mvt,gesummv,2dconv,3dconv,hotspot,pathfinder}"
APP_GIB="${PF_APP_GIB:-2}"
APP_REPS="${PF_APP_REPS:-4}"
RATIOS="${PF_RATIOS:-1.0,1.15,1.3,1.5,2.0}"
LAUNCHES="${PF_LAUNCHES:-20000}"
COUNT_RATIO="${PF_APP_COUNT_RATIO-1.5}"
SKIP=" ${PF_SKIP:-} "
T_START=$(date +%s)
CPU=$(( $(nproc) > 2 ? 2 : 0 )); PIN=""
taskset -c $CPU true 2>/dev/null && PIN="taskset -c $CPU"
chmod +x $S/bin/* 2>/dev/null
step() { echo; echo "=== [$(( $(date +%s) - T_START )) s] $*"; }
# run TIMEOUT LABEL COMMAND...: a failed or timed-out command is reported, not fatal.
run() {
  local t="$1" label="$2"; shift 2
  timeout "$t" "$@"; local rc=$?
  [ $rc = 0 ] || echo "ERROR $label: exit $rc$([ $rc = 124 ] && echo " (timeout ${t}s)")"
  return 0
}
# Prefix for a command under libgmemrt (a word list, so `timeout` can run it).
PRE="env LD_PRELOAD=$RT"

{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname) $(uname -r)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used,clocks.sm,clocks.mem --format=csv,noheader
  grep -m1 "model name" /proc/cpuinfo; echo "cpus $(nproc)"
  cat $S/stage.txt 2>/dev/null
  if [ ! -x $S/bin/pf_stream ] || [ ! -f "$RT" ]; then
    echo "error: $S not staged: run bash bench/prefetch/stage.sh on the build machine and carry .stage"; exit 2
  fi
  echo "plan: kernels=$KERNELS sizes=$SIZES reps=$REPS count_sizes=$COUNT_SIZES apps=$APPS app_gib=$APP_GIB" \
       "app_reps=$APP_REPS ratios=$RATIOS launches=$LAUNCHES skip=[$SKIP]"

  if [[ "$SKIP" != *" 1 "* ]]; then
    step "1. launch cost ($LAUNCHES launches per variant, $PIN)"
    for round in 1 2 3; do
      run 60 launch-plain $PIN $S/bin/pf_launch --label plain --launches "$LAUNCHES"
      run 60 launch-pf0 $PRE GMEM_PREFETCH=0 $PIN $S/bin/pf_launch --label gmem-prefetch0 --launches "$LAUNCHES"
      run 60 launch-pf1 $PRE GMEM_PREFETCH=1 $PIN $S/bin/pf_launch --label gmem-prefetch1 --launches "$LAUNCHES"
      run 60 launch-pf1-trust $PRE GMEM_PREFETCH=1 GMEM_PREFETCH_TRUST=1 $PIN $S/bin/pf_launch \
        --label gmem-prefetch1-trust --launches "$LAUNCHES"
    done
  fi

  if [[ "$SKIP" != *" 2 "* ]]; then
    step "2a. first-touch streaming, timed: uvm, manual, pinned (plain process)"
    run 200 stream-plain $S/bin/pf_stream --kernels "$KERNELS" --sizes-gib "$SIZES" --modes uvm,manual,pinned --reps "$REPS"
    step "2b. first-touch streaming, timed: gmem (LD_PRELOAD)"
    run 120 stream-gmem $PRE $S/bin/pf_stream --kernels "$KERNELS" --sizes-gib "$SIZES" --modes gmem --reps "$REPS"
    if [[ ",$KERNELS," == *,stencil3d,* ]]; then
      step "2b'. stencil3d (its read region is not bounded per launch) with GMEM_PREFETCH_UNBOUNDED=whole"
      run 60 stream-gmem-whole $PRE GMEM_PREFETCH_UNBOUNDED=whole $S/bin/pf_stream --kernels stencil3d \
        --sizes-gib "$SIZES" --modes gmem_whole --reps "$REPS"
      run 60 count-gmem-whole $PRE GMEM_PREFETCH_UNBOUNDED=whole PF_CUPTI=1 $S/bin/pf_stream --kernels stencil3d \
        --sizes-gib "$COUNT_SIZES" --modes gmem_whole --reps 1
    fi
    step "2c. fault counts (CUPTI unified-memory counters, 1 repetition, sizes $COUNT_SIZES GiB)"
    run 120 count-plain env PF_CUPTI=1 $S/bin/pf_stream --kernels "$KERNELS" --sizes-gib "$COUNT_SIZES" \
      --modes uvm,manual,pinned --reps 1
    run 60 count-gmem $PRE PF_CUPTI=1 $S/bin/pf_stream --kernels "$KERNELS" --sizes-gib "$COUNT_SIZES" \
      --modes gmem --reps 1
  fi

  if [[ "$SKIP" != *" 3 "* ]]; then
    step "3. oversubscription: $APPS at $APP_GIB GiB, ratios $RATIOS"
    T=$(python3 -c "print(int($APP_GIB * 2**30))")
    run 120 apps-uvm $S/bin/pf_apps --apps "$APPS" --gib "$APP_GIB" --reps "$APP_REPS" --arm uvm
    run 120 apps-unconstrained $PRE $S/bin/pf_apps --apps "$APPS" --gib "$APP_GIB" --reps "$APP_REPS" --arm unconstrained
    for r in ${RATIOS//,/ }; do
      B=$(python3 -c "print(int($T / $r))")
      echo "--- ratio $r: budget $B bytes"
      run 120 apps-gmem-$r $PRE GMEM_DEVICE_BUDGET="$B" $S/bin/pf_apps --apps "$APPS" --gib "$APP_GIB" \
        --reps "$APP_REPS" --arm gmem --ratio "$r"
      run 180 apps-baseline-$r $PRE GMEM_PREFETCH=0 GMEM_DEVICE_BUDGET="$B" $S/bin/pf_apps --apps "$APPS" \
        --gib "$APP_GIB" --reps "$APP_REPS" --arm baseline --ratio "$r"
    done
    if [ -n "$COUNT_RATIO" ]; then
      step "3b. fault counts under budget (CUPTI, ratio $COUNT_RATIO, 2 repetitions)"
      B=$(python3 -c "print(int($T / $COUNT_RATIO))")
      run 60 apps-count-gmem $PRE PF_CUPTI=1 GMEM_DEVICE_BUDGET="$B" $S/bin/pf_apps --apps "$APPS" --gib "$APP_GIB" \
        --reps 2 --arm gmem --ratio "$COUNT_RATIO"
      run 90 apps-count-baseline $PRE PF_CUPTI=1 GMEM_PREFETCH=0 GMEM_DEVICE_BUDGET="$B" $S/bin/pf_apps --apps "$APPS" \
        --gib "$APP_GIB" --reps 2 --arm baseline --ratio "$COUNT_RATIO"
    fi
  fi

  step "4. checks and tables"
} 2>&1 | tee "$LOG"
[ "${PIPESTATUS[0]}" = 0 ] || exit 2

python3 bench/prefetch/summarize.py "$PF_JSON" --log "$LOG" --out "$OUT/RESULTS.md" --checks "$OUT/checks.txt" 2>&1 | tee -a "$LOG"
RC=${PIPESTATUS[0]}
echo "# total $(( $(date +%s) - T_START )) s; exit $RC" | tee -a "$LOG"
exit "$RC"
