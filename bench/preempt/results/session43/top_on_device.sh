#!/usr/bin/env bash
# Session 43, call 10 (measurement of an experimental pass option): the
# in-body paced check at the top of a trip (GMEM_CHECKPOINT_PACE_AT=top):
# the header counts the trip down and branches to the check when the count
# runs out, the latch keeps its own branch, the loop one back edge (the
# default's check after the latch made LLVM split the loop in two, so each
# check still left and re-entered an inner loop; call 8). Against this
# session's default stage. Variant built by the pass
# (bench/preempt/pass_variants.py .stage/s43g/preempt top:GMEM_CHECKPOINT_PACE_AT=top).
# The pass code of the variant is pace_top.patch (on a6b09f3).
#   OUT=DIR bash bench/preempt/results/session43/top_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session top .stage/s43g.tgz
variant_suite top "$S/corpus/manifest_top.txt"
device_archive top
