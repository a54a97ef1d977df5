#!/usr/bin/env bash
# Session 42, call 5 (diagnostics, measurement only): part overhead with
# PB_SPREAD_ALL=1, three runs, of six kernels whose paced segment
# boundaries cost them 2-7 points (call 4) beside PTX variants of their
# full clone (bench/preempt/ptx_variants.py --variants refresh0,refresh16k,
# noland,oneseg on session 41's final stage): the request cache's cp.async
# refresh once per CTA / every 16384 cycles instead of 1024, the boundary's
# read of the landing area as `mov 0`, one segment per loop entry: which
# part of a boundary costs.
#   OUT=DIR bash bench/preempt/results/session42/boundary_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session boundary .stage/s42e.tgz
variant_runs boundary
device_archive boundary
