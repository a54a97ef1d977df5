#!/usr/bin/env bash
# Session 30's short-launch device calls (H200): short launches
# (GMEM_PREEMPT_SHORT_US, the default against 0; the first call passed 5) on the ten small kernels of tiny_manifest.txt, the
# overhead table and the varying-argument manifest on the final code, then
# the runtime GPU suite. Stage: python3 bench/preempt/stage.py --build-dir
# build --out .stage/preempt --skip-corpus, this folder's manifests copied
# into it, tar czf .stage/p30.tgz -C .stage preempt; python3
# test/runtime/gpu/stage.py --build-dir build, tar czf .stage/rt.tgz -C
# .stage runtime; both carried.
#   OUT=DIR bash bench/preempt/results/session30/run_short_on_device.sh
set -u
OUT=${OUT:?}
W=/tmp/s30short
BUDGET=140
. bench/preempt/device_common.sh
unpack_stage .stage/p30.tgz /tmp/s30
run() { # LABEL MANIFEST ENV...
  local label=$1 man=$2
  shift 2
  aslaunched "$label" libgmemrt.so "$man" "$@"
}
PARTS=${PARTS:-"tiny overhead vary"}
case " $PARTS " in *" tiny "*)
  for i in 1 2; do
    run "tiny_short_$i" tiny_manifest.txt GMEM_SCHED=1
    run "tiny_noshort_$i" tiny_manifest.txt GMEM_PREEMPT_SHORT_US=0
  done
  run tiny_cap3 tiny_manifest.txt GMEM_PREEMPT_MAX_OVERHEAD=3 ;;
esac
case " $PARTS " in *" overhead "*)
  run overhead_short_1 overhead_manifest.txt GMEM_SCHED=1
  run overhead_short_2 overhead_manifest.txt GMEM_SCHED=1 ;;
esac
case " $PARTS " in *" vary "*) run vary_short vary_manifest.txt GMEM_SCHED=1 ;; esac
case " $PARTS " in *" cap "*) run overhead_cap3 overhead_manifest.txt GMEM_PREEMPT_MAX_OVERHEAD=3 ;; esac
case " $PARTS " in *" stops "*)
  echo "=== stops"
  timeout 150 "$S/preempt_bench" stops --manifest "$S/overhead_manifest.txt" --kernels "$S/kernels.ptx" \
    --trials 60 --budget 80 --json "$W/stops.json" > "$W/stops.log" 2>&1
  echo "exit $?"; gzip -9 "$W/stops.json" ;;
esac
runtime_suite 400
tar czf "$OUT/short.tgz" -C "$W" . && echo archived
