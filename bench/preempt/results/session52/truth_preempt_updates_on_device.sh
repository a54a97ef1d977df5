#!/usr/bin/env bash
# Session 52, call 3: ground truth (test/gpu: run twice, region checks) and
# forced preemption (part correctness, segment scale 3; 200 trials an
# instance for the corpus files, 40 for the round-7 files) of the final
# analysis over test/corpus/inplace_updates.cu (idempotent in-place
# updates), test/corpus/launch_flags.cu (launch variants, now with masked
# and paired guards) and test/gpu/adversarial52/iu_*.cu (round 7), staged
#   python3 test/gpu/stage.py --build-dir build --corpus test/corpus/inplace_updates.cu \
#     --corpus test/corpus/launch_flags.cu --corpus test/gpu/adversarial52/iu_calls_misc.cu \
#     --corpus test/gpu/adversarial52/iu_ctrl_leak.cu --corpus test/gpu/adversarial52/iu_forms.cu \
#     --corpus test/gpu/adversarial52/iu_order_alias.cu \
#     --corpus test/gpu/adversarial52/iu_real_variants.cu --out .stage/t52b/gpu --jobs 1
# with session 51's harness (.stage/pb51). Archive .stage/c52b.tgz
# ((cd .stage && tar czf c52b.tgz t52b pb51)).
#   OUT=DIR bash bench/preempt/results/session52/truth_preempt_updates_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session truthupdates .stage/c52b.tgz
G=.stage/t52b/gpu
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
step correctness_adv 170 env PB_SEG_SCALE=3 .stage/pb51/preempt_bench correctness \
  --manifest "$G/manifest_adv.txt" --kernels .stage/pb51/kernels.ptx --trials 40 --budget 150 \
  --json "$W/correctness_adv.json"
summary "$W/correctness_adv.log"
gzip -9 "$W/correctness_lv.log" "$W/correctness_adv.log"
device_archive truthupdates
