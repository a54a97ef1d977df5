#!/usr/bin/env bash
# Nsight Compute profiles of an original kernel, its full clone and its light
# twin, side by side (the overhead part's launches), on the GPU machine:
#
#   bash bench/preempt/profile_on_device.sh SYMBOL [SYMBOL...]   # results in $OUT/ncu
#
# Each SYMBOL (mangled, as in overhead_manifest.txt) is profiled from the
# overhead manifest's first line for it: after the harness's warm-up launches
# (original, full clone, light twin), the next three launches are profiled
# with stall sampling per SASS instruction. Writes SYMBOL.ncu-rep,
# SYMBOL.details.csv (ncu --page details) and SYMBOL.source.csv (--page
# source --print-source sass); summarise with bench/preempt/ncu_summary.py.
# NCU_SKIP / NCU_COUNT (default 3 / 3) choose the launches profiled;
# NCU_EXTRA_SECTIONS adds sections (e.g. "--section MemoryWorkloadAnalysis");
# NCU_SOURCE=0 leaves out SourceCounters, whose SASS patching slows a trip
# (and so shortens paced segments): stall reasons of an unpatched run.
# Needs `ncu` (Firecracker machines; gVisor ones cannot read the counters).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
STAGE="${PREEMPT_STAGE:-.stage/preempt}"
OUT="${OUT:-$STAGE/out}/ncu"
mkdir -p "$OUT" || exit 2
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "error: ncu not found"; exit 2; }
[ $# -ge 1 ] || { echo "usage: $0 SYMBOL [SYMBOL...]"; exit 2; }
status=0
for sym in "$@"; do
  line=$(grep -m1 " sym=$sym " "$STAGE/overhead_manifest.txt") || { echo "no manifest line for $sym"; status=1; continue; }
  echo "$line" > "$OUT/$sym.manifest"
  # The manifest's ptx= paths are relative to the manifest's own directory.
  sed -i "s@ptx=@ptx=$(realpath "$STAGE")/@" "$OUT/$sym.manifest"
  echo "=== $sym"
  # regex:.*SYM matches the original, __gmem_pre_SYM and __gmem_prl_SYM
  # (ncu matches the whole mangled name).
  timeout 120 "$NCU" --clock-control none --kernel-name-base mangled -k "regex:.*$sym" \
    --launch-skip ${NCU_SKIP:-3} --launch-count ${NCU_COUNT:-3} \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section SchedulerStats $([ "${NCU_SOURCE:-1}" = 0 ] || echo --section SourceCounters) \
    ${NCU_EXTRA_SECTIONS:-} -f -o "$OUT/$sym" \
    "$STAGE/preempt_bench" overhead --manifest "$OUT/$sym.manifest" \
    --kernels "$STAGE/kernels.ptx" --budget 1 --json "$OUT/$sym.json" > "$OUT/$sym.log" 2>&1
  rc=$?
  echo "ncu exit $rc"; grep "==PROF== Profiling" "$OUT/$sym.log" | sed 's/:.*//' | sort | uniq -c
  [ $rc = 0 ] || status=1
  "$NCU" -i "$OUT/$sym.ncu-rep" --page details --csv > "$OUT/$sym.details.csv" 2>&1
  [ "${NCU_SOURCE:-1}" = 0 ] ||
    "$NCU" -i "$OUT/$sym.ncu-rep" --page source --csv --print-source sass > "$OUT/$sym.source.csv" 2>&1
done
exit $status
