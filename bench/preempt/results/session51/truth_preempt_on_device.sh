#!/usr/bin/env bash
# Session 51, call 1: ground truth and forced preemption of this session's
# analysis (loads covered by the thread's own store, unused atomic
# max/min/and/or as writes, no clone for kernels whose inline PTX returns).
#   truth:   test/gpu over test/gpu/adversarial51 (round 5, 12 files), a
#            blind corpus of public code kept outside the repository
#            (/tmp/blind51: TensorFlow, PyG torch_scatter/torch_sparse,
#            SHA-256/MD5/MD2, flash-attention-minimal, radix sort and FFT,
#            PaddlePaddle) and the earlier files whose classes this session
#            changed (/tmp/blindchg51: blind48 compaction_sort, ggml_norm,
#            graph_frontier; blind50 cuco_misc, graph_lonestar, llmc_extra;
#            test/gpu/adversarial/idem_traps.cu; test/corpus/graph_traversal.cu);
#            staged together:
#              python3 test/gpu/stage.py --build-dir build --corpus test/gpu/adversarial51 \
#                --corpus /tmp/blind51 --corpus /tmp/blindchg51 --out .stage/t51/gpu --jobs 2
#   preempt: part correctness (forced preemption of every form at random
#            moments, outputs against an unpreempted run; segment scale 3,
#            40 trials an instance) over the same manifest, with session
#            50's harness (.stage/s50/preempt: bench/ and runtime/ did not
#            change).
# Archive .stage/c51.tgz (t51/gpu; s50/preempt's preempt_bench and kernels.ptx).
#   OUT=DIR bash bench/preempt/results/session51/truth_preempt_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session truthpreempt .stage/c51.tgz
G=.stage/t51/gpu
chmod +x "$G/run_twice"
mkdir -p "$W/truth"
GMEM_GPU_STAGE="$G" OUT="$W/truth" timeout 240 bash test/gpu/run_on_device.sh > "$W/truth/console.log" 2>&1
echo "=== truth exit $?" | tee -a "$LOG"
grep -E "^verdicts:|write regions:|read regions:|passed," "$W/truth/gpu_truth.log" | tail -4 | tee -a "$LOG"
grep -E "FALSE-IDEMPOTENT|OUTSIDE" "$W/truth/gpu_truth.log" | cut -c1-220 | head -20 | tee -a "$LOG"
gzip -9 "$W/truth/gpu_truth.json" "$W/truth/gpu_truth.log" 2>/dev/null
S=.stage/s50/preempt
chmod +x "$S/preempt_bench"
step correctness_t51 260 env PB_SEG_SCALE=3 "$S/preempt_bench" correctness \
  --manifest "$G/manifest.txt" --kernels "$S/kernels.ptx" --trials 40 --budget 230 \
  --json "$W/correctness_t51.json"
grep -E "correctness: wrote|mismatch|instances" "$W/correctness_t51.log" | tail -4 | tee -a "$LOG"
gzip -9 "$W/correctness_t51.log"
device_archive truthpreempt
