#!/usr/bin/env bash
# Session 42, call 3 (diagnostics, measurement only): part overhead with
# PB_SPREAD_ALL=1, three runs, of 10 kernels beside two PTX variants of
# the persistent CTAs' entry reads of their redo/resume words
# (bench/preempt/ptx_variants.py --variants entry0,entrypred on session 41's
# final stage; var/*/*.cubin assembled with ptxas -arch=sm_90 on the build
# machine): `mov 0`, and the loads predicated on a bit of grid_z that no
# launch sets (skipped at run time, unknown to ptxas): is call 2's gain
# from entry0 the loads' latency, which a first-launch flag could save, or
# ptxas folding the constant?
#   OUT=DIR bash bench/preempt/results/session42/entrypred_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session entrypred .stage/s42c.tgz
variant_runs pred
device_archive entrypred
