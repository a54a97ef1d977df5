#!/usr/bin/env bash
# Session 55: ground truth (test/gpu: run twice, region checks) and forced
# preemption (part correctness, segment scale 3, 100 trials an instance) of
# this session's analysis (saturations written as branches, maps of threads
# sharing an element, alias pairs after rounds 11 and 12) over the corpora
# named by the archive, staged
#   python3 test/gpu/stage.py --build-dir build --corpus FILE_OR_DIR ... \
#     --out .stage/tNAME/gpu --jobs 1
# with session 53's preemption harness (bench/preempt/stage.py --out
# .stage/s53/preempt; only preempt_bench and kernels.* travel, as pb53; no
# clone form changed since).
# Archive: (cd .stage && tar czf cNAME.tgz tNAME pb53).
#   OUT=DIR NAME=55a bash bench/preempt/results/session55/truth_preempt_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session "truth$NAME" ".stage/c$NAME.tgz"
G=.stage/t$NAME/gpu
chmod +x "$G/run_twice" .stage/pb53/preempt_bench
mkdir -p "$W/truth"
GMEM_GPU_STAGE="$G" OUT="$W/truth" timeout 200 bash test/gpu/run_on_device.sh > "$W/truth/console.log" 2>&1
echo "=== truth exit $?" | tee -a "$LOG"
grep -E "^verdicts:|write regions:|read regions:|passed," "$W/truth/gpu_truth.log" | tail -4 | tee -a "$LOG"
grep -E "FALSE-IDEMPOTENT|OUTSIDE|NONDET" "$W/truth/gpu_truth.log" | cut -c1-220 | head -20 | tee -a "$LOG"
gzip -9 "$W/truth/gpu_truth.json" "$W/truth/gpu_truth.log" 2>/dev/null
step correctness 200 env PB_SEG_SCALE=3 .stage/pb53/preempt_bench correctness \
  --manifest "$G/manifest.txt" --kernels .stage/pb53/kernels.ptx --trials 100 --budget 170 \
  --json "$W/correctness.json"
correctness_summary "$W/correctness.log" 'gu_|iu_|ct_|sw_|as_|al_|gl_|ao_|mx_|gm_|stale_'
gzip -9 "$W/correctness.log"
device_archive "truth$NAME"
