#!/usr/bin/env bash
# Session 45, call 2: values a deferred stop's jump skips are computed again
# at the meeting point (CheckpointDeferredStop.cpp recomputeAtMeet), no phi
# with poison. `.stage/preempt` is this session's default stage (s45b); its
# var_manifest.txt adds, for every table kernel whose clones differ,
# `NAME@poison` (GMEM_CHECKPOINT_JUMP_VALUE=poison: the code before this
# session) and `NAME@cast` (call 1's default: phis, a pointer's cast
# carried by the jump).
#   part overhead x3 (PB_SPREAD_ALL=1), part stops, part aslaunched x3
#   (libgmemrt choosing forms) of the var manifest, and forced preemption of
#   every corpus instance of the changed files (new default).
#   OUT=DIR bash bench/preempt/results/session45/remat_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session remat .stage/s45b.tgz
variant_suite_launched remat "$S/corpus/changed_manifest.txt" 120 100 240 200
device_archive remat
