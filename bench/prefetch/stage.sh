#!/usr/bin/env bash
# Stage the prefetch benchmarks and GPU tests (bench/prefetch) for the GPU
# machine, which has no compiler (build machine, after building the
# gmem-clang, GmemPlugin and gmemrt targets):
#
#   bash bench/prefetch/stage.sh [--build-dir BUILD] [--out DIR] [--runtime LIB]
#
# BUILD (default: build) must hold bin/gmem-clang++, lib/GmemPlugin.so and
# lib/libgmemrt.so (--runtime LIB stages another libgmemrt.so). Writes DIR (default .stage/prefetch, git-ignored):
#   bin/pf_stream      first-touch streaming kernels (part 1)
#   bin/pf_apps        PolyBench-/Rodinia-like workloads under a budget (part 2)
#   bin/pf_launch      per-launch host cost (part 4)
#   lib/               libcudart.so.13, libcupti.so.13 (dlopen'ed for fault
#                      counts), libgmemrt.so (LD_PRELOADed by the runner)
#   reports/*.txt      the gmem plugin's analysis report of each source
#   stage.log          every command; stage.txt: what was staged
# All binaries are built without libgmemrt (rpath $ORIGIN/../lib only), so
# the same binary runs plain and under LD_PRELOAD. Then, on the GPU machine,
# from the repo root with ".stage" carried: bash bench/prefetch/run_on_device.sh
set -u -o pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
BUILD="$REPO/build"
OUTDIR="$REPO/.stage/prefetch"
RT_OVERRIDE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) BUILD="$(cd "$2" && pwd)" || exit 2; shift 2 ;;
    --out) OUTDIR="$2"; shift 2 ;;
    --runtime) RT_OVERRIDE="$2"; shift 2 ;;
    *) echo "usage: $0 [--build-dir BUILD] [--out DIR] [--runtime LIB]" >&2; exit 2 ;;
  esac
done
DRIVER="$BUILD/bin/gmem-clang++"
RT="${RT_OVERRIDE:-$BUILD/lib/libgmemrt.so}"
for f in "$DRIVER" "$BUILD/lib/GmemPlugin.so" "$RT"; do
  [ -e "$f" ] || { echo "error: $f missing: build the gmem-clang, GmemPlugin and gmemrt targets in $BUILD" >&2; exit 2; }
done
rm -rf "$OUTDIR"
mkdir -p "$OUTDIR/bin" "$OUTDIR/lib" "$OUTDIR/reports" || exit 2
LOG="$OUTDIR/stage.log"
CFG="$("$DRIVER" --gmem-config)" || exit 2
echo "$CFG" > "$LOG"
CUDALIB="$(sed -n 's/^cudart_libdir=//p' <<<"$CFG")"
CUDA="$(sed -n 's/^cuda=//p' <<<"$CFG")"

FAILED=0
build() { # build NAME SOURCES...
  local name="$1"; shift
  echo "## $name" >> "$LOG"
  if "$DRIVER" -v -O2 -std=c++17 --no-gmem-runtime --gmem-no-rpath -Wl,-rpath,'$ORIGIN/../lib' \
       -I"$REPO/include" -I"$HERE" --gmem-report="$OUTDIR/reports/$name.txt" \
       "$@" -ldl -lpthread -o "$OUTDIR/bin/$name" >> "$LOG" 2>&1; then
    echo "staged  bin/$name"
  else
    echo "FAILED  bin/$name (see $LOG)"; tail -20 "$LOG"; FAILED=1
  fi
}
P="$HERE"
build pf_stream "$P/stream.cu" "$P/um_counter.cpp"
build pf_apps "$P/apps_main.cu" "$P/polybench.cu" "$P/rodinia.cu" "$P/um_counter.cpp"
build pf_launch "$P/launch_cost.cu" "$P/um_counter.cpp"

# Libraries the binaries need there: cudart by its soname; CUPTI (found next
# to cudart or in the toolkit's targets dir); the runtime under test.
soname="$(readelf -d "$CUDALIB/libcudart.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
cp -L "$CUDALIB/libcudart.so" "$OUTDIR/lib/${soname:-libcudart.so.13}" || exit 2
CUPTI=""
for d in "$CUDALIB" "$CUDA/targets/x86_64-linux/lib" "$CUDA/extras/CUPTI/lib64"; do
  for f in "$d"/libcupti.so.1[0-9]*; do [ -e "$f" ] && { CUPTI="$f"; break 2; }; done
done
if [ -n "$CUPTI" ]; then
  cp -L "$CUPTI" "$OUTDIR/lib/$(basename "$CUPTI" | sed 's/^\(libcupti\.so\.[0-9]*\).*/\1/')" || exit 2
else
  echo "warning: no libcupti.so.1x found: fault counts will be missing"; FAILED=1
fi
cp -L "$RT" "$OUTDIR/lib/libgmemrt.so" || exit 2

{
  echo "staged $(date -u +%Y-%m-%dT%H:%M:%SZ) from $BUILD, runtime $RT"
  echo "git $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null) $(git -C "$REPO" status --porcelain 2>/dev/null | wc -l) changed files"
  echo "libgmemrt memory API: $(nm -D "$OUTDIR/lib/libgmemrt.so" | grep -c -E ' T gmem(GetMemoryStats|Advise|MallocManaged)$')/3 symbols"
  echo "cupti: ${CUPTI:-none}"
} > "$OUTDIR/stage.txt"
cat "$OUTDIR/stage.txt"
echo "# staged in $OUTDIR ($(du -sh "$OUTDIR" | cut -f1)); GPU machine: bash bench/prefetch/run_on_device.sh"
exit $FAILED
