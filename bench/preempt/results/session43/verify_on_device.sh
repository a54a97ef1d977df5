#!/usr/bin/env bash
# Session 43, call 2: the in-body paced checks as the default, as launched.
# Two stages that differ only in the corpus and harness-kernel PTX (same
# preempt_bench, same libgmemrt, from main with this session's pass):
# `preempt_old` is session 41's final PTX (the strip-mined segments, what
# GMEM_CHECKPOINT_PACE_FORM=segment still gives), `preempt` the PTX of this
# session's default (paced loops that touch memory checked in their body).
# Part aslaunched (GMEM_SCHED=1, libgmemrt choosing forms, twins and
# segment scales as it does for users), the two alternated, two rounds.
#   OUT=DIR bash bench/preempt/results/session43/verify_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session verify .stage/s43c.tgz
ROUNDS=2 ab_rounds segment .stage/preempt_old body .stage/preempt
device_archive verify
