#!/usr/bin/env bash
# Session 55: the runtime GPU suite (test/runtime/gpu) with this session's
# analysis over the corpus (guarded_updates.cu and inplace_updates.cu with
# the composing and guarded maps, alias pairs): step 2 requires libgmemrt's
# decision at every launch, on the real driver, to equal gmem-analyze's
# instance mode; step 4b restarts the idempotent launches under chaos.
# Staged with
#   python3 test/runtime/gpu/stage.py --build-dir build
# then (cd .stage && tar czf rt55.tgz --exclude=runtime/ll --exclude=runtime/cuda-stubs runtime).
#   OUT=DIR bash bench/preempt/results/session55/runtime_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_begin runtime
tar xzf .stage/rt55.tgz -C .stage || exit 2
runtime_suite 400 | tee -a "$LOG"
grep -E "guarded_updates|inplace_updates|decision|mismatch" "$W/runtime/run.log" | head -30 | tee -a "$LOG"
device_archive runtime
