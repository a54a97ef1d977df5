#!/usr/bin/env bash
# Session 47, call 15: host counters instead of done and zeroing events
# (this session's libgmemrt, `new`) against session 46's library (`old`,
# built from 18e760d): the runtime GPU suite with the new library (every
# way in, decisions, checksums with and without, under chaos), part
# aslaunched over the whole overhead manifest alternated (one round), and
# the stream operations behind the kernel as compiled, events (PB_OPS=ewe)
# against the done counter's write (ewh), without libgmemrt.
#   OUT=DIR bash bench/preempt/results/session47/counters_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session counters .stage/s47c.tgz
runtime_suite 240 | tee -a "$LOG"
rm -rf .stage/preempt_old && cp -r .stage/preempt .stage/preempt_old
cp .stage/preempt/lib/libgmemrt_old.so .stage/preempt_old/lib/libgmemrt.so
ROUNDS=1 ab_rounds new .stage/preempt old .stage/preempt_old
six_kernels_manifest
for ops in ewe ewh; do
  echo "=== ops $ops" | tee -a "$LOG"
  PB_OPS=$ops PB_VARIANTS=0267 timeout 100 "$S/preempt_bench" aslaunched --manifest "$S/sync_manifest.txt" \
    --kernels "$S/kernels.ptx" --budget 40 --json "$W/ops_$ops.json" > "$W/ops_$ops.log" 2>&1
  echo "exit $?" | tee -a "$LOG"
done
device_archive counters
