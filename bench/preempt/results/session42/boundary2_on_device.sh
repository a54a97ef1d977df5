#!/usr/bin/env bash
# Session 42, call 6 (diagnostics, measurement only): part overhead with
# PB_SPREAD_ALL=1, three runs, of six kernels with paced loop segments
# beside PTX variants of their full clone (bench/preempt/ptx_variants.py
# --variants init3,frozen3,lim32,frozen3lim32,oneseg on session 41's final
# stage): segments starting at s = 3, kept at s = 3 (no update of s), the
# segment limit in 32 bits, both, one segment per loop entry. Call 5 found
# the refresh and the landing read cheap: which of the boundary's other
# parts costs?
#   OUT=DIR bash bench/preempt/results/session42/boundary2_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session boundary2 .stage/s42f.tgz
variant_runs b2
device_archive boundary2
