#!/usr/bin/env bash
# Session 32's device calls (H200; README.md here says which call ran which
# parts, on which code). Stage: python3 bench/preempt/stage.py --build-dir
# build --out .stage/preempt, session30's tiny_manifest.txt copied into it,
# the library of the session's start (11af15e: the latch on a device word
# the control stream raises) built in a worktree as lib/libgmemrt_old.so,
# tar czf .stage/p32.tgz -C .stage preempt; python3 test/runtime/gpu/stage.py
# --build-dir build, tar czf .stage/rt.tgz -C .stage runtime; both carried.
#   OUT=DIR PARTS="..." bash bench/preempt/results/session32/run_on_device.sh
# Parts, in this order:
#   latchfirst  the runtime suite's unpreempted clone pass (gpu_host,
#               GMEM_SCHED=1, own stream: every instance a function's first
#               launch, timed on an idle stream) with the defaults, then with
#               GMEM_PREEMPT_LATCH_FIRST=1 (first launches latched too) under
#               lazy loading (the default) and under CUDA_MODULE_LOADING=EAGER:
#               exit, time, sums, the watchdog's report
#   tiny        the ten small kernels (aslaunched), this library against
#               libgmemrt_old.so, alternated twice
#   ab          the overhead table (aslaunched), this library against
#               libgmemrt_old.so, once each
#   gridform    part overhead (each form alone against the kernel, request
#               0) for the nine costliest kernels of the overhead table, their
#               persistent clones (persist_manifest.txt: the corpus PTX)
#               against grid clones (grid_manifest.txt: the same sources
#               through gmem-analyze --emit-ptx with GMEM_CHECKPOINT_PERSISTENT=0,
#               register fit as stage.py, in grid/), alternated twice
#   suite       the runtime GPU suite (SUITE_LIMIT seconds, default 330)
# then one archive, OUT/s32.tgz.
set -u
OUT=${OUT:?}
W=/tmp/s32
. bench/preempt/device_common.sh
unpack_stage .stage/p32.tgz /tmp/s32stage
PARTS=" ${PARTS:-latchfirst tiny suite} "
NEW=libgmemrt.so OLD=libgmemrt_old.so
clone_pass() { # LABEL [ENV=VALUE...]
  local label=$1 t0 rc
  shift
  local R=.stage/runtime
  t0=$(date +%s%N)
  env "$@" GMEM_SCHED=1 LD_PRELOAD=$PWD/$R/lib/libgmemrt.so timeout 120 \
    $R/bin/gpu_host $R/manifest.txt --sums --stream > "$W/pass_$label.txt" 2>&1
  rc=$?
  echo "clone pass $label ($*): exit $rc in $(( ($(date +%s%N) - t0) / 1000000 )) ms," \
    "$(grep -c '^SUM' "$W/pass_$label.txt") sums"
  grep -E "watchdog" "$W/pass_$label.txt" | sed 's/^/  /'
}
case $PARTS in *" latchfirst "*)
  clone_pass default
  clone_pass first_lazy GMEM_PREEMPT_LATCH_FIRST=1
  clone_pass first_eager GMEM_PREEMPT_LATCH_FIRST=1 CUDA_MODULE_LOADING=EAGER
  clone_pass default_eager CUDA_MODULE_LOADING=EAGER
  for l in first_lazy first_eager default_eager; do
    echo "sums $l: $(diff <(grep '^SUM' "$W/pass_default.txt") <(grep '^SUM' "$W/pass_$l.txt") \
      | grep -c '^<') of $(grep -c '^SUM' "$W/pass_default.txt") lines differ from default:" \
      "$(diff <(grep '^SUM' "$W/pass_default.txt") <(grep '^SUM' "$W/pass_$l.txt") \
      | grep '^<' | awk '{print $2}' | sort -u | tr '\n' ' ')"
  done
  gzip -9 "$W"/pass_*.txt ;;
esac
case $PARTS in *" tiny "*)
  for i in 1 2; do
    aslaunched "tiny_new_$i" $NEW tiny_manifest.txt
    aslaunched "tiny_old_$i" $OLD tiny_manifest.txt
  done
  grep -h "watchdog" "$W"/aslaunched_tiny_*.log ;;
esac
case $PARTS in *" ab "*)
  aslaunched overhead_new_1 $NEW overhead_manifest.txt
  aslaunched overhead_old_1 $OLD overhead_manifest.txt
  grep -h "watchdog" "$W"/aslaunched_overhead_*.log ;;
esac
case $PARTS in *" gridform "*)
  for i in 1 2; do
    for m in persist grid; do
      echo "=== overhead ${m}_$i"
      timeout 200 "$S/preempt_bench" overhead --manifest "$S/${m}_manifest.txt" \
        --kernels "$S/kernels.ptx" --budget 120 --json "$W/overhead_${m}_$i.json" \
        > "$W/overhead_${m}_$i.log" 2>&1
      echo "exit $?"
    done
  done ;;
esac
case $PARTS in *" suite "*) runtime_suite "${SUITE_LIMIT:-330}" ;; esac
tar czf "$OUT/s32.tgz" -C "$W" . && echo archived
