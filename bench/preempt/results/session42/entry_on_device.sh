#!/usr/bin/env bash
# Session 42, call 2 (diagnostics, measurement only): part overhead with
# PB_SPREAD_ALL=1, three runs, of 18 kernels beside three PTX variants of
# the persistent CTAs' entry reads of their redo/resume words
# (bench/preempt/ptx_variants.py --variants entry0,entryrel,entryweak on
# session 41's final stage; var/*/*.cubin assembled with ptxas -arch=sm_90
# on the build machine): `mov 0` (what a first launch reads), GPU-scope
# `ld.relaxed.gpu` and plain `ld.global`, against the system-scope strong
# load (LDG.E.STRONG.SYS) that `ld.volatile` becomes.
#   OUT=DIR bash bench/preempt/results/session42/entry_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session entry .stage/s42b.tgz
variant_runs entry
device_archive entry
