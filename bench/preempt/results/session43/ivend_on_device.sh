#!/usr/bin/env bash
# Session 43, call 9 (measurement of an experimental pass option): an
# in-body paced segment that ends where the induction variable reaches the
# value 2^s steps ahead (`iv.next != at`, one compare a trip;
# GMEM_CHECKPOINT_PACE_COUNT=iv) instead of by a count of trips left (a
# subtract and a compare; calls 7-8 found the clones' loops 3 instructions
# a trip longer than their kernels'), against this session's default stage.
# Variant built by the pass (bench/preempt/pass_variants.py
# .stage/s43f/preempt ivend:GMEM_CHECKPOINT_PACE_COUNT=iv). Part overhead,
# PB_SPREAD_ALL=1, three runs; part stops; forced preemption of the
# variant over the corpus instances of the files it recompiled.
# The pass code of the variant is pace_ivend.patch (on 20bf374; not kept).
#   OUT=DIR bash bench/preempt/results/session43/ivend_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session ivend .stage/s43f.tgz
variant_suite ivend "$S/corpus/manifest_ivend.txt"
device_archive ivend
