#!/usr/bin/env bash
# Session 42, call 9: the harness and libgmemrt after this session's file
# splits (code moved, no behaviour change), on session 41's final PTX:
# .stage/s42h.tgz is .stage/s41d/preempt_gs with preempt_bench built from the
# split harness sources (as bench/preempt/stage.py builds it) and
# lib/libgmemrt.so from the split runtime.
#   aslaunched_split  part aslaunched of the overhead table (session 41's
#                     final call: +1.02 / +1.15% geomean, the same PTX)
#   overhead_split    part overhead (each form alone against the kernel)
#   correctness_split forced preemption over the corpus (bit-exact)
#   OUT=DIR bash bench/preempt/results/session42/split_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session split .stage/s42h.tgz
aslaunched_step aslaunched_split 150 "$S" 110
overhead_step overhead_split "$S"
correctness_step correctness_split "$S" 0
device_archive split
