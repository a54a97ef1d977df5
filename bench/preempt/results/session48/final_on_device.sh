#!/usr/bin/env bash
# Session 48, call 9: forced preemption over the whole corpus (354
# instances, segment scale 3, 40 trials an instance), then the overhead
# table as launched through libgmemrt (session 47's final library, this
# session's stage: the pass's clone code is unchanged), two rounds.
# Staged with python3 bench/preempt/stage.py --build-dir build --out
# .stage/s48b/preempt (kernels_b256/b1024 removed), tar czf .stage/s48b.tgz
# -C .stage s48b.
#   OUT=DIR bash bench/preempt/results/session48/final_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session final .stage/s48b.tgz
S=.stage/s48b/preempt
chmod +x "$S/preempt_bench"
correctness_step correctness_corpus "$S" 3
for r in 1 2; do
  BUDGET=110 aslaunched "r$r" libgmemrt.so overhead_manifest.txt | tee -a "$LOG"
done
device_archive final
