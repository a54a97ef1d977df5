#!/usr/bin/env bash
# Session 48, call 10: the runtime GPU suite (test/runtime/gpu) with this
# session's analysis (the runtime is session 47's): every corpus instance's
# launch decision in libgmemrt on the GPU against gmem-analyze's, checksums
# with and without libgmemrt, and under chaos (20 / 200 us). The corpus now
# has a launch with a null pointer argument.
# Staged with python3 test/runtime/gpu/stage.py --build-dir build, then
# (cd .stage && tar czf rt48.tgz --exclude=runtime/ll --exclude=runtime/cuda-stubs runtime).
#   OUT=DIR bash bench/preempt/results/session48/runtime_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_begin runtime
tar xzf .stage/rt48.tgz -C .stage || exit 2
runtime_suite 300 | tee -a "$LOG"
device_archive runtime
