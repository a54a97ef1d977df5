#!/usr/bin/env bash
# Session 44, call 2 (measurement of a pass option): the twins of barrier
# kernels without their balanced tail (GMEM_CHECKPOINT_TAIL=0: no ticket
# claimed by atomic at the end, static order only) against the default
# (25%), on session 43's default stage (.stage/s43b/preempt) plus
# `python3 bench/preempt/pass_variants.py .stage/s44a/preempt
# notail:GMEM_CHECKPOINT_TAIL=0` (12 overhead-table kernels whose forms
# changed get a line `name@notail`).
#  1. part overhead, PB_SPREAD_ALL=1, three runs (every form at the resident
#     grid and at 4x, against its kernel);
#  2. part stops of both (60 random stops a form, segment scale 0).
#   OUT=DIR bash bench/preempt/results/session44/notail_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session notail .stage/s44a.tgz
ROUNDS=3 variant_runs notail
variant_stops stops_notail 120 100
device_archive notail
