# Shared by the per-session device scripts under bench/preempt/results/
# (sourced, on the GPU machine, from the repository root).
#
#   unpack_stage TGZ DIR   unpacks a staged bench/preempt (tar of .stage's
#                          preempt/) into DIR and .stage/rt.tgz into .stage;
#                          sets S to DIR/preempt; prints the GPU's state
#   aslaunched LABEL LIB MANIFEST [ENV=VALUE...]
#                          part aslaunched of S's preempt_bench under
#                          LD_PRELOAD=S/lib/LIB GMEM_SCHED=1 (and ENV), into
#                          W/aslaunched_LABEL.{json,log}; BUDGET (seconds,
#                          default 300) bounds it
#   runtime_suite LIMIT    test/runtime/gpu/run_on_device.sh into W/runtime,
#                          at most LIMIT seconds; prints its verdict lines
#   step NAME LIMIT CMD... CMD into W/NAME.log, at most LIMIT seconds; a line
#                          "=== NAME: exit RC in T s" to stdout and to LOG
#   device_begin NAME      a work directory W (mktemp), OUT created, LOG set
#                          to OUT/NAME.log with the GPU's state as first line
#   device_unpack NAME TGZ device_begin NAME, then TGZ (a tar of stages under
#                          .stage) unpacked into .stage
#   device_session NAME TGZ
#                          the start of a session's device script that sourced
#                          this file by its own path: set -u, the repository
#                          root as working directory, OUT required,
#                          device_unpack NAME TGZ, S=.stage/preempt and every
#                          unpacked stage's preempt_bench executable
#   ab_rounds A SA B SB [ENV=VALUE...]
#                          aslaunched_step aslaunched_A_rN (stage SA) and
#                          aslaunched_B_rN (stage SB, with ENV), alternated
#                          ROUNDS times (default 2), limit 150 s, budget 110
#   stops_step NAME STAGE SCALE
#                          step NAME: part stops of STAGE's overhead manifest
#                          at PB_SEG_SCALE=SCALE (60 trials, budget 50)
#   overhead_step NAME STAGE [ENV=VALUE...]
#                          step NAME: part overhead (each form alone against
#                          the kernel) of STAGE's overhead manifest, with ENV
#                          (limit 100 s, budget 80)
#   correctness_step NAME STAGE SCALE
#                          step NAME: forced preemption over STAGE's corpus
#                          at PB_SEG_SCALE=SCALE (40 trials, budget 100); its
#                          verdict lines to stdout and LOG
#   variant_runs NAME      step overhead_NAME_rN for N = 1..ROUNDS (default
#                          3): part overhead, PB_SPREAD_ALL=1, of S's
#                          var_manifest.txt (bench/preempt/ptx_variants.py),
#                          limit 150 s, budget 120
#   variant_stops NAME LIMIT BUDGET
#                          step NAME: part stops of S's var_manifest.txt (60
#                          stops a form, segment scale 0), at most LIMIT
#                          seconds, budget BUDGET
#   manifest_correctness NAME MANIFEST LIMIT BUDGET
#                          step NAME: forced preemption over MANIFEST (a
#                          corpus manifest under S, segment scale 3, 40
#                          trials an instance); its verdict lines to stdout
#                          and LOG
#   variant_aslaunched NAME LIMIT BUDGET
#                          step aslaunched_NAME_rN for N = 1..ROUNDS (default
#                          3): part aslaunched of S's var_manifest.txt under
#                          S's libgmemrt (GMEM_SCHED=1), at most LIMIT
#                          seconds, budget BUDGET
#   variant_suite_launched NAME MANIFEST AL AB CL CB
#                          ROUNDS=3 variant_runs NAME, variant_stops
#                          stops_NAME 150 120, ROUNDS=3 variant_aslaunched
#                          NAME AL AB and manifest_correctness
#                          correctness_NAME MANIFEST CL CB: a pass variant's
#                          time, stops, launches through libgmemrt and forced
#                          preemption in one call
#   variant_suite NAME MANIFEST
#                          variant_runs NAME, variant_stops stops_NAME 150
#                          120 and manifest_correctness correctness_NAME
#                          MANIFEST 150 120: a pass variant's time, stops
#                          and forced preemption in one call
#   ncu_step LIMIT SYMBOL [SKIP COUNT]
#                          bench/preempt/profile_on_device.sh SYMBOL (one or
#                          several, space-separated, in one word) of S's
#                          overhead manifest into W/ncu (launches SKIP /
#                          COUNT, default 3 / 3), at most LIMIT seconds; its
#                          output in W/ncu.log, the reports dropped and the
#                          CSV pages gzipped
#   ops_runs MANIFEST OPS...
#                          step ops_OPS per OPS (limit 80 s, budget 60): part
#                          aslaunched of S's preempt_bench without libgmemrt
#                          over MANIFEST (under S), PB_OPS=OPS: what the
#                          stream operations behind a clone cost
#   device_archive NAME [FILE...]
#                          gzips W's JSON and FILEs, tars W into OUT/NAME.tgz
#   aslaunched_step NAME LIMIT STAGE BUDGET [ENV=VALUE...]
#                          step NAME: part aslaunched of STAGE's preempt_bench
#                          (its overhead manifest) under STAGE's libgmemrt,
#                          GMEM_SCHED=1 and ENV, into W/NAME.json
#   six_kernels_manifest   S/sync_manifest.txt: the overhead manifest's relu,
#                          vec_add, iota_i32, gemv_warp, tile_sum_async and
#                          im2col (session 47's launch-path calls)
unpack_stage() {
  mkdir -p "$2" "$W" && tar xzf "$1" -C "$2" && tar xzf .stage/rt.tgz -C .stage || exit 2
  S=$2/preempt
  chmod +x "$S/preempt_bench"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
}

aslaunched() {
  local label=$1 lib=$2 man=$3
  shift 3
  echo "=== aslaunched $label"
  env "$@" GMEM_SCHED=1 LD_PRELOAD="$S/lib/$lib" timeout 200 "$S/preempt_bench" aslaunched \
    --manifest "$S/$man" --kernels "$S/kernels.ptx" --budget "${BUDGET:-300}" \
    --json "$W/aslaunched_$label.json" > "$W/aslaunched_$label.log" 2>&1
  echo "exit $?"
}

runtime_suite() {
  echo "=== runtime suite"
  OUT=$W/runtime timeout "$1" bash test/runtime/gpu/run_on_device.sh > "$W/runtime_stdout.txt" 2>&1
  echo "runtime suite exit $?"
  grep -E "chaos .*us:|checksums under chaos|suite status|^FAIL|gmemrt-sched" "$W/runtime/run.log"
  rm -f "$W"/runtime/sums_*.txt
  gzip -9 "$W"/runtime/chaos_*.txt "$W"/runtime/host_*.txt "$W"/runtime/latch_first.txt 2>/dev/null
}

step() {
  local name=$1 limit=$2 t0=$(date +%s)
  shift 2
  timeout "$limit" "$@" > "$W/$name.log" 2>&1
  echo "=== $name: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$LOG"
}

device_begin() {
  W=$(mktemp -d)
  mkdir -p "$OUT"
  LOG="$OUT/$1.log"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader | tee "$LOG"
}

device_session() {
  set -u
  cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
  : "${OUT:?OUT must name the folder the results go to}"
  device_unpack "$1" "$2"
  S=.stage/preempt
  chmod +x .stage/*/preempt_bench 2>/dev/null
}

aslaunched_step() {
  local name=$1 limit=$2 stage=$3 budget=$4
  shift 4
  chmod +x "$stage/preempt_bench"
  step "$name" "$limit" env "$@" GMEM_SCHED=1 LD_PRELOAD="$PWD/$stage/lib/libgmemrt.so" \
    "$stage/preempt_bench" aslaunched --manifest "$stage/overhead_manifest.txt" \
    --kernels "$stage/kernels.ptx" --budget "$budget" --json "$W/$name.json"
}

device_unpack() {
  device_begin "$1"
  tar xzf "$2" -C .stage || exit 2
}

ab_rounds() {
  local a=$1 sa=$2 b=$3 sb=$4 r
  shift 4
  for r in $(seq 1 "${ROUNDS:-2}"); do
    aslaunched_step "aslaunched_${a}_r$r" 150 "$sa" 110
    aslaunched_step "aslaunched_${b}_r$r" 150 "$sb" 110 "$@"
  done
}

stops_step() {
  step "$1" 70 env PB_SEG_SCALE="$3" "$2/preempt_bench" stops \
    --manifest "$2/overhead_manifest.txt" --kernels "$2/kernels.ptx" --trials 60 --budget 50 \
    --json "$W/$1.json"
}

overhead_step() {
  local name=$1 stage=$2
  shift 2
  step "$name" 100 env "$@" "$stage/preempt_bench" overhead \
    --manifest "$stage/overhead_manifest.txt" --kernels "$stage/kernels.ptx" --budget 80 \
    --json "$W/$name.json"
}

correctness_step() {
  step "$1" 120 env PB_SEG_SCALE="$3" "$2/preempt_bench" correctness \
    --manifest "$2/corpus/manifest.txt" --kernels "$2/kernels.ptx" --trials 40 --budget 100 \
    --json "$W/$1.json"
  grep -E "correctness: wrote|mismatch" "$W/$1.log" | tail -2 | tee -a "$LOG"
}

six_kernels_manifest() {
  grep -E " name=(im2col.cu:im2col|activations.cu:relu|iota.cu:iota_i32|vector_add.cu:vec_add|gemv.cu:gemv_warp|async_copy.cu:tile_sum_async) " \
    "$S/overhead_manifest.txt" > "$S/sync_manifest.txt"
}

ops_runs() {
  local man=$1 ops
  shift
  for ops in "$@"; do
    step "ops_$ops" 80 env PB_OPS="$ops" "$S/preempt_bench" aslaunched \
      --manifest "$S/$man" --kernels "$S/kernels.ptx" --budget 60 --json "$W/ops_$ops.json"
  done
}

device_archive() {
  local name=$1 f
  shift
  gzip -9 "$W"/*.json 2>/dev/null
  for f in "$@"; do gzip -9 "$W/$f" 2>/dev/null; done
  tar czf "$OUT/$name.tgz" -C "$W" . && echo "archived $OUT/$name.tgz" | tee -a "$LOG"
}

variant_runs() {
  local r
  for r in $(seq 1 "${ROUNDS:-3}"); do
    step "overhead_$1_r$r" 150 env PB_SPREAD_ALL=1 "$S/preempt_bench" overhead \
      --manifest "$S/var_manifest.txt" --kernels "$S/kernels.ptx" --budget 120 \
      --json "$W/overhead_$1_r$r.json"
  done
}

variant_stops() {
  step "$1" "$2" env PB_SEG_SCALE=0 "$S/preempt_bench" stops \
    --manifest "$S/var_manifest.txt" --kernels "$S/kernels.ptx" --trials 60 --budget "$3" \
    --json "$W/$1.json"
}

manifest_correctness() {
  step "$1" "$3" env PB_SEG_SCALE=3 "$S/preempt_bench" correctness \
    --manifest "$2" --kernels "$S/kernels.ptx" --trials 40 --budget "$4" --json "$W/$1.json"
  grep -E "correctness: wrote|mismatch" "$W/$1.log" | tail -2 | tee -a "$LOG"
}

variant_aslaunched() {
  local r
  for r in $(seq 1 "${ROUNDS:-3}"); do
    step "aslaunched_$1_r$r" "$2" env GMEM_SCHED=1 LD_PRELOAD="$PWD/$S/lib/libgmemrt.so" \
      "$S/preempt_bench" aslaunched --manifest "$S/var_manifest.txt" --kernels "$S/kernels.ptx" \
      --budget "$3" --json "$W/aslaunched_$1_r$r.json"
  done
}

variant_suite_launched() {
  ROUNDS=3 variant_runs "$1"
  variant_stops "stops_$1" 150 120
  ROUNDS=3 variant_aslaunched "$1" "$3" "$4"
  manifest_correctness "correctness_$1" "$2" "$5" "$6"
}

variant_suite() {
  variant_runs "$1"
  variant_stops "stops_$1" 150 120
  manifest_correctness "correctness_$1" "$2" 150 120
}

ncu_step() {
  OUT=$W PREEMPT_STAGE=$S NCU_SKIP=${3:-3} NCU_COUNT=${4:-3} timeout "$1" \
    bash bench/preempt/profile_on_device.sh $2 > "$W/ncu.log" 2>&1 # SYMBOL may list several
  echo "=== ncu exit $?" | tee -a "$LOG"
  rm -f "$W"/ncu/*.ncu-rep
  gzip -9 "$W"/ncu/*.csv 2>/dev/null
}

# correctness_summary LOGFILE REGEX
#   totals of a forced-preemption log (part correctness's per-instance JSON
#   lines), and one line per instance whose name matches REGEX and is
#   predicted idempotent, or that has a mismatch; to stdout and LOG.
correctness_summary() {
  grep -E "^\[" "$1" | REGEX="$2" python3 -c '
import json, os, re, sys
want = re.compile(os.environ["REGEX"])
t = c = m = 0
for line in sys.stdin:
    d = json.loads(line.split("] ", 1)[1])
    t += d.get("trials", 0); c += d.get("cut", 0); m += d.get("mismatches", 0)
    if d.get("pred") == "idempotent" and want.search(d["name"]) or d.get("mismatches", 0):
        print(d["name"], "pred", d["pred"], "trials", d.get("trials"), "cut", d.get("cut"),
              "mismatches", d.get("mismatches"), "sequential_exact", d.get("sequential_exact"))
print("total trials", t, "cut", c, "mismatches", m)
' | tee -a "$LOG"
}
