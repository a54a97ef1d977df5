#!/usr/bin/env bash
# Session 45, call 1: deferred stops' jumps carry a shared pointer's cast
# instead of poison (CheckpointDeferredStop.cpp jumpValue), so the clones'
# reductions keep ld/st.shared. `.stage/preempt` is this session's default
# stage; its var_manifest.txt adds `NAME@poison` lines (the same kernels
# built with GMEM_CHECKPOINT_JUMP_VALUE=poison, the code before this
# session) for the table kernels whose clones differ (softmax_rows,
# reduce_single_pass).
#   part overhead x3 (PB_SPREAD_ALL=1), part stops, part aslaunched x3
#   (libgmemrt choosing forms) of the var manifest, and forced preemption of
#   every corpus instance of the five changed files (new default).
#   OUT=DIR bash bench/preempt/results/session45/jump_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session jump .stage/s45a.tgz
variant_suite_launched jump "$S/corpus/changed_manifest.txt" 100 80 200 170
device_archive jump
