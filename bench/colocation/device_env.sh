# Sourced by the co-location scripts on the GPU machine (run_on_device.sh,
# cold_on_device.sh) with the name of their results file: the repository
# root as working directory, the staged binaries (BIN: the pass's clones,
# else the hand-written ones; HAND), the library (RT), $OUT, J (the results
# file, emptied), FAIL=0, and run LABEL CMD... (one run of the demo, 60 s
# at most, its JSON line appended to J; FAIL=1 if it fails).
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
run() {
  local Label=$1
  shift
  echo "=== $Label"
  timeout 60 "$@" --label "$Label" --out "$J"
  local R=$?
  [ $R = 0 ] || { echo "FAIL: $Label exited $R"; FAIL=1; }
}
