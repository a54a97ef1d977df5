#!/usr/bin/env bash
# Same-call A/B of preemptible-clone builds as libgmemrt launches them: each
# argument LABEL=STAGE_DIR is a `python3 bench/preempt/stage.py --build-dir
# BUILD --out STAGE_DIR` made with some GMEM_CHECKPOINT_* setting (the first
# is the baseline). Per build: part aslaunched ROUNDS times (builds
# alternated), part stops and forced-preemption correctness once. Every
# result goes into one archive, $OUT/ab.tgz (the device tool brings back at
# most 8 files), with a summary line per run in $OUT/ab.log.
#
#   OUT=DIR [ROUNDS=2] bash bench/preempt/ab_aslaunched_on_device.sh \
#       def=.stage/preempt gp=.stage/preempt_gp
#
# GPU machine, repository root, the stage directories carried (one tar
# unpacked into .stage first). Tables: bench/preempt/aslaunched_ab.py on
# two labels' files (--a/--b runs, --stops, --correctness, --changed), or
# bench/preempt/aslaunched_report.py on each build's files.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
OUT=${OUT:?}
. bench/preempt/device_common.sh # device_begin, step, aslaunched_step
device_begin ab
for R in $(seq 1 "${ROUNDS:-2}"); do
  for A in "$@"; do
    L=${A%%=*} S=${A#*=}
    aslaunched_step "aslaunched_${L}_$R" 120 "$S" 80
  done
done
for A in "$@"; do
  L=${A%%=*} S=${A#*=}
  step "stops_$L" 70 "$S/preempt_bench" stops --manifest "$S/overhead_manifest.txt" \
    --kernels "$S/kernels.ptx" --trials 60 --budget 45 --json "$W/stops_$L.json"
  step "correctness_$L" 70 "$S/preempt_bench" correctness --manifest "$S/corpus/manifest.txt" \
    --kernels "$S/kernels.ptx" --trials 40 --budget 45 --json "$W/correctness_$L.json"
done
tar czf "$OUT/ab.tgz" -C "$W" . && echo "archived $OUT/ab.tgz" | tee -a "$LOG"
