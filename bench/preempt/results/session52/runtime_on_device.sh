#!/usr/bin/env bash
# Session 52, call 2: the runtime GPU suite with this session's libgmemrt
# (launch variants: a launch whose scalar arguments meet a variant's guard
# is decided with it) over the corpus, test/corpus/launch_flags.cu
# included: step 2 requires libgmemrt's decision at every launch, on the
# real driver, to equal gmem-analyze's instance mode. Staged with
#   python3 test/runtime/gpu/stage.py --build-dir build
# then (cd .stage && tar czf rt52.tgz --exclude=runtime/ll --exclude=runtime/cuda-stubs runtime).
#   OUT=DIR bash bench/preempt/results/session52/runtime_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_begin runtime
tar xzf .stage/rt52.tgz -C .stage || exit 2
runtime_suite 400 | tee -a "$LOG"
grep -E "launch_flags|decision|mismatch" "$W/runtime/run.log" | head -20 | tee -a "$LOG"
device_archive runtime
