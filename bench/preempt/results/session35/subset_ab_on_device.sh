#!/usr/bin/env bash
# Same-call A/B of two clone builds on a few kernels only (the builds differ
# in those): filters each stage's overhead and corpus manifests by the
# patterns given, then runs bench/preempt/ab_aslaunched_on_device.sh.
#
#   OUT=DIR ROUNDS=6 OVERHEAD='im2col|gemm_naive|vec_add|kmeans_assign|softmax_rows' \
#     CORPUS='im2col|loop_nests' bash bench/preempt/results/session35/subset_ab_on_device.sh \
#     def=.stage/preempt gp=.stage/preempt_gp
#
# GPU machine, repository root, the stages unpacked under .stage (one tgz
# carried). The manifests are rewritten in place: unpack fresh stages for
# a full run.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
for A in "$@"; do
  d=${A#*=}
  grep -E "${OVERHEAD:?}" "$d/overhead_manifest.txt" > "$d/om" && mv "$d/om" "$d/overhead_manifest.txt"
  { grep '^#' "$d/corpus/manifest.txt"; grep -E "${CORPUS:?}" "$d/corpus/manifest.txt"; } > "$d/cm" &&
    mv "$d/cm" "$d/corpus/manifest.txt"
  wc -l "$d/overhead_manifest.txt" "$d/corpus/manifest.txt"
done
exec bash bench/preempt/ab_aslaunched_on_device.sh "$@"
