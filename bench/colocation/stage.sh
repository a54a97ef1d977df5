#!/usr/bin/env bash
# Builds the co-location demo here and stages it in .stage/colocation/ for
# the GPU machine (which has no compiler):
#
#   bash bench/colocation/stage.sh [BUILD_DIR]      # default: build-sched
#
# BUILD_DIR must hold bin/gmem-clang++, lib/GmemPlugin.so and lib/libgmemrt.so.
# Two binaries, both built with the gmem plugin (descriptors embedded) and a
# static CUDA runtime:
#   bin/colocation_pass   preemptible clones from the compiler's checkpoint
#                         pass (only when the plugin emits them)
#   bin/colocation_hand   hand-written clones (GMEM_HAND_CLONES=1), with the
#                         pass turned off (GMEM_CHECKPOINTS=0)
# then lib/libgmemrt.so. Run there: bash bench/colocation/run_on_device.sh
set -eu -o pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build-sched}"
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
GC="$BUILD/bin/gmem-clang++"
SRC="$ROOT/bench/colocation/colocation.cu"
S="$ROOT/.stage/colocation"
for F in "$GC" "$BUILD/lib/GmemPlugin.so" "$BUILD/lib/libgmemrt.so"; do
  [ -e "$F" ] || { echo "stage.sh: $F is missing (build gmemrt, GmemPlugin and gmem-clang++ in $BUILD)" >&2; exit 1; }
done
rm -rf "$S/bin" "$S/lib"
mkdir -p "$S/bin" "$S/lib"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
FLAGS=(-O2 --cudart=static --no-gmem-runtime -ldl -lpthread)

# The pass's clones, when the plugin makes them.
"$GC" --cuda-device-only -S -O2 "$SRC" -o "$TMP/pass.ptx"
if grep -q "__gmem_pre_info_train_step" "$TMP/pass.ptx" && grep -q "__gmem_pre_info_train_accum" "$TMP/pass.ptx"; then
  "$GC" "${FLAGS[@]}" "$SRC" -o "$S/bin/colocation_pass"
  cp "$TMP/pass.ptx" "$S/colocation_pass.ptx"
  echo "stage.sh: colocation_pass (clones from the checkpoint pass)"
else
  echo "stage.sh: the plugin emits no preemptible clones; only the hand-written ones are staged"
fi
GMEM_CHECKPOINTS=0 "$GC" --cuda-device-only -S -O2 -DGMEM_HAND_CLONES=1 "$SRC" -o "$TMP/hand.ptx"
if grep -q "__gmem_pre___gmem_pre_" "$TMP/hand.ptx"; then
  echo "stage.sh: GMEM_CHECKPOINTS=0 did not turn the pass off" >&2
  exit 1
fi
GMEM_CHECKPOINTS=0 "$GC" "${FLAGS[@]}" -DGMEM_HAND_CLONES=1 "$SRC" -o "$S/bin/colocation_hand"
cp "$TMP/hand.ptx" "$S/colocation_hand.ptx"
cp "$BUILD/lib/libgmemrt.so" "$S/lib/"
echo "stage.sh: staged in $S ($(du -sh "$S" | cut -f1))"
