#!/usr/bin/env bash
# Session 52, call 4: the runtime GPU suite with this session's libgmemrt
# (launch variants: a launch whose scalar arguments meet a variant's guard
# is decided with it) over the corpus with the final analysis (idempotent
# in-place updates, masked and paired guards), test/corpus/launch_flags.cu
# and inplace_updates.cu included: step 2 requires libgmemrt's decision at
# every launch, on the real driver, to equal gmem-analyze's instance mode;
# step 4b restarts the newly idempotent launches under chaos. Staged with
#   python3 test/runtime/gpu/stage.py --build-dir build
# then (cd .stage && tar czf rt52b.tgz --exclude=runtime/ll --exclude=runtime/cuda-stubs runtime).
#   OUT=DIR bash bench/preempt/results/session52/runtime_final_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_begin runtimefinal
tar xzf .stage/rt52b.tgz -C .stage || exit 2
runtime_suite 400 | tee -a "$LOG"
grep -E "launch_flags|inplace_updates|decision|mismatch" "$W/runtime/run.log" | head -20 | tee -a "$LOG"
device_archive runtimefinal
