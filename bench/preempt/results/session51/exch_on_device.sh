#!/usr/bin/env bash
# Session 51, call 4: an atomicExch whose old value is unused is now a
# store. Ground truth and forced preemption (200 trials an instance) of the
# two files holding the kernels it changes (gs_round5.cu's g5_atomic_exch,
# idem_traps.cu's exch_as_store), staged
#   python3 test/gpu/stage.py --build-dir build --corpus test/gpu/adversarial51/gs_round5.cu \
#     --corpus test/gpu/adversarial/idem_traps.cu --out .stage/t51d/gpu --jobs 2
# with this session's harness (.stage/pb51). Archive .stage/c51d.tgz.
#   OUT=DIR bash bench/preempt/results/session51/exch_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session exch .stage/c51d.tgz
G=.stage/t51d/gpu
chmod +x "$G/run_twice" .stage/pb51/preempt_bench
mkdir -p "$W/truth"
GMEM_GPU_STAGE="$G" OUT="$W/truth" timeout 120 bash test/gpu/run_on_device.sh > "$W/truth/console.log" 2>&1
echo "=== truth exit $?" | tee -a "$LOG"
grep -E "^verdicts:|write regions:|read regions:|passed,|exch" "$W/truth/gpu_truth.log" | cut -c1-200 | tee -a "$LOG"
gzip -9 "$W/truth/gpu_truth.json" "$W/truth/gpu_truth.log" 2>/dev/null
step correctness_exch 150 env PB_SEG_SCALE=3 .stage/pb51/preempt_bench correctness \
  --manifest "$G/manifest.txt" --kernels .stage/pb51/kernels.ptx --trials 200 --budget 120 \
  --json "$W/correctness_exch.json"
grep -E "^\[" "$W/correctness_exch.log" | python3 -c '
import json, sys
t = c = m = 0
for line in sys.stdin:
    d = json.loads(line.split("] ", 1)[1])
    t += d.get("trials", 0); c += d.get("cut", 0); m += d.get("mismatches", 0)
    if "exch" in d["name"] or d.get("mismatches", 0):
        print(d["name"], "pred", d["pred"], "trials", d.get("trials"), "cut", d.get("cut"),
              "mismatches", d.get("mismatches"), "sequential_exact", d.get("sequential_exact"))
print("total trials", t, "cut", c, "mismatches", m)
' | tee -a "$LOG"
gzip -9 "$W/correctness_exch.log"
device_archive exch
