# Sourced by the co-location scripts on the GPU machine (run_on_device.sh,
# cold_on_device.sh) with the name of their results file: the repository
# root as working directory, the staged binaries (BIN: the pass's clones,
# else the hand-written ones; HAND), the library (RT), $OUT, J (the results
# file, emptied) and FAIL=0.
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
S=.stage/colocation
OUT="${OUT:-$S/out}"
mkdir -p "$OUT"
J="$OUT/$1"
: > "$J"
RT="$PWD/$S/lib/libgmemrt.so"
BIN=$S/bin/colocation_pass
HAND=$S/bin/colocation_hand
[ -x "$BIN" ] || BIN=$HAND
FAIL=0
