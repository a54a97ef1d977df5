# Sourced by the diagnostics here (ab.sh, launch_path.sh, l2_ab.sh): run from
# anywhere, they work from the repository root on the GPU machine with
# .stage/colocation carried.
#   S      the staged demo;  OUT  where results go (default $S/out)
#   J      $OUT/<name>.jsonl, emptied (diag_begin NAME)
#   C      the request options (REQUESTS requests, default 1000, every 2 ms, + $CHAIN)
#   B      the demo binary; LIB the library (lib/$LIBNAME, default libgmemrt.so);
#   PROF   the profile build (lib/libgmemrt-prof.so, staged by hand)
#   calibrate BIN   training iterations for 25 ms kernels with that binary
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 2
S=.stage/colocation
OUT="${OUT:-$S/out}"
mkdir -p "$OUT" || exit 2
B=$S/bin/colocation_pass
LIB="$PWD/$S/lib/${LIBNAME:-libgmemrt.so}"
PROF="$PWD/$S/lib/libgmemrt-prof.so"
# CHAIN: extra chain options for every request run (e.g. "--hidden 4096 --graph").
C=(--requests "${REQUESTS:-1000}" --period-us 2000 ${CHAIN:-})
diag_begin() {
  J="$OUT/$1.jsonl"
  : > "$J"
}
calibrate() {
  timeout 60 "$1" --calibrate --be-ms 25
}
