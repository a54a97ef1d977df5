#!/usr/bin/env bash
# Session 48, call 2: what each part of an every-trip (cached) loop check
# costs. Part overhead, three rounds, of PTX variants of four kernels'
# full clones and alternate forms (bench/preempt/ptx_variants.py):
# nocheck (no check at all), nodeadline (no clock or deadline: the cached
# request read and tested), refresh0 (one refresh per CTA).
#   OUT=DIR bash bench/preempt/results/session48/checkparts_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session checkparts .stage/c48b.tgz
S=.stage/d48/preempt
chmod +x "$S/preempt_bench"
for r in 1 2 3; do
  step "overhead_parts_r$r" 150 env PB_SPREAD_ALL=1 "$S/preempt_bench" overhead \
    --manifest "$S/var_manifest.txt" --kernels "$S/kernels.ptx" --budget 120 \
    --json "$W/overhead_parts_r$r.json"
done
device_archive checkparts
