#!/usr/bin/env bash
# Session 50, call 5: ground truth of the final analysis and the table as
# launched through the final libgmemrt against session 49's.
#   truth:   ground truth (test/gpu) with this session's analysis (the
#            grid-stride write rule) over test/gpu/adversarial50 (round 4) and
#            blind50 (a blind corpus of public code kept outside the
#            repository: bitsandbytes, DeepSpeed, FasterTransformer /
#            TensorRT-LLM, HeCBench, cuda-samples, Lonestar-style graphs,
#            llm.c, megablocks, cuDF/CuPy/RAFT, OpenCV, Caffe, cuCollections);
#            staged together: test/gpu/stage.py --corpus
#            test/gpu/adversarial50 --corpus /tmp/blind50 --out .stage/t50/gpu;
#   table:   the overhead table as launched, this session's PTX (bench stage
#            .stage/s50/preempt), session 49's final libgmemrt (old) against
#            this session's (new), one round each, alternated.
# Archive .stage/f50.tgz: t50/gpu and s50/preempt cut to what part
# aslaunched reads (with session 49's final libgmemrt as libgmemrt_s49.so).
# The runtime suite is call 6 (runtime_on_device.sh): both do not fit one
# carry.
#   OUT=DIR bash bench/preempt/results/session50/final_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session final .stage/f50.tgz
G=.stage/t50/gpu
chmod +x "$G/run_twice"
mkdir -p "$W/truth"
GMEM_GPU_STAGE="$G" OUT="$W/truth" timeout 200 bash test/gpu/run_on_device.sh > "$W/truth/console.log" 2>&1
echo "=== truth exit $?" | tee -a "$LOG"
grep -E "^verdicts:|write regions:|read regions:|passed," "$W/truth/gpu_truth.log" | tail -4 | tee -a "$LOG"
grep -E "FALSE-IDEMPOTENT|OUTSIDE" "$W/truth/gpu_truth.log" | cut -c1-200 | head -12 | tee -a "$LOG"
gzip -9 "$W/truth/gpu_truth.json" "$W/truth/gpu_truth.log" 2>/dev/null
S=.stage/s50/preempt
chmod +x "$S/preempt_bench"
BUDGET=75 aslaunched old libgmemrt_s49.so overhead_manifest.txt | tee -a "$LOG"
BUDGET=75 aslaunched new libgmemrt.so overhead_manifest.txt | tee -a "$LOG"
device_archive final
