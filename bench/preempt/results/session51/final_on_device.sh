#!/usr/bin/env bash
# Session 51, call 3: the final analysis (combines keyed on operation and
# width, plain stores proven apart from combines, no-op atomics, kernel
# pointers never shared memory) under
#   truth:   test/gpu over test/gpu/adversarial51 (all 15 files: round 5,
#            the covered-load and combine rounds, dyn_smem.cu), blind51 and
#            the earlier files whose classes changed (/tmp/blindchg51),
#            staged together:
#              python3 test/gpu/stage.py --build-dir build --corpus test/gpu/adversarial51 \
#                --corpus /tmp/blind51 --corpus /tmp/blindchg51 --out .stage/t51c/gpu --jobs 2
#   preempt: part correctness over the same manifest (segment scale 3, 40
#            trials an instance) with this session's harness (.stage/pb51);
#   chaos:   test/chaos/run_on_device.sh part 2 over six self-checking
#            programs a helper wrote for the new rules (softmax rows,
#            layernorm with residual, block max/min, Bloom bitset, Jacobi
#            stencil with an atomicMax convergence, histogram then scale),
#            staged with `bash test/chaos/stage_external.sh /tmp/ext51
#            --out .stage/external` (sources kept outside the repository);
#            each plain and under GMEM_SCHED_CHAOS=50 and 500.
# Archive .stage/c51c.tgz (t51c/gpu, pb51, external).
#   OUT=DIR bash bench/preempt/results/session51/final_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session final .stage/c51c.tgz
G=.stage/t51c/gpu
chmod +x "$G/run_twice" .stage/pb51/preempt_bench
mkdir -p "$W/truth"
GMEM_GPU_STAGE="$G" OUT="$W/truth" timeout 240 bash test/gpu/run_on_device.sh > "$W/truth/console.log" 2>&1
echo "=== truth exit $?" | tee -a "$LOG"
grep -E "^verdicts:|write regions:|read regions:|passed," "$W/truth/gpu_truth.log" | tail -4 | tee -a "$LOG"
grep -E "FALSE-IDEMPOTENT|OUTSIDE|ERROR" "$W/truth/gpu_truth.log" | grep -v "^verdicts" | cut -c1-220 | head -20 | tee -a "$LOG"
gzip -9 "$W/truth/gpu_truth.json" "$W/truth/gpu_truth.log" 2>/dev/null
step correctness_final 260 env PB_SEG_SCALE=3 .stage/pb51/preempt_bench correctness \
  --manifest "$G/manifest.txt" --kernels .stage/pb51/kernels.ptx --trials 40 --budget 230 \
  --json "$W/correctness_final.json"
grep -E "correctness: wrote" "$W/correctness_final.log" | tee -a "$LOG"
gzip -9 "$W/correctness_final.log"
OUT="$W/chaos" timeout 420 bash test/chaos/run_on_device.sh > /dev/null 2>&1
echo "=== chaos exit $?" | tee -a "$LOG"
grep -E "^PASS|^FAIL|^===|plain:|^# chaos" "$W/chaos/chaos.log" | tee -a "$LOG"
device_archive final
