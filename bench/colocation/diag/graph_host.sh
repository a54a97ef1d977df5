#!/usr/bin/env bash
# Where the graph-launched chain's extra latency goes beside the training
# (GPU machine, repo root, .stage/colocation carried, with the profile build
# of libgmemrt (-DGMEMRT_LAUNCH_PROFILE=ON) staged as lib/libgmemrt-prof.so).
# GEMV 4096 chain launched as one CUDA graph; ROUNDS rounds (default 2) of:
#   alone, alone-gmem (scheduler, nothing to preempt), colo-gmem,
#   colo-gmem-block (training thread blocks on its events),
#   colo-gmem-nosleep (request thread spins between requests),
#   colo-gmem-prof (profile build; its per-stage means go to $OUT/prof-*.txt)
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
diag_begin graph_host
ITERS=$(calibrate $B) || exit 1
T=(--be step --iters "$ITERS")
X=(--hidden 4096 --graph)
one() {
  local Label=$1
  shift
  timeout 60 "$@" "${C[@]}" "${X[@]}" --label "$Label" --out "$J" | head -1
}
for R in $(seq 1 "${ROUNDS:-2}"); do
  one alone $B --mode alone
  one alone-gmem env LD_PRELOAD="$LIB" $B --mode alone --gmem
  one colo-gmem env LD_PRELOAD="$LIB" $B --mode colo --gmem "${T[@]}"
  one colo-gmem-block env LD_PRELOAD="$LIB" $B --mode colo --gmem "${T[@]}" --be-sync block
  one colo-gmem-nosleep env LD_PRELOAD="$LIB" $B --mode colo --gmem "${T[@]}" --no-sleep
  timeout 60 env LD_PRELOAD="$PROF" $B --mode colo --gmem "${T[@]}" "${C[@]}" "${X[@]}" \
    --label colo-gmem-prof --out "$J" > "$OUT/prof-colo-$R.txt" 2>&1
  timeout 60 env LD_PRELOAD="$PROF" $B --mode alone --gmem "${C[@]}" "${X[@]}" \
    --label alone-gmem-prof --out "$J" > "$OUT/prof-alone-$R.txt" 2>&1
done
python3 bench/colocation/diag/launch_path_table.py "$J"
grep -h "gmem-profile" "$OUT"/prof-*.txt | head -60
