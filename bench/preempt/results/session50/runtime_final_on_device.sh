#!/usr/bin/env bash
# Session 50, call 8: the runtime GPU suite again with the final libgmemrt
# (239111e: one argument hash per grid-stride launch; keys change value, not
# meaning), otherwise as call 6: this session's libgmemrt
# (chooser: the light trial right after a decision, the full forms compared
# again after a spread switch; the grid-stride tuner's settled grids;
# grid-stride words without bit 20 ignored), the default options.
# Staged with python3 test/runtime/gpu/stage.py --build-dir build, then
# (cd .stage && tar czf rt50b.tgz --exclude=runtime/ll --exclude=runtime/cuda-stubs runtime).
#   OUT=DIR bash bench/preempt/results/session50/runtime_final_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_begin runtimefinal
tar xzf .stage/rt50b.tgz -C .stage || exit 2
runtime_suite 300 | tee -a "$LOG"
device_archive runtimefinal
