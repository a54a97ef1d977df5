#!/usr/bin/env bash
# Session 52, call 5: ground truth and forced preemption (200 trials an
# instance) of test/corpus/launch_flags.cu after 833162a (variants that
# touch less: lv_epilogue run in place is idempotent at beta == 0; a
# variant whose guards hold wins ties with the kernel's class), staged
#   python3 test/gpu/stage.py --build-dir build --corpus test/corpus/launch_flags.cu \
#     --out .stage/t52c/gpu --jobs 1
# with session 51's harness (.stage/pb51). Archive .stage/c52c.tgz
# ((cd .stage && tar czf c52c.tgz t52c pb51)).
#   OUT=DIR bash bench/preempt/results/session52/truth_preempt_flags_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session truthflags .stage/c52c.tgz
G=.stage/t52c/gpu
chmod +x "$G/run_twice" .stage/pb51/preempt_bench
mkdir -p "$W/truth"
GMEM_GPU_STAGE="$G" OUT="$W/truth" timeout 150 bash test/gpu/run_on_device.sh > "$W/truth/console.log" 2>&1
echo "=== truth exit $?" | tee -a "$LOG"
grep -E "^verdicts:|write regions:|read regions:|passed,|FALSE|iu_|lv_" "$W/truth/gpu_truth.log" | cut -c1-220 | tee -a "$LOG"
gzip -9 "$W/truth/gpu_truth.json" "$W/truth/gpu_truth.log" 2>/dev/null
summary() {
  grep -E "^\[" "$1" | python3 -c '
import json, sys
t = c = m = 0
for line in sys.stdin:
    d = json.loads(line.split("] ", 1)[1])
    t += d.get("trials", 0); c += d.get("cut", 0); m += d.get("mismatches", 0)
    if d.get("pred") == "idempotent" and ("iu_" in d["name"] or "lv_" in d["name"]) or d.get("mismatches", 0):
        print(d["name"], "pred", d["pred"], "trials", d.get("trials"), "cut", d.get("cut"),
              "mismatches", d.get("mismatches"), "sequential_exact", d.get("sequential_exact"))
print("total trials", t, "cut", c, "mismatches", m)
' | tee -a "$LOG"
}
grep -E "inplace_updates|launch_flags" "$G/manifest.txt" > "$G/manifest_lv.txt"
grep -vE "inplace_updates|launch_flags" "$G/manifest.txt" > "$G/manifest_adv.txt"
step correctness_lv 100 env PB_SEG_SCALE=3 .stage/pb51/preempt_bench correctness \
  --manifest "$G/manifest_lv.txt" --kernels .stage/pb51/kernels.ptx --trials 200 --budget 80 \
  --json "$W/correctness_lv.json"
summary "$W/correctness_lv.log"
gzip -9 "$W/correctness_lv.log"
device_archive truthflags
