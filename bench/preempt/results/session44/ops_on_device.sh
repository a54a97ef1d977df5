#!/usr/bin/env bash
# Session 44, call 3 (diagnostics): what a scheduled launch's excess over
# part overhead is made of. Part aslaunched with a seventh kind of launch
# (`orig_ops_queued_ms`: the kernel as compiled, queued, followed by the
# stream operations libgmemrt puts behind a clone: an event without timing,
# a wait for a zero device word, another such event) and the ungated and
# timed clone launches counted, on session 43's default stage
# (.stage/s43b/preempt) with this session's preempt_bench; two runs.
#   OUT=DIR bash bench/preempt/results/session44/ops_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session ops .stage/s44b.tgz
for r in 1 2; do
  aslaunched_step "aslaunched_r$r" 200 "$S" 160
done
device_archive ops
