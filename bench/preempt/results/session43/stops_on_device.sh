#!/usr/bin/env bash
# Session 43, call 3: the same two stages as call 2 (verify_on_device.sh).
#  1. part stops of both over the overhead table (60 random stops a form,
#     segment scale 0), old then new;
#  2. forced preemption of the new default over the whole corpus
#     (segment scale 3, 40 trials an instance);
#  3. part overhead of the new default (each form alone against its kernel).
#   OUT=DIR bash bench/preempt/results/session43/stops_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session stops .stage/s43c.tgz
stops_step stops_segment .stage/preempt_old 0
stops_step stops_body .stage/preempt 0
correctness_step correctness_body .stage/preempt 3
overhead_step overhead_body .stage/preempt
device_archive stops
