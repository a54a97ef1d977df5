#!/usr/bin/env bash
# Session 45, call 3: this session's default stage (`preempt`, s45b: the
# deferred stops' values computed again at the meeting point) against the
# code before this session (`preempt_old`: the same stage with the corpus
# PTX of the three table files whose clones changed, device_counter,
# reduction and softmax, taken from its `poison` variant, which
# GMEM_CHECKPOINT_JUMP_VALUE=poison built: byte for byte the old pass's),
# part aslaunched alternated, two rounds; then forced preemption over the
# whole corpus with the new stage (segment scale 3, 40 trials an instance).
#   OUT=DIR bash bench/preempt/results/session45/final_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session final .stage/s45b.tgz
rm -rf .stage/preempt_old && cp -r .stage/preempt .stage/preempt_old
for f in device_counter reduction softmax; do
  cp .stage/preempt/var/poison/$f.ptx .stage/preempt/var/poison/$f.cubin .stage/preempt_old/corpus/ptx/
done
ROUNDS=2 ab_rounds new .stage/preempt old .stage/preempt_old
manifest_correctness correctness_final "$S/corpus/manifest.txt" 330 300
device_archive final
