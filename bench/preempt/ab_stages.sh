#!/usr/bin/env bash
# Same-call A/B of preemptible-clone builds on the GPU machine: each argument
# LABEL=STAGE_DIR is a `bench/preempt/stage.py --out STAGE_DIR` made with some
# GMEM_CHECKPOINT_* setting. Runs the overhead part for every stage (original
# and clone interleaved, so each is its own ratio), then forced-preemption
# correctness and a short latency run for every stage but the first (the
# baseline), and SASS counts of a few kernels where cuobjdump exists.
# PARTS (default "overhead correctness latency") and BASE_PARTS (default
# "overhead") say which parts run for the other stages and for the first;
# "stops" adds the stop latency of the overhead table's kernels.
#
#   OUT=/tmp/ab bash bench/preempt/ab_stages.sh def=.stage/preempt lim=.stage/pre_limit
#   python3 bench/preempt/compare_overhead.py def=OUT/def/overhead.json lim=OUT/lim/overhead.json
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
OUT="${OUT:-/tmp/ab}"
SASS_PATTERN="${SASS_PATTERN:-gemm_polybench|kmeans_assign|gemm_naive|scan_hillis|bitonic_sort_shared|im2col}"
mkdir -p "$OUT" || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
first=1
status=0
for arg in "$@"; do
  label=${arg%%=*} stage=${arg#*=}
  mkdir -p "$OUT/$label"
  bench="$stage/preempt_bench"
  chmod +x "$bench" 2>/dev/null
  parts=${PARTS:-overhead correctness latency}
  [ "$first" = 1 ] && parts=${BASE_PARTS:-overhead}
  for part in $parts; do
    echo "=== $label $part ($stage)"
    case $part in
      overhead)
        timeout 80 "$bench" overhead --manifest "$stage/overhead_manifest.txt" --kernels "$stage/kernels.ptx" \
          --budget "${OVERHEAD_BUDGET:-55}" --json "$OUT/$label/overhead.json" > "$OUT/$label/overhead.log" 2>&1
        echo "exit $?" ;;
      stops)
        timeout 100 "$bench" stops --manifest "$stage/overhead_manifest.txt" --kernels "$stage/kernels.ptx" \
          --trials "${STOPS_TRIALS:-40}" --budget "${STOPS_BUDGET:-70}" --json "$OUT/$label/stops.json" \
          > "$OUT/$label/stops.log" 2>&1
        echo "exit $?" ;;
      correctness)
        timeout 90 "$bench" correctness --manifest "$stage/corpus/manifest.txt" --kernels "$stage/kernels.ptx" \
          --trials 102 --budget 60 --json "$OUT/$label/correctness.json" > "$OUT/$label/correctness.log" 2>&1
        rc=$?; [ "$rc" = 0 ] || status=1
        echo "exit $rc; $(tail -n 4 "$OUT/$label/correctness.log" | tr '\n' ' ')" ;;
      latency)
        timeout 60 "$bench" latency --kernels "$stage/kernels.ptx" --trials 300 --budget 45 \
          --json "$OUT/$label/latency.json" > "$OUT/$label/latency.log" 2>&1
        echo "exit $?" ;;
    esac
  done
  if command -v cuobjdump > /dev/null; then
    for c in "$stage"/corpus/ptx/*.cubin; do
      bash bench/preempt/sass_summary.sh "$c" "$SASS_PATTERN"
    done > "$OUT/$label/sass.txt" 2>&1
  fi
  first=0
done
exit $status
