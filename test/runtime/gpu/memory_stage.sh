#!/usr/bin/env bash
# Stage the memory-side GPU checks (test/runtime/gpu/memory_check.cu) into
# .stage/memory (git-ignored), built with gmem-clang++ (descriptors embedded,
# libgmemrt linked first) as a relocatable tree:
#   bin/memory_check, lib/libcudart.so.13, lib/libgmemrt.so
# Then on the GPU machine: bash test/runtime/gpu/memory_run.sh
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
BUILD="${1:-$REPO/build}"
DRIVER="$BUILD/bin/gmem-clang++"
OUT="$REPO/.stage/memory"
[ -x "$DRIVER" ] || { echo "error: $DRIVER not found: build gmem first" >&2; exit 2; }
rm -rf "$OUT"; mkdir -p "$OUT/bin" "$OUT/lib" || exit 2
CFG="$("$DRIVER" --gmem-config)"
cfg() { sed -n "s/^$1=//p" <<<"$CFG"; }
CUDALIB="$(cfg cudart_libdir)"
soname="$(readelf -d "$CUDALIB/libcudart.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
cp -L "$CUDALIB/libcudart.so" "$OUT/lib/${soname:-libcudart.so}" || exit 2
# The runtime: GMEM_RUNTIME overrides the driver's (a build whose plugin
# differs from the runtime under test).
cp -L "${GMEM_RUNTIME:-$(cfg runtime)}" "$OUT/lib/libgmemrt.so" || exit 2
CUPTI_INC=/usr/local/cuda/extras/CUPTI/include
[ -f "$CUPTI_INC/cupti.h" ] || CUPTI_INC=/usr/local/cuda/include
cp -L /usr/local/cuda/targets/x86_64-linux/lib/libcupti.so.13 "$OUT/lib/" || exit 2
"$DRIVER" -O2 --gmem-no-rpath -Wl,-rpath,'$ORIGIN/../lib' -I"$REPO/include" \
  -I"$REPO/bench/prefetch" -I"$CUPTI_INC" \
  "$HERE/memory_check.cu" "$REPO/bench/prefetch/um_counter.cpp" -ldl -o "$OUT/bin/memory_check" || exit 1
echo "staged $OUT"
