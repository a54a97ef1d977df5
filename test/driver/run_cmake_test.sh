#!/usr/bin/env bash
# Builds test/driver/cmake_project through cmake/GmemCUDA.cmake (CTest:
# `driver-cmake`) and checks the results: fat binaries (sm_90, and sm_80 for
# stencil2d), descriptors in the cubins, static cudart where asked, a header
# change rebuilding the .cu objects (dependency files), and the programs run
# (PASS, or exit 77 without a usable GPU).
#
#   bash test/driver/run_cmake_test.sh [--driver PATH] [--cmake PATH] [--work DIR]
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
DRIVER="$REPO/build/bin/gmem-clang++"
CMAKE=cmake
WORK=""
while [ $# -gt 0 ]; do
  case "$1" in
    --driver) DRIVER="$2"; shift 2 ;;
    --cmake) CMAKE="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    *) echo "usage: $0 [--driver PATH] [--cmake PATH] [--work DIR]" >&2; exit 2 ;;
  esac
done
source "$HERE/common.sh"
use_work_dir "gmem cmake test"
LIST=(python3 "$HERE/fatbin_list.py")
snapshot_plugin "$DRIVER" "$WORK/plugin snapshot" || exit 1

B="$WORK/build dir"
SRC="$WORK/src dir"
mkdir -p "$SRC"
cp -p "$HERE"/programs/* "$SRC/"
if out="$("$CMAKE" -S "$HERE/cmake_project" -B "$B" -DCMAKE_BUILD_TYPE=Release \
            "-DGMEM_CLANG_DRIVER=$DRIVER" "-DGMEM_TEST_PROGRAMS=$SRC" -DGMEM_CUDA_RUNTIME=OFF 2>&1)"; then
  ok "configure"
else bad "configure" "$out"; summary; exit 1; fi
if out="$("$CMAKE" --build "$B" -j2 2>&1)"; then ok "build (make)"
else bad "build" "$out"; summary; exit 1; fi

for prog in vadd multi stencil2d; do
  l="$("${LIST[@]}" "$B/$prog" 2>&1)"
  if grep -q "^ELF sm_90 " <<<"$l" && grep -q "^PTX sm_90 " <<<"$l"; then
    ok "$prog: sm_90 ELF + PTX"
  else bad "$prog: fat binary" "$l"; fi
done
if "${LIST[@]}" "$B/stencil2d" | grep -q "^ELF sm_80 "; then ok "stencil2d: ARCHS sm_80 sm_90"
else bad "stencil2d: no sm_80 image"; fi
syms="$("${LIST[@]}" --elf-symbols "$B/multi")"
if grep -qx "__gmem_desc__Z7add_onePfi" <<<"$syms" && grep -qx "__gmem_desc__Z5scaleIfEvPT_iS0_" <<<"$syms"; then
  ok "multi: descriptors of both .cu files (one through a static library)"
else bad "multi: descriptors" "$syms"; fi
if ! readelf -d "$B/stencil2d" | grep NEEDED | grep -q cudart && readelf -d "$B/vadd" | grep NEEDED | grep -q libcudart; then
  ok "STATIC_CUDART: stencil2d has no libcudart NEEDED, vadd has"
else bad "STATIC_CUDART" "$(readelf -d "$B/stencil2d" "$B/vadd" | grep NEEDED)"; fi

# A header change rebuilds the .cu objects that include it (DEPFILE).
obj="$(find "$B" -path '*vadd.gmem*' -name 'vadd.cu.o' | head -n1)"
if [ -n "$obj" ]; then
  before="$(stat -c %Y.%N "$obj" 2>/dev/null || stat -c %Y "$obj")"
  sleep 1.1
  touch "$SRC/check.h"
  "$CMAKE" --build "$B" -j2 >/dev/null 2>&1
  after="$(stat -c %Y.%N "$obj" 2>/dev/null || stat -c %Y "$obj")"
  if [ "$before" != "$after" ]; then ok "touching check.h rebuilds vadd.cu.o (dependency file)"
  else bad "touching check.h did not rebuild $obj"; fi
else bad "no vadd.cu.o object found under $B"; fi

for prog in vadd multi stencil2d; do run_prog "$prog" "$B/$prog"; done

# The gmem runtime (a stand-in libgmemrt.so via GMEM_RUNTIME_LIB): linked
# first, kept although nothing references it, with an rpath to its dir.
mkdir -p "$WORK/fake rt"
printf 'int gmem_runtime_stand_in(void) { return 1; }\n' > "$WORK/fake rt/rt.c"
if cc -shared -fPIC -Wl,-soname,libgmemrt.so -o "$WORK/fake rt/libgmemrt.so" "$WORK/fake rt/rt.c" 2>/dev/null; then
  B2="$WORK/build rt"
  if out="$(GMEM_RUNTIME_LIB="$WORK/fake rt/libgmemrt.so" "$CMAKE" -S "$HERE/cmake_project" -B "$B2" \
              "-DGMEM_CLANG_DRIVER=$DRIVER" "-DGMEM_TEST_PROGRAMS=$SRC" 2>&1 \
            && "$CMAKE" --build "$B2" -j2 --target vadd stencil2d 2>&1)"; then
    for prog in vadd stencil2d; do
      first="$(readelf -d "$B2/$prog" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | head -n1)"
      if [ "$first" = libgmemrt.so ] && readelf -d "$B2/$prog" | grep -q "PATH.*$WORK/fake rt"; then
        ok "GMEM_RUNTIME (AUTO, library found): $prog needs libgmemrt.so first, rpath to it"
      else bad "GMEM_RUNTIME: $prog" "$(readelf -d "$B2/$prog" | grep -E 'NEEDED|PATH')"; fi
    done
    run_prog "vadd (with the stand-in runtime)" "$B2/vadd"
  else bad "configure/build with GMEM_RUNTIME_LIB" "$out"; fi
else
  echo "note  no C compiler 'cc': runtime linking not checked"
fi
summary
