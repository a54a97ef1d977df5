#!/usr/bin/env bash
# Stage the driver's GPU test (build machine, after `cd build && make`):
#
#   bash test/driver/gpu/stage.sh [--driver PATH] [--out DIR]
#
# Builds test/driver/programs with gmem-clang++ into DIR (default
# .stage/driver, git-ignored) as a relocatable tree that needs only the
# NVIDIA driver (libcuda.so.1) on the GPU machine:
#   bin/vadd, bin/stencil2d, bin/multi        shared cudart (lib/libcudart.so.13)
#   bin/vadd_static, bin/stencil2d_static     -static-cudart
#   bin/vadd_gmemrt, bin/stencil2d_gmemrt     linked with gmem's runtime, when
#                                             build/lib/libgmemrt.so exists
#   bin/*_chaos                               the same, per-thread default stream,
#                                             run under GMEM_SCHED_CHAOS
#   lib/                                      libcudart.so.13 (+ libgmemrt.so)
#   programs.txt                              what run.sh runs, one per line
#   stage.log                                 every driver command (-v)
# All with rpath $ORIGIN/../lib (--gmem-no-rpath: no build-machine paths).
# Then on the GPU machine: bash test/driver/gpu/run.sh (carry .stage/driver).
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
DRIVER="$REPO/build/bin/gmem-clang++"
OUTDIR="$REPO/.stage/driver"
while [ $# -gt 0 ]; do
  case "$1" in
    --driver) DRIVER="$2"; shift 2 ;;
    --out) OUTDIR="$2"; shift 2 ;;
    *) echo "usage: $0 [--driver PATH] [--out DIR]" >&2; exit 2 ;;
  esac
done
[ -x "$DRIVER" ] || { echo "error: $DRIVER not found: build gmem first (cd build && make)" >&2; exit 2; }
P="$HERE/../programs"
rm -rf "$OUTDIR"
mkdir -p "$OUTDIR/bin" "$OUTDIR/lib" || exit 2
LOG="$OUTDIR/stage.log"
: > "$LOG"
CFG="$("$DRIVER" --gmem-config)"
echo "$CFG" >> "$LOG"
cfg() { sed -n "s/^$1=//p" <<<"$CFG"; }
CUDALIB="$(cfg cudart_libdir)"
RT="$(cfg runtime)"

# libcudart.so.13 (whatever its soname is) next to the programs.
soname="$(readelf -d "$CUDALIB/libcudart.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
cp -L "$CUDALIB/libcudart.so" "$OUTDIR/lib/${soname:-libcudart.so}" || exit 2

FAILED=0
: > "$OUTDIR/programs.txt"
build() { # build NAME ARGS...
  local name="$1"; shift
  echo "## $name" >> "$LOG"
  if "$DRIVER" -v -O2 --gmem-no-rpath -Wl,-rpath,'$ORIGIN/../lib' "$@" -o "$OUTDIR/bin/$name" >> "$LOG" 2>&1; then
    echo "$name" >> "$OUTDIR/programs.txt"
    echo "staged  bin/$name"
  else
    echo "FAILED  bin/$name (see $LOG)"; FAILED=1
  fi
}
build vadd              --no-gmem-runtime "$P/vadd.cu" "$P/check.cpp"
build stencil2d         --no-gmem-runtime "$P/stencil2d.cu" "$P/check.cpp"
build multi             --no-gmem-runtime "$P/multi_main.cu" "$P/multi_scale.cu" "$P/check.cpp"
build vadd_static       --no-gmem-runtime -static-cudart "$P/vadd.cu" "$P/check.cpp"
build stencil2d_static  --no-gmem-runtime -static-cudart "$P/stencil2d.cu" "$P/check.cpp"
if [ "$RT" != "(none)" ] && [ -f "$RT" ]; then
  cp -L "$RT" "$OUTDIR/lib/libgmemrt.so" || exit 2
  # Its own dependencies from the build tree, if any (system ones stay).
  ldd "$RT" 2>/dev/null | awk '/=> \// {print $3}' | while read -r dep; do
    case "$dep" in "$REPO"/*) cp -L "$dep" "$OUTDIR/lib/";; esac
  done
  build vadd_gmemrt      --gmem-runtime "$P/vadd.cu" "$P/check.cpp"
  build stencil2d_gmemrt --gmem-runtime "$P/stencil2d.cu" "$P/check.cpp"
  build demo_app         --gmem-runtime -I"$REPO/include" "$REPO/examples/demo/demo_app.cu" -ldl  # the README's GPU demo
  # Per-thread default stream (the legacy one takes no part in scheduling):
  # run.sh runs these under GMEM_SCHED_CHAOS (synthetic preemptions).
  build vadd_chaos       --gmem-runtime -fgpu-default-stream=per-thread "$P/vadd.cu" "$P/check.cpp"
  build stencil2d_chaos  --gmem-runtime -fgpu-default-stream=per-thread "$P/stencil2d.cu" "$P/check.cpp"
  build multi_chaos      --gmem-runtime -fgpu-default-stream=per-thread "$P/multi_main.cu" "$P/multi_scale.cu" "$P/check.cpp"
else
  echo "note    build/lib/libgmemrt.so not built: no *_gmemrt programs staged"
fi
python3 "$HERE/../fatbin_list.py" "$OUTDIR/bin/vadd" >> "$LOG" 2>&1
echo "# staged in $OUTDIR ($(wc -l < "$OUTDIR/programs.txt") programs); on the GPU machine: bash test/driver/gpu/run.sh"
exit $FAILED
