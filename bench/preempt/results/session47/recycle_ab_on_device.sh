#!/usr/bin/env bash
# Session 47, call 12: recycle by bisection (this session's libgmemrt,
# `new`) against session 46's library (`old`, built from 18e760d), same
# stage and PTX, part aslaunched over the whole overhead manifest,
# alternated, two rounds.
#   OUT=DIR bash bench/preempt/results/session47/recycle_ab_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session recycle .stage/s47.tgz
rm -rf .stage/preempt_old && cp -r .stage/preempt .stage/preempt_old
cp .stage/preempt/lib/libgmemrt_old.so .stage/preempt_old/lib/libgmemrt.so
ROUNDS=2 ab_rounds new .stage/preempt old .stage/preempt_old
device_archive recycle
