#!/usr/bin/env bash
# Session 48, call 4: what the clock read and the second shared read of an
# every-trip (cached) loop check cost. Hand variants (/tmp/clock_variants.py
# in the session's notes) of im2col's and gemv_warp's alternate forms and
# kmeans_assign's and stencil3d's full clones: clock0 (every %clock read of
# the form is 0: one refresh per CTA, no clock; compare refresh0, which
# keeps the clock reads), lds64 (the deadline and the cached value in one
# 64-bit shared load); part overhead, five rounds.
#   OUT=DIR bash bench/preempt/results/session48/clk_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session clk .stage/c48d.tgz
S=.stage/d48/preempt
chmod +x "$S/preempt_bench"
for r in 1 2 3 4 5; do
  step "overhead_clk_r$r" 100 env PB_SPREAD_ALL=1 "$S/preempt_bench" overhead \
    --manifest "$S/var_clk.txt" --kernels "$S/kernels.ptx" --budget 60 \
    --json "$W/overhead_clk_r$r.json"
done
device_archive clk
