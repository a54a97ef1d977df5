#!/usr/bin/env bash
# Session 39, call 3: every-trip checks of loops with chained loads read the
# request from the cp.async landing area (GMEM_CHECKPOINT_CHAIN_REFRESH,
# default `landed`) against the synchronous refresh (the previous default,
# `sync`), whole overhead table, one device call.
#   OUT=DIR bash bench/preempt/results/session39/verify_on_device.sh
#   aslaunched_{def,ch}_rN  part aslaunched of the previous default (def,
#                           .stage/preempt_def) and of the new one (ch,
#                           .stage/preempt), alternated ROUNDS times (default 2)
#   overhead_{def,ch}       part overhead (each form alone) of the spmv
#                           kernels, the two builds one after the other
#   stops_{def,ch}          part stops of both at PB_SEG_SCALE=0
#   correctness_s3          forced preemption of ch at PB_SEG_SCALE=3
# GPU machine, repository root, .stage/s39c.tgz carried (a tar of .stage's
# preempt/ and preempt_def/ plus spmv_manifest.txt in each). Everything goes
# into $OUT/verify.tgz plus $OUT/verify.log.
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh" # device_session, ab_rounds, ...
device_session verify .stage/s39c.tgz
ab_rounds def .stage/preempt_def ch .stage/preempt
for L in def ch; do
  S=.stage/preempt; [ $L = def ] && S=.stage/preempt_def
  step "overhead_$L" 120 "$S/preempt_bench" overhead --manifest "$S/spmv_manifest.txt" \
    --kernels "$S/kernels.ptx" --budget 60 --json "$W/overhead_$L.json"
  stops_step "stops_$L" "$S" 0
done
correctness_step correctness_s3 .stage/preempt 3
device_archive verify
