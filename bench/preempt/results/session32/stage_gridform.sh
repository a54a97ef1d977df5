#!/usr/bin/env bash
# Stages part "gridform" of run_on_device.sh into .stage/preempt (after
# bench/preempt/stage.py): the nine costliest kernels of the overhead table
# with their persistent clones (persist_manifest.txt, the corpus PTX) and,
# from the same sources, grid clones (GMEM_CHECKPOINT_PERSISTENT=0: the
# user's grid, an entry check and a done bit per CTA, loop checkpoints as
# usual) in grid/ (grid_manifest.txt), register fit as stage.py applies it.
set -eu -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.."
S=.stage/preempt
mkdir -p "$S/grid"
for f in gemm kmeans spmv softmax layernorm gemv im2col scan embedding; do
  GMEM_CHECKPOINT_PERSISTENT=0 build/bin/gmem-analyze "test/corpus/$f.cu" \
    --emit-ptx "$S/grid/$f.ptx" > /dev/null
done
python3 - "$S/grid" <<'PY'
import glob, sys
sys.path.insert(0, "tools/gmem-clang")
import ptx_fit
for p in sorted(glob.glob(sys.argv[1] + "/*.ptx")):
    ptx_fit.fit_clone_registers(p, "/usr/local/cuda/bin/ptxas", "sm_90")
PY
grep -E "name=(gemm.cu:gemm_naive|kmeans.cu:kmeans_assign|im2col.cu:im2col|scan.cu:scan_hillis_steele|embedding.cu:embedding_lookup|spmv.cu:spmv_ell|softmax.cu:softmax_rows|gemv.cu:gemv_warp|layernorm.cu:layernorm_rows) " \
  "$S/overhead_manifest.txt" > "$S/persist_manifest.txt"
sed 's#ptx=corpus/ptx/#ptx=grid/#' "$S/persist_manifest.txt" > "$S/grid_manifest.txt"
wc -l "$S/persist_manifest.txt" "$S/grid_manifest.txt"
