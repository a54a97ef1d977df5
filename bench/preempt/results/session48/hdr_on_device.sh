#!/usr/bin/env bash
# Session 48, call 3: im2col's alternate form with its grid-stride loop's
# every-trip check moved into the loop header's index-math block (a hand
# variant, /tmp/hdr_variant.py in the session's notes: clock and one 64-bit
# shared read at the block's top, the test at its end, refresh and stop on a
# side path), beside the form as built, nocheck and nodeadline; part
# overhead, five rounds.
#   OUT=DIR bash bench/preempt/results/session48/hdr_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session hdr .stage/c48c.tgz
S=.stage/d48/preempt
chmod +x "$S/preempt_bench"
for r in 1 2 3 4 5; do
  step "overhead_hdr_r$r" 100 env PB_SPREAD_ALL=1 "$S/preempt_bench" overhead \
    --manifest "$S/var_hdr.txt" --kernels "$S/kernels.ptx" --budget 60 \
    --json "$W/overhead_hdr_r$r.json"
done
step correctness_hdr 120 env PB_SEG_SCALE=3 "$S/preempt_bench" correctness \
  --manifest "$S/var_hdr.txt" --kernels "$S/kernels.ptx" --trials 60 --budget 90 \
  --json "$W/correctness_hdr.json"
grep -E "correctness: wrote|mismatch" "$W/correctness_hdr.log" | tail -3 | tee -a "$LOG"
device_archive hdr
