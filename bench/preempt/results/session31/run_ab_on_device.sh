#!/usr/bin/env bash
# Session 31's last device call (H200): this session's runtime
# (lib/libgmemrt.so) against the session's start, 00911b5
# (lib/libgmemrt_old.so: built from that commit, copied into the stage),
# alternated, on the ten small kernels (session30/tiny_manifest.txt) and
# the overhead table, with the chain timing of part aslaunched; then the
# runtime GPU suite. Stage as run_on_device.sh says, plus the old library;
# tar czf .stage/p31.tgz -C .stage preempt.
#   OUT=DIR bash bench/preempt/results/session31/run_ab_on_device.sh
set -u
OUT=${OUT:?}
W=/tmp/s31ab
mkdir -p /tmp/s31stage "$W" && tar xzf .stage/p31.tgz -C /tmp/s31stage && tar xzf .stage/rt.tgz -C .stage || exit 2
S=/tmp/s31stage/preempt
chmod +x "$S/preempt_bench"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
run() { # LABEL LIB MANIFEST
  echo "=== aslaunched $1"
  GMEM_SCHED=1 LD_PRELOAD="$S/lib/$2" timeout 200 "$S/preempt_bench" aslaunched \
    --manifest "$S/$3" --kernels "$S/kernels.ptx" --budget 300 --json "$W/aslaunched_$1.json" \
    > "$W/aslaunched_$1.log" 2>&1
  echo "exit $?"
}
run tiny_new_1 libgmemrt.so tiny_manifest.txt
run tiny_old_1 libgmemrt_old.so tiny_manifest.txt
run overhead_new_1 libgmemrt.so overhead_manifest.txt
run overhead_old_1 libgmemrt_old.so overhead_manifest.txt
run tiny_old_2 libgmemrt_old.so tiny_manifest.txt
run tiny_new_2 libgmemrt.so tiny_manifest.txt
echo "=== runtime suite"
OUT=$W/runtime timeout 330 bash test/runtime/gpu/run_on_device.sh > "$W/runtime_stdout.txt" 2>&1
echo "runtime suite exit $?"
grep -E "chaos .*us:|checksums under chaos|suite status|^FAIL|gmemrt-sched" "$W/runtime/run.log"
rm -f "$W"/runtime/sums_*.txt
gzip -9 "$W"/runtime/chaos_*.txt "$W"/runtime/host_*.txt
tar czf "$OUT/s31ab.tgz" -C "$W" . && echo archived
