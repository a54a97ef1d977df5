#!/usr/bin/env bash
# Stage self-checking CUDA programs from outside this repository (public
# benchmark suites: nothing of theirs is kept here) for
# test/chaos/run_on_device.sh:
#
#   bash test/chaos/stage_external.sh SRC_DIR [--out DIR]
#
# Builds every SRC_DIR/*.cu (one program per file, host and device code)
# with gmem-clang++ -O2 --gmem-runtime -fgpu-default-stream=per-thread (the
# legacy default stream takes no part in scheduling) into DIR (default
# .stage/external): bin/NAME, lib/ (libcudart, libgmemrt), programs.txt,
# build.log. A program that does not build is reported and left out.
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
DRIVER="$REPO/build/bin/gmem-clang++"
SRC="${1:-}"
[ -n "$SRC" ] && [ -d "$SRC" ] || { echo "usage: $0 SRC_DIR [--out DIR]" >&2; exit 2; }
shift
OUTDIR="$REPO/.stage/external"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUTDIR="$2"; shift 2 ;;
    *) echo "usage: $0 SRC_DIR [--out DIR]" >&2; exit 2 ;;
  esac
done
[ -x "$DRIVER" ] || { echo "error: $DRIVER not found: build gmem first" >&2; exit 2; }
CFG="$("$DRIVER" --gmem-config)"
cfg() { sed -n "s/^$1=//p" <<<"$CFG"; }
RT="$(cfg runtime)"
[ -f "$RT" ] || { echo "error: libgmemrt.so not built ($RT)" >&2; exit 2; }
rm -rf "$OUTDIR"
mkdir -p "$OUTDIR/bin" "$OUTDIR/lib" || exit 2
CUDALIB="$(cfg cudart_libdir)"
soname="$(readelf -d "$CUDALIB/libcudart.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
cp -L "$CUDALIB/libcudart.so" "$OUTDIR/lib/${soname:-libcudart.so}" || exit 2
cp -L "$RT" "$OUTDIR/lib/libgmemrt.so" || exit 2
LOG="$OUTDIR/build.log"
: > "$LOG"
: > "$OUTDIR/programs.txt"
n=0; bad=0
for f in "$SRC"/*.cu; do
  [ -f "$f" ] || continue
  name="$(basename "$f" .cu)"
  echo "## $name" >> "$LOG"
  if timeout 300 "$DRIVER" -O2 --gmem-runtime -fgpu-default-stream=per-thread --gmem-no-rpath \
       -Wl,-rpath,'$ORIGIN/../lib' "$f" -o "$OUTDIR/bin/$name" >> "$LOG" 2>&1; then
    echo "$name" >> "$OUTDIR/programs.txt"; n=$((n + 1)); echo "staged  bin/$name"
  else
    bad=$((bad + 1)); echo "FAILED  $name (see $LOG)"
  fi
done
echo "# staged $n programs in $OUTDIR ($bad did not build); carry it with .stage/colocation"
