#!/usr/bin/env bash
# `cmake --install` of a build into a scratch prefix, then the installed
# tools on their own (CTest: `driver-install`): gmem-clang++ must find its
# plugin, libgmemrt and CUDA stand-in headers under the prefix (not in the
# build tree), build the demo program against the installed headers and
# link it to the installed libgmemrt; gmem-analyze must report a kernel.
#
#   bash test/driver/run_install_test.sh --build DIR [--cmake PATH] [--work DIR]
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
BUILD="$REPO/build"
CMAKE=cmake
WORK=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD="$2"; shift 2 ;;
    --cmake) CMAKE="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--cmake PATH] [--work DIR]" >&2; exit 2 ;;
  esac
done
source "$HERE/common.sh"
use_work_dir "gmem install test"
unset GMEM_PLUGIN GMEM_RUNTIME_LIB
P="$WORK/prefix dir"

if out="$("$CMAKE" --install "$BUILD" --prefix "$P" 2>&1)"; then ok "cmake --install"
else bad "cmake --install" "$out"; summary; exit 1; fi
for f in bin/gmem-clang++ bin/gmem-analyze lib/GmemPlugin.so lib/libgmemrt.so \
         include/gmem/gmem.h include/gmem/gmem_sched.h include/gmem/descriptor_abi.h \
         share/gmem/ptx_fit.py share/gmem/cuda-stubs/texture_fetch_functions.h \
         lib/cmake/gmem/GmemCUDA.cmake; do
  if [ -e "$P/$f" ]; then ok "installed $f"; else bad "installed $f"; fi
done

cfg="$("$P/bin/gmem-clang++" --gmem-config 2>&1)"
for k in plugin runtime stub_dir; do
  v="$(sed -n "s/^$k=//p" <<<"$cfg")"
  case "$v" in
    "$P"/*) ok "driver's $k is the installed one" ;;
    *) bad "driver's $k is the installed one (got '$v')" "$cfg" ;;
  esac
done

if out="$("$P/bin/gmem-clang++" -O2 -I"$P/include" "$REPO/examples/demo/demo_app.cu" \
            -o "$WORK/demo_app" -ldl 2>&1)"; then ok "demo_app builds against the installed headers"
else bad "demo_app builds against the installed headers" "$out"; fi
if readelf -d "$WORK/demo_app" 2>/dev/null | grep -q "RUNPATH.*$P/lib" &&
   readelf -d "$WORK/demo_app" | grep -q "NEEDED.*libgmemrt.so"; then
  ok "demo_app links the installed libgmemrt"
else bad "demo_app links the installed libgmemrt" "$(readelf -d "$WORK/demo_app" 2>&1)"; fi

out="$("$P/bin/gmem-analyze" "$REPO/examples/vector_add.cu" 2>&1)"
if grep -q "class:" <<<"$out"; then ok "installed gmem-analyze reports vector_add"
else bad "installed gmem-analyze reports vector_add" "$out"; fi
summary
