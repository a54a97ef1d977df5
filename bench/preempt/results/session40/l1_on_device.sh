#!/usr/bin/env bash
# Session 40, call 2: is it the L1 size or the CTAs per SM? Part overhead of
# the whole table, twice each, alternated: as staged; every function (kernel
# and forms) at a 7% preferred carveout (the 16 KB shared configuration
# that the clones' few static bytes take anyway, so the kernels lose the
# same 8 KB of L1); the clones launched with one and two CTAs per SM fewer
# than fit (PB_NARROW), the carveout left to the driver.
#   OUT=DIR bash bench/preempt/results/session40/l1_on_device.sh
# GPU machine, repository root; .stage/s40b.tgz holds .stage/preempt.
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh" # device_session, ab_rounds, ...
device_session l1 .stage/s40b.tgz
for r in 1 2; do
  overhead_step overhead_def_r$r $S
  overhead_step overhead_all7_r$r $S PB_CARVEOUT=7
  overhead_step overhead_n1_r$r $S PB_NARROW=1
  overhead_step overhead_n2_r$r $S PB_NARROW=2
done
grep -h "^carveout" "$W/overhead_all7_r1.log" | sort -u > "$W/carveout7_functions.txt"
device_archive l1 carveout7_functions.txt
