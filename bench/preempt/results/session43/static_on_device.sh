#!/usr/bin/env bash
# Session 43, call 4 (measurement of an experimental pass option): Limit
# sites of the static K (not paced) checked inside their body, as the paced
# ones now are, against their strip-mined segments. Base: this session's
# default stage (.stage/s43b/preempt); variants built by the pass
# (bench/preempt/pass_variants.py .stage/s43d/preempt
# sbody:GMEM_CHECKPOINT_STATIC_FORM=body sball:GMEM_CHECKPOINT_STATIC_FORM=bodyall):
# `sbody` only where the step is not a constant (ptxas cannot unroll such a
# segment by a known count anyway), `sball` every such site that touches
# memory. Part overhead, PB_SPREAD_ALL=1, three runs; part stops (60 a form,
# segment scale 0).
# The pass code of the variants is static_body.patch (on f40f561; not kept).
#   OUT=DIR bash bench/preempt/results/session43/static_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session static .stage/s43d.tgz
variant_runs static
variant_stops stops_static 150 120
device_archive static
