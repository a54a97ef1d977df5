#!/usr/bin/env bash
# Session 30's device call (H200): the launch path's side-stream zeroing
# moved behind the clone (A/B against the previous libgmemrt, staged as
# lib/libgmemrt_old.so), launches of varying scalar arguments
# (GMEM_PREEMPT_VARYING=1/0, same library), the host time per scheduled
# launch (bench/runtime's gpu_bench) and more stream-operation variants
# (bench/preempt/micro/stream_ops.cu).
#   tar czf .stage/p30.tgz -C .stage preempt   (stage.py --skip-corpus output
#   plus lib/libgmemrt_old.so, vary_manifest.txt, rtbench/)
#   OUT=DIR bash bench/preempt/results/session30/run_on_device.sh
set -u
OUT=${OUT:?}
mkdir -p /tmp/s30 "$OUT" && tar xzf .stage/p30.tgz -C /tmp/s30 || exit 2
S=/tmp/s30/preempt
chmod +x "$S/preempt_bench" "$S"/rtbench/*
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
PARTS=${PARTS:-"stream_ops ab vary gpu_bench"} # also: new (the new library alone)
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
has stream_ops && echo "=== stream_ops" && timeout 120 "$S/rtbench/stream_ops" 201 > "$OUT/stream_ops.txt" 2>&1; echo "exit $?"
aslaunched() { # LABEL LIB MANIFEST [ENV...]
  local label=$1 lib=$2 man=$3; shift 3
  echo "=== aslaunched $label"
  env "$@" GMEM_SCHED=1 LD_PRELOAD="$S/lib/$lib" timeout 200 "$S/preempt_bench" aslaunched \
    --manifest "$S/$man" --kernels "$S/kernels.ptx" --budget 140 --json "$OUT/aslaunched_$label.json" \
    > "$OUT/aslaunched_$label.log" 2>&1
  echo "exit $?"
}
has new && for i in 1 2; do
  aslaunched "final_$i" libgmemrt.so overhead_manifest.txt
done
has ab && for i in 1 2; do
  aslaunched "new_$i" libgmemrt.so overhead_manifest.txt
  aslaunched "old_$i" libgmemrt_old.so overhead_manifest.txt
done
has vary && for i in 1 2; do
  aslaunched "vary_on_$i" libgmemrt.so vary_manifest.txt GMEM_PREEMPT_VARYING=1
  aslaunched "vary_off_$i" libgmemrt.so vary_manifest.txt GMEM_PREEMPT_VARYING=0
done
B=$S/rtbench
has gpu_bench && echo "=== gpu_bench (host time per launch, scheduled)" && for i in 1 2 3; do
  for lib in libgmemrt.so libgmemrt_old.so; do
    echo "--- $lib $i"
    LD_PRELOAD="$S/lib/$lib" GMEM_SCHED=1 GMEM_SCHED_MAX_QUEUED=1024 timeout 60 taskset -c 2 \
      "$B/gpu_bench" "$B/bench.ptx" "$B/bench_plain.ptx" 20000
  done
done > "$OUT/gpu_bench.txt" 2>&1
echo "exit $?"
# At most 8 files come back from the device: the logs and JSON in one archive
# (ARCHIVE=0: the caller archives).
[ "${ARCHIVE:-1}" = 1 ] && tar czf "$OUT/../s30_$(echo $PARTS | tr ' ' '_').tgz" -C "$OUT" . &&
  echo "archived"
