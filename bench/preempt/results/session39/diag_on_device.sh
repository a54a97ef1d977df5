#!/usr/bin/env bash
# Session 39, call 1: what kmeans_assign's full clone pays for its cluster
# loop's check (and the every-trip checks of im2col, spmv_ell, embedding),
# timed as PTX variants of the clones (bench/preempt/ptx_variants.py, plus
# a hand-made `nocheck`: the cluster loop's check replaced by "no request"),
# part overhead twice; and the SASS of kmeans.cu's kernel and clones.
#   OUT=DIR bash bench/preempt/results/session39/diag_on_device.sh
# GPU machine, repository root; .stage/s39.tgz holds .stage/preempt (with
# var/ and var_manifest.txt) and .stage/sass/kmeans.cubin.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
OUT=${OUT:?}
. bench/preempt/device_common.sh
device_begin diag
tar xzf .stage/s39.tgz -C .stage || exit 2
S=.stage/preempt
chmod +x $S/preempt_bench
for r in 1 2; do
  step "overhead_var_r$r" 280 $S/preempt_bench overhead --manifest $S/var_manifest.txt \
    --kernels $S/kernels.ptx --budget 120 --json "$W/overhead_var_r$r.json"
done
/usr/local/cuda/bin/cuobjdump -sass .stage/sass/kmeans.cubin > "$W/sass_kmeans.txt" 2>&1
cp "$LOG" "$W/"
tar czf "$OUT/diag.tgz" -C "$W" . && echo "archived $OUT/diag.tgz"
