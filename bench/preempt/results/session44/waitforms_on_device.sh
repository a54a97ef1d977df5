#!/usr/bin/env bash
# Session 44, call 7 (diagnostics): whether another form of the hold's wait
# costs the stream less than cuStreamWaitValue32 EQ. As call 4 (part
# aslaunched without libgmemrt on the 21 kernels under 1 ms, its "queued
# with ops" launch), PB_OPS = w (32-bit, EQ), g (32-bit, GEQ), q (64-bit,
# EQ), b (the 32-bit wait as a one-entry cuStreamBatchMemOp), ewe.
#   OUT=DIR bash bench/preempt/results/session44/waitforms_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session waitforms .stage/s44b.tgz
ops_runs ops_manifest.txt w g q b ewe
device_archive waitforms
