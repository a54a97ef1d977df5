#!/usr/bin/env bash
# Session 49, call 4: ground truth (test/gpu) with this session's analysis
# (pointer values laundered through memory or calls, order-dependent shared
# reductions in asm and mixed shared atomics, polled trip counts):
#   corpus:  the whole corpus (354 instances);
#   adv:     test/gpu/adversarial (round 1);
#   adv49:   test/gpu/adversarial49 (round 3: library primitives, pointer
#            storage, indirect calls, inter-block communication, packed types);
#   blind49: a blind corpus of public code (Parboil, SHOC, vLLM, Apex/Megatron,
#            Rodinia; kept outside the repository, its manifest committed);
# then the overhead table as launched, GMEM_PREEMPT_GRID_STRIDE=auto (the
# default, 8 launches of settling) against 0, one round side by side.
# Staged with test/gpu/stage.py --corpus DIR --out .stage/t49/NAME/gpu, tar czf
# .stage/t49.tgz -C .stage t49; and .stage/s49f.tgz: call 1's stage cut to
# what part aslaunched reads (preempt_bench, kernels.ptx, the overhead
# manifest and its PTX), with the final libgmemrt, as s49/preempt.
#   OUT=DIR bash bench/preempt/results/session49/truth_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session truth .stage/t49.tgz
tar xzf .stage/s49f.tgz -C .stage || exit 2
for N in corpus adv adv49 blind49; do
  G=.stage/t49/$N/gpu
  chmod +x "$G/run_twice"
  mkdir -p "$OUT/$N"
  GMEM_GPU_STAGE="$G" OUT="$OUT/$N" timeout 150 bash test/gpu/run_on_device.sh > "$OUT/$N/truth_console.log" 2>&1
  echo "=== $N truth exit $?" | tee -a "$LOG"
  grep -E "^verdicts:|write regions:|read regions:|passed," "$OUT/$N/gpu_truth.log" | tail -4 | tee -a "$LOG"
  grep -E "FALSE-IDEMPOTENT|OUTSIDE" "$OUT/$N/gpu_truth.log" | cut -c1-200 | head -12 | tee -a "$LOG"
  gzip -9 "$OUT/$N/gpu_truth.json" 2>/dev/null
done
S=.stage/s49/preempt
chmod +x "$S/preempt_bench"
BUDGET=80 aslaunched auto_final libgmemrt.so overhead_manifest.txt | tee -a "$LOG"
BUDGET=80 aslaunched off_final libgmemrt.so overhead_manifest.txt GMEM_PREEMPT_GRID_STRIDE=0 | tee -a "$LOG"
device_archive truth
