#!/usr/bin/env bash
# Session 51, call 2: kernels staged through dynamic shared memory (GMEM-RUN
# smem=, new this session) under ground truth and forced preemption:
# test/gpu/adversarial51/dyn_smem.cu (6 kernels, 8 instances), staged
#   python3 test/gpu/stage.py --build-dir build --corpus test/gpu/adversarial51/dyn_smem.cu \
#     --out .stage/t51b/gpu --jobs 2
# and this session's harness (.stage/pb51: bench/preempt built by the
# command in bench/preempt/stage.py, which now reads smem= and launches the
# kernel and every clone form with it; kernels.ptx from .stage/s50).
# Forced preemption at 200 trials an instance (few instances). Archive
# .stage/c51b.tgz.
#   OUT=DIR bash bench/preempt/results/session51/dyn_smem_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session dynsmem .stage/c51b.tgz
G=.stage/t51b/gpu
chmod +x "$G/run_twice" .stage/pb51/preempt_bench
mkdir -p "$W/truth"
GMEM_GPU_STAGE="$G" OUT="$W/truth" timeout 120 bash test/gpu/run_on_device.sh > "$W/truth/console.log" 2>&1
echo "=== truth exit $?" | tee -a "$LOG"
grep -E "^\[|^verdicts:|write regions:|read regions:|passed," "$W/truth/gpu_truth.log" | cut -c1-200 | tee -a "$LOG"
gzip -9 "$W/truth/gpu_truth.json" "$W/truth/gpu_truth.log" 2>/dev/null
step correctness_dyn 150 env PB_SEG_SCALE=3 .stage/pb51/preempt_bench correctness \
  --manifest "$G/manifest.txt" --kernels .stage/pb51/kernels.ptx --trials 200 --budget 120 \
  --json "$W/correctness_dyn.json"
grep -E "^\[" "$W/correctness_dyn.log" | python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line.split("] ", 1)[1])
    print(d["name"], "pred", d["pred"], "P", d.get("P"), "trials", d.get("trials"), "cut", d.get("cut"),
          "mismatches", d.get("mismatches"), "compared", d.get("compared"), d.get("error", ""))
' | tee -a "$LOG"
gzip -9 "$W/correctness_dyn.log"
device_archive dynsmem
