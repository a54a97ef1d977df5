#!/usr/bin/env bash
# Same-run A/B of GMEM_SCHED_L2=persist on the co-location demo (GPU machine,
# repo root, .stage/colocation carried): 3 rounds of the chain alone, beside
# idempotent training under libgmemrt, and the same with the option; then the
# scheduler's L2 log lines of a short run and the table
# (launch_path_table.py). Results in $OUT/l2rt.jsonl.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
diag_begin l2rt
B=$S/bin/colocation_pass; L=$PWD/$S/lib/libgmemrt.so
ITERS=$(calibrate $B 2>/dev/null) || exit 1
for r in 1 2 3; do
 timeout 60 $B --mode alone "${C[@]}" --label alone --out "$J" >/dev/null
 timeout 60 env LD_PRELOAD=$L $B --mode colo --gmem --be step --iters $ITERS "${C[@]}" --label colo --out "$J" > /dev/null 2>&1
 timeout 60 env GMEM_SCHED_L2=persist LD_PRELOAD=$L $B --mode colo --gmem --be step --iters $ITERS "${C[@]}" --label colo-l2persist --out "$J" > /dev/null 2>&1
done
timeout 30 env GMEM_LOG=sched GMEM_SCHED_L2=persist LD_PRELOAD=$L $B --mode colo --gmem --be step --iters $ITERS --requests 5 --period-us 2000 --label log 2>&1 | grep -i "l2" | head -5
python3 bench/colocation/diag/launch_path_table.py "$J"
