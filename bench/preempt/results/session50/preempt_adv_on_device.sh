#!/usr/bin/env bash
# Session 50, call 7: forced preemption (part correctness: every instance's
# output under randomly timed preemptions compared with an unpreempted run;
# segment scale 3, 40 trials an instance) over call 5's corpora,
# test/gpu/adversarial50 and blind50 (478 instances), with this session's
# clones (the PTX test/gpu/stage.py wrote: .stage/t50/gpu) and harness
# (.stage/s50/preempt). Archive .stage/p50.tgz.
#   OUT=DIR bash bench/preempt/results/session50/preempt_adv_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session preemptadv .stage/p50.tgz
S=.stage/s50/preempt
chmod +x "$S/preempt_bench"
step correctness_t50 230 env PB_SEG_SCALE=3 "$S/preempt_bench" correctness \
  --manifest .stage/t50/gpu/manifest.txt --kernels "$S/kernels.ptx" --trials 40 --budget 200 \
  --json "$W/correctness_t50.json"
grep -E "correctness: wrote|mismatch" "$W/correctness_t50.log" | tail -3 | tee -a "$LOG"
gzip -9 "$W/correctness_t50.log"
device_archive preemptadv
