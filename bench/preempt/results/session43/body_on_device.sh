#!/usr/bin/env bash
# Session 43, call 1 (measurement of an experimental pass option): paced
# loops checked inside their body (GMEM_CHECKPOINT_PACE_FORM=body, a
# segment counter in a header phi) against the strip-mined segments, on
# session 41's final stage (.stage/s41d/preempt_gs, the PTX of main at
# d690604, which the pass still gives byte for byte). The variants are
# whole builds by the pass (bench/preempt/pass_variants.py .stage/s43a/
# preempt body:GMEM_CHECKPOINT_PACE_FORM=body): the 11 overhead-table
# kernels whose clones changed get a line `name@body` beside their own.
#  1. part overhead, PB_SPREAD_ALL=1, three runs (each form alone against
#     its kernel, at the resident grid and at 4x);
#  2. part stops of both (60 random stops each, segment scale 0);
#  3. forced preemption of the body build over the corpus instances of the
#     10 changed files (corpus/manifest_body.txt), segment scale 3.
#   OUT=DIR bash bench/preempt/results/session43/body_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session body .stage/s43a.tgz
for r in 1 2 3; do
  step "overhead_body_r$r" 125 env PB_SPREAD_ALL=1 "$S/preempt_bench" overhead \
    --manifest "$S/var_manifest.txt" --kernels "$S/kernels.ptx" --budget 100 \
    --json "$W/overhead_body_r$r.json"
done
variant_stops stops_body 80 60
manifest_correctness correctness_body "$S/corpus/manifest_body.txt" 110 90
device_archive body
