#!/usr/bin/env bash
# Session 48, call 1: (1) test/gpu's ground truth over the corpus with
# session 47's region analysis (a pointer chosen among parameters gets the
# offset's region), and over regions/Inputs/select_shapes.cu (chosen-pointer
# shapes written to break that rule); (2) part overhead of the `nocheck`
# PTX variants (bench/preempt/ptx_variants.py: paced loop checks skipped,
# in the full clone and in the alternate form) of five kernels, three
# rounds; (3) the SASS of im2col's forms and variants.
#   OUT=DIR bash bench/preempt/results/session48/truth_nocheck_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session truth .stage/c48a.tgz
S=.stage/d48/preempt
chmod +x "$S/preempt_bench" .stage/gpu/run_twice .stage/gpusel/run_twice
step corpus_truth 300 env OUT="$W/corpus" bash test/gpu/run_on_device.sh
tail -4 "$W/corpus/gpu_truth.log" | tee -a "$LOG"
step select_truth 120 env OUT="$W/select" GMEM_GPU_STAGE=.stage/gpusel bash test/gpu/run_on_device.sh
tail -4 "$W/select/gpu_truth.log" | tee -a "$LOG"
for r in 1 2 3; do
  step "overhead_nocheck_r$r" 100 env PB_SPREAD_ALL=1 "$S/preempt_bench" overhead \
    --manifest "$S/var_manifest.txt" --kernels "$S/kernels.ptx" --budget 70 \
    --json "$W/overhead_nocheck_r$r.json"
done
mkdir -p "$W/sass"
for f in "$S"/corpus/ptx/im2col.cubin "$S"/var/*/im2col.cubin; do
  n=$(echo "$f" | tr '/' '_')
  timeout 60 cuobjdump -sass "$f" > "$W/sass/$n.sass" 2>&1
done
device_archive truth
