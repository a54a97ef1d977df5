#!/usr/bin/env bash
# Session 31's device calls (H200; README.md here says which call ran
# which parts, on which code). Stage: python3 bench/preempt/stage.py
# --build-dir build --out .stage/preempt, session30's tiny_manifest.txt and
# vary_manifest.txt copied into it (for the A/B parts also the session
# start's library, built from 00911b5, as lib/libgmemrt_old.so), tar czf
# .stage/p31.tgz -C .stage preempt; python3 test/runtime/gpu/stage.py
# --build-dir build, tar czf .stage/rt.tgz -C .stage runtime; both carried.
#   OUT=DIR PARTS="..." bash bench/preempt/results/session31/run_on_device.sh
# Parts, in this order:
#   latch        the ten small kernels with GMEM_PREEMPT_LATCH=1 and =0,
#                alternated twice (call 2)
#   tinydefault  the small kernels twice with the defaults (call 3)
#   overhead     the overhead table once (aslaunched_nocap.json, for
#                bench/preempt/aslaunched_report.py; calls 2 and 3)
#   ab           this library against libgmemrt_old.so: small kernels and
#                overhead table (call 4)
#   ab2          the same, the overhead table twice each (call 5)
#   suite        the runtime GPU suite (SUITE_LIMIT seconds, default 330)
# then one archive, OUT/s31.tgz.
set -u
OUT=${OUT:?}
W=/tmp/s31
. bench/preempt/device_common.sh
unpack_stage .stage/p31.tgz /tmp/s31stage
PARTS=" ${PARTS:-tinydefault overhead suite} "
NEW=libgmemrt.so OLD=libgmemrt_old.so
case $PARTS in *" latch "*)
  for i in 1 2; do
    aslaunched "tiny_latch_$i" $NEW tiny_manifest.txt GMEM_PREEMPT_LATCH=1
    aslaunched "tiny_nolatch_$i" $NEW tiny_manifest.txt GMEM_PREEMPT_LATCH=0
  done ;;
esac
case $PARTS in *" tinydefault "*)
  for i in 1 2; do aslaunched "tiny_$i" $NEW tiny_manifest.txt; done ;;
esac
case $PARTS in *" overhead "*) aslaunched nocap $NEW overhead_manifest.txt ;; esac
case $PARTS in *" ab "*)
  aslaunched tiny_new_1 $NEW tiny_manifest.txt
  aslaunched tiny_old_1 $OLD tiny_manifest.txt
  aslaunched overhead_new_1 $NEW overhead_manifest.txt
  aslaunched overhead_old_1 $OLD overhead_manifest.txt
  aslaunched tiny_old_2 $OLD tiny_manifest.txt
  aslaunched tiny_new_2 $NEW tiny_manifest.txt ;;
esac
case $PARTS in *" ab2 "*)
  aslaunched overhead_new_1 $NEW overhead_manifest.txt
  aslaunched overhead_old_1 $OLD overhead_manifest.txt
  aslaunched tiny_new_1 $NEW tiny_manifest.txt
  aslaunched tiny_old_1 $OLD tiny_manifest.txt
  aslaunched overhead_old_2 $OLD overhead_manifest.txt
  aslaunched overhead_new_2 $NEW overhead_manifest.txt ;;
esac
case $PARTS in *" suite "*) runtime_suite "${SUITE_LIMIT:-330}" ;; esac
tar czf "$OUT/s31.tgz" -C "$W" . && echo archived
