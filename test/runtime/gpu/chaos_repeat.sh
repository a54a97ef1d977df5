#!/usr/bin/env bash
# Repeats the runtime suite's chaos check (run_on_device.sh, step 4b) on the
# manifest instances whose names match PATTERN, RUNS times per setting, and
# prints how many runs gave each output hash: one hash per instance means
# synthetic preemptions changed nothing; more than one (for an instance that
# is not order-dependent) is a wrong result to chase. Settings: "plain"
# (no libgmemrt), "clones" (GMEM_SCHED=1, unpreempted) and chaos at each
# interval, each also with every extra environment given as KEY=VALUE.
#
#   bash test/runtime/gpu/chaos_repeat.sh 'nbody_forces' 100 20 [KEY=VALUE...]
#
# Run on the GPU machine from the repository root, .stage/runtime carried
# (python3 test/runtime/gpu/stage.py --build-dir BUILD).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 2
[ $# -ge 3 ] || { echo "usage: $0 PATTERN RUNS CHAOS_US [KEY=VALUE...]" >&2; exit 2; }
PATTERN=$1 RUNS=$2 CHAOS=$3; shift 3
S=.stage/runtime
RT="$PWD/$S/lib/libgmemrt.so"
M=$(mktemp)
grep -E "^name=[^ ]*($PATTERN)" "$S/manifest.txt" > "$M"
[ -s "$M" ] || { echo "no instance matches $PATTERN" >&2; exit 2; }
echo "instances: $(wc -l < "$M"); runs per setting: $RUNS; extra env: ${*:-none}"
# Instances with one hash in every run are counted; the others are listed
# with how many runs gave each hash.
tally() {
  sort | uniq -c | awk '{ n[$3]++; line[$3] = line[$3] sprintf("    %5d %s %s\n", $1, $3, $4) }
    END { one = 0; for (k in n) if (n[k] == 1) one++; else printf "%s", line[k];
          printf "    %d instance(s) with one hash in every run\n", one }'
}
echo "== plain"
for i in $(seq 1 "$RUNS"); do timeout 60 $S/bin/gpu_host "$M" --sums --stream 2>&1 | grep "^SUM"; done | tally
echo "== clones (GMEM_SCHED=1)"
for i in $(seq 1 "$RUNS"); do
  env "$@" LD_PRELOAD="$RT" GMEM_SCHED=1 timeout 60 $S/bin/gpu_host "$M" --sums --stream 2>&1 | grep "^SUM"
done | tally
echo "== chaos $CHAOS us"
for i in $(seq 1 "$RUNS"); do
  env "$@" LD_PRELOAD="$RT" GMEM_SCHED_CHAOS="$CHAOS" GMEM_SCHED_CHAOS_SEED="$i" timeout 60 \
    $S/bin/gpu_host "$M" --sums --stream 2>&1 | grep "^SUM"
done | tally
rm -f "$M"
