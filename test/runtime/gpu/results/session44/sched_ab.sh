#!/usr/bin/env bash
# Session 44: the scheduled launch's host time, libgmemrt before the split
# (session 43's build, 164555e) against after it (80d4108), one process
# each, alternated four times, pinned like the suite's step 6.
#   tar xzf .stage/rt44b.tgz -C .stage && bash test/runtime/gpu/results/session44/sched_ab.sh
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../../.." || exit 2
S=.stage/runtime
export LD_LIBRARY_PATH="$PWD/$S/lib"
CPU=$(( $(nproc) > 2 ? 2 : 0 )); PIN=""
taskset -c $CPU true 2> /dev/null && PIN="taskset -c $CPU"
for r in 1 2 3 4; do
  for v in old new; do
    lib=$PWD/$S/lib/libgmemrt.so; [ $v = old ] && lib=$PWD/$S/lib_old/libgmemrt.so
    echo "=== $v r$r"
    LD_PRELOAD=$lib GMEM_SCHED=1 GMEM_SCHED_MAX_QUEUED=1024 timeout 60 $PIN \
      $S/bin/gpu_bench $S/kernels/bench.ptx $S/kernels/bench_plain.ptx 20000 | grep RESULT
  done
done
