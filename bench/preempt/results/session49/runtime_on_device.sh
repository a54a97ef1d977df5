#!/usr/bin/env bash
# Session 49, call 5: the runtime GPU suite (test/runtime/gpu) with every
# grid-stride launch proved idempotent forced onto one trip per virtual CTA
# (GMEM_PREEMPT_GRID_STRIDE=1, the largest grid the tuner may try): the
# checksums with libgmemrt and under chaos (20 / 200 us) against the plain
# runs cover the regridded launches, stopped and relaunched.
# Staged with python3 test/runtime/gpu/stage.py --build-dir build, then
# (cd .stage && tar czf rt49.tgz --exclude=runtime/ll --exclude=runtime/cuda-stubs runtime).
#   OUT=DIR bash bench/preempt/results/session49/runtime_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_begin runtime
tar xzf .stage/rt49.tgz -C .stage || exit 2
export GMEM_PREEMPT_GRID_STRIDE=1
runtime_suite 400 | tee -a "$LOG"
device_archive runtime
