#!/usr/bin/env bash
# Session 53: the runtime GPU suite (test/runtime/gpu) with this session's
# analysis over the corpus, test/corpus/inplace_updates.cu and bfs.cu
# included: step 2 requires libgmemrt's decision at every launch, on the
# real driver, to equal gmem-analyze's instance mode (masked_fill_ and the
# other maps with operands read from memory, the self-disabling flag);
# step 4b restarts the newly idempotent launches under chaos. Staged with
#   python3 test/runtime/gpu/stage.py --build-dir build
# then (cd .stage && tar czf rt53.tgz --exclude=runtime/ll --exclude=runtime/cuda-stubs runtime).
#   OUT=DIR bash bench/preempt/results/session53/runtime_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_begin runtime
tar xzf .stage/rt53.tgz -C .stage || exit 2
runtime_suite 400 | tee -a "$LOG"
grep -E "inplace_updates|bfs_update|decision|mismatch" "$W/runtime/run.log" | head -30 | tee -a "$LOG"
device_archive runtime
