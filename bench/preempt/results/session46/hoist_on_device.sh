#!/usr/bin/env bash
# Session 46, call 1: short-entry tests computed once per enclosing loop
# nest instead of at every entry (CheckpointLoopVersion.cpp,
# placeShortEntryTest), against `NAME@nohoist`
# (GMEM_CHECKPOINT_VERSION_HOIST=0: the code before); and, for the stop
# latency of deferred stops, `NAME@dpaced` (GMEM_CHECKPOINT_DEFER=paced:
# every deferred loop paced, checked inside its body since session 43).
# `.stage/preempt` is this session's stage (s46a) with var_manifest.txt from
#   python3 bench/preempt/pass_variants.py .stage/s46a/preempt \
#     nohoist:GMEM_CHECKPOINT_VERSION_HOIST=0 dpaced:GMEM_CHECKPOINT_DEFER=paced
# and corpus/changed_manifest.txt = the corpus manifest's lines of the files
# whose PTX either change moves.
#   part overhead x3 (PB_SPREAD_ALL=1), part stops, part aslaunched x3 of the
#   var manifest, forced preemption of the changed files (default build).
#   OUT=DIR bash bench/preempt/results/session46/hoist_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session hoist .stage/s46a.tgz
variant_suite_launched hoist "$S/corpus/changed_manifest.txt" 120 100 240 200
device_archive hoist
