#!/usr/bin/env bash
# Session 43, call 5 (measurement of an experimental pass option): paced
# in-body loops whose entries start at the s the site's last check chose
# (GMEM_CHECKPOINT_PACE_CARRY=1, per thread across entries and virtual
# CTAs) instead of at min(K, 4) trips, against this session's default
# stage (.stage/s43b/preempt). Variant built by the pass
# (bench/preempt/pass_variants.py .stage/s43e/preempt carry:GMEM_CHECKPOINT_PACE_CARRY=1).
# Part overhead, PB_SPREAD_ALL=1, three runs; part stops (60 a form, segment
# scale 0); forced preemption of the carry build over the whole corpus.
# The pass code of the variant is pace_carry.patch (on af14730; not kept).
#   OUT=DIR bash bench/preempt/results/session43/carry_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session carry .stage/s43e.tgz
variant_suite carry "$S/corpus/manifest_carry.txt"
device_archive carry
