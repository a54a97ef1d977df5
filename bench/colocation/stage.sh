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
#
# Both kinds of clone are checked against the clone ABI version 2
# (docs/PREEMPTION_DESIGN.md, "ABI version 2: persistent clones"): info
# version 2, and the clone's parameters = the kernel's + the control block
# pointer + three u32 (the user's grid). colocation_pass is staged only when
# the pass's clones pass (libgmemrt refuses others, so the demo would not
# preempt); the hand-written ones must pass.
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
rm -rf "$S/bin" "$S/lib" "$S/colocation_pass.ptx" "$S/colocation_hand.ptx"
mkdir -p "$S/bin" "$S/lib"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
FLAGS=(-O2 --cudart=static --no-gmem-runtime -ldl -lpthread)

# clone_abi PTX WHAT: one line per training kernel (info version, flags,
# persistent or not, signature); exit 1 when a clone is not ABI version 2.
clone_abi() {
  python3 - "$1" "$2" <<'PY'
import re, sys
ptx, what = sys.argv[1], sys.argv[2]
text = open(ptx).read()
bad = 0
def params(name):
    m = re.search(r"\.entry\s+%s\s*\(([^)]*)\)" % re.escape(name), text)
    return None if m is None else re.findall(r"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)", m.group(1))
for k in ("train_step", "train_accum"):
    m = re.search(r"\.global\s+\.align\s+\d+\s+\.(b8|u32|b32)\s+__gmem_pre_info_%s\[\d+\]"
                  r"\s*=\s*\{([^}]*)\}" % k, text)
    if not m:
        print("%s: %s: no info global __gmem_pre_info_%s" % (what, k, k)); bad = 1; continue
    vals = [int(v, 0) for v in m.group(2).replace(" ", "").split(",") if v]
    if m.group(1) == "b8":
        vals += [0] * (20 - len(vals))
        w = [int.from_bytes(bytes(vals[4 * i:4 * i + 4]), "little") for i in range(5)]
    else:
        w = vals + [0] * (5 - len(vals))
    orig, clone = params(k), params("__gmem_pre_" + k)
    why = []
    if w[0] != 0x31504d47:
        why.append("magic 0x%08x" % w[0])
    if w[1] != 2:
        why.append("info version %d, the runtime expects 2" % w[1])
    if clone is None:
        why.append("no clone __gmem_pre_%s" % k)
    elif orig is None or clone != orig + ["u64", "u32", "u32", "u32"]:
        why.append("clone parameters %s, expected the kernel's %s + u64 ctl + 3 x u32 grid"
                   % (clone, orig))
    print("%s: %s: info v%d flags 0x%x (%s), %s" % (
        what, k, w[1], w[2], "persistent" if w[2] & 16 else "user's grid",
        "; ".join(why) if why else "ABI version 2 signature"))
    bad |= bool(why)
sys.exit(bad)
PY
}

# The pass's clones, when the plugin makes them.
"$GC" --cuda-device-only -S -O2 "$SRC" -o "$TMP/pass.ptx"
if ! grep -q "__gmem_pre_info_train_step" "$TMP/pass.ptx" || ! grep -q "__gmem_pre_info_train_accum" "$TMP/pass.ptx"; then
  echo "stage.sh: the plugin emits no preemptible clones; only the hand-written ones are staged"
elif ! clone_abi "$TMP/pass.ptx" pass; then
  echo "stage.sh: the pass's clones are not clone ABI version 2 (above); colocation_pass not staged, only the hand-written ones"
else
  "$GC" "${FLAGS[@]}" "$SRC" -o "$S/bin/colocation_pass"
  cp "$TMP/pass.ptx" "$S/colocation_pass.ptx"
  echo "stage.sh: colocation_pass (clones from the checkpoint pass)"
fi
GMEM_CHECKPOINTS=0 "$GC" --cuda-device-only -S -O2 -DGMEM_HAND_CLONES=1 "$SRC" -o "$TMP/hand.ptx"
if grep -q "__gmem_pre___gmem_pre_" "$TMP/hand.ptx"; then
  echo "stage.sh: GMEM_CHECKPOINTS=0 did not turn the pass off" >&2
  exit 1
fi
clone_abi "$TMP/hand.ptx" hand || { echo "stage.sh: the hand-written clones do not follow clone ABI version 2" >&2; exit 1; }
GMEM_CHECKPOINTS=0 "$GC" "${FLAGS[@]}" -DGMEM_HAND_CLONES=1 "$SRC" -o "$S/bin/colocation_hand"
cp "$TMP/hand.ptx" "$S/colocation_hand.ptx"
cp "$BUILD/lib/libgmemrt.so" "$S/lib/"
echo "stage.sh: staged in $S ($(du -sh "$S" | cut -f1))"
