#!/usr/bin/env bash
# Session 46, call 3: this session's stage (`preempt`, s46a: short-entry
# tests hoisted) against the code before it (`preempt_old`: the same stage
# with every corpus file's PTX from its `nohoist` variant, which
# GMEM_CHECKPOINT_VERSION_HOIST=0 built: the old pass's), part aslaunched
# alternated, two rounds; then forced preemption over the whole corpus with
# the new stage (segment scale 3, 40 trials an instance).
#   OUT=DIR bash bench/preempt/results/session46/final_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session final .stage/s46a.tgz
rm -rf .stage/preempt_old && cp -r .stage/preempt .stage/preempt_old
cp .stage/preempt/var/nohoist/*.ptx .stage/preempt/var/nohoist/*.cubin .stage/preempt_old/corpus/ptx/
ROUNDS=2 ab_rounds new .stage/preempt old .stage/preempt_old
manifest_correctness correctness_final "$S/corpus/manifest.txt" 330 300
device_archive final
