#!/usr/bin/env bash
# Session 31's device calls (H200): timings as compiled on idle streams
# behind a latch (GMEM_PREEMPT_LATCH, default on, against 0) on the ten
# small kernels of session30/tiny_manifest.txt (PARTS=tiny; call 1), the
# overhead table (overhead: aslaunched_nocap.json, for
# bench/preempt/aslaunched_report.py), the small kernels with the default
# only (tinydefault; call 2, whose harness also times chains of eight
# launches), then the runtime GPU suite (suite). Stage: python3 bench/preempt/stage.py --build-dir
# build --out .stage/preempt, session30's manifests copied into it, tar czf
# .stage/p31.tgz -C .stage preempt; python3 test/runtime/gpu/stage.py
# --build-dir build, tar czf .stage/rt.tgz -C .stage runtime; both carried.
#   OUT=DIR [PARTS="tinydefault overhead suite"] bash bench/preempt/results/session31/run_on_device.sh
set -u
OUT=${OUT:?}
W=/tmp/s31
mkdir -p /tmp/s31stage "$W" && tar xzf .stage/p31.tgz -C /tmp/s31stage && tar xzf .stage/rt.tgz -C .stage || exit 2
S=/tmp/s31stage/preempt
chmod +x "$S/preempt_bench"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
run() { # LABEL MANIFEST ENV...
  local label=$1 man=$2; shift 2
  echo "=== aslaunched $label"
  env "$@" GMEM_SCHED=1 LD_PRELOAD="$S/lib/libgmemrt.so" timeout 200 "$S/preempt_bench" aslaunched \
    --manifest "$S/$man" --kernels "$S/kernels.ptx" --budget 300 --json "$W/aslaunched_$label.json" \
    > "$W/aslaunched_$label.log" 2>&1
  echo "exit $?"
}
PARTS=${PARTS:-"tinydefault overhead suite"}
case " $PARTS " in *" tiny "*)
  for i in 1 2; do
    run "tiny_latch_$i" tiny_manifest.txt GMEM_PREEMPT_LATCH=1
    run "tiny_nolatch_$i" tiny_manifest.txt GMEM_PREEMPT_LATCH=0
  done ;;
esac
case " $PARTS " in *" tinydefault "*)
  for i in 1 2; do run "tiny_$i" tiny_manifest.txt GMEM_SCHED=1; done ;;
esac
case " $PARTS " in *" overhead "*) run nocap overhead_manifest.txt GMEM_SCHED=1 ;; esac
case " $PARTS " in *" suite "*)
  echo "=== runtime suite"
  OUT=$W/runtime timeout 400 bash test/runtime/gpu/run_on_device.sh > "$W/runtime_stdout.txt" 2>&1
  echo "runtime suite exit $?"
  grep -E "chaos .*us:|checksums under chaos|suite status|^FAIL" "$W/runtime/run.log"
  rm -f "$W"/runtime/sums_*.txt
  gzip -9 "$W"/runtime/chaos_*.txt "$W"/runtime/host_*.txt ;;
esac
tar czf "$OUT/s31.tgz" -C "$W" . && echo archived
