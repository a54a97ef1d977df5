#!/usr/bin/env bash
# Why is the chain slower beside training at one request every 2 ms than
# under stress (every 400 us), where each request preempts the training too?
# The launch-path profile says every stage of the urgent thread is slower,
# pure CPU work included, so this varies the host side: the request thread
# spinning instead of sleeping between requests (--no-sleep), the request
# and training threads pinned to the first and last CPU (--pin), the
# training thread blocking on its events (--be-sync block), the monitor's
# relaunch watch slowed (GMEM_SCHED_WATCH_US=$SLOW_US). GPU machine, repo
# root, .stage/colocation carried. With lib/libgmemrt-prof.so staged
# (-DGMEMRT_LAUNCH_PROFILE=ON) the 2 ms and 400 us runs repeat with the
# profile on stderr ($OUT/prof-*.txt). One JSON line per run in
# $OUT/host.jsonl; table: launch_path_table.py.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
diag_begin host
ITERS=$(calibrate $B) || exit 1
T=(--gmem --be step --iters "$ITERS")
lscpu > "$OUT/lscpu.txt" 2>&1
colo() { # LABEL [ENV=V ...] -- [options]
  local L=$1; shift
  local E=()
  while [ "$1" != -- ]; do E+=("$1"); shift; done
  shift
  timeout 60 env LD_PRELOAD="$LIB" "${E[@]}" $B --mode colo "${T[@]}" "${C[@]}" "$@" \
    --label "$L" --out "$J" >/dev/null
}
for R in $(seq 1 "${ROUNDS:-2}"); do
  timeout 60 $B --mode alone "${C[@]}" --label alone --out "$J" >/dev/null
  colo colo-2ms --
  colo colo-400us -- --period-us 400
  colo colo-2ms-nosleep -- --no-sleep
  colo colo-2ms-pin -- --pin
  colo colo-2ms-pin-nosleep -- --pin --no-sleep
  colo colo-2ms-block -- --be-sync block
  colo "colo-2ms-watch${SLOW_US:-2000}" GMEM_SCHED_WATCH_US="${SLOW_US:-2000}" --
  if [ -e "$PROF" ] && [ "$R" = 1 ]; then
    LIB=$PROF colo prof-2ms -- 2> "$OUT/prof-2ms.txt"
    LIB=$PROF colo prof-2ms-nosleep -- --no-sleep 2> "$OUT/prof-2ms-nosleep.txt"
  fi
done
python3 bench/colocation/diag/launch_path_table.py "$J"
