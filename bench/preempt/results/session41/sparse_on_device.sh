#!/usr/bin/env bash
# Session 41, call 6 (measurement only, for the next session): with the
# GPU-scope request reads, does GMEM_CHECKPOINT_REFRESH_ORDER=sparse (the
# request cache's deadline moves after its refresh's load at every-trip
# checks of budget-sized bodies; compile time) bring the three table stops
# just over 10 us under it, and at what cost to the forms?
#   gs      .stage/preempt_gs (final_on_device.sh's)
#   sparse  GMEM_CHECKPOINT_REFRESH_ORDER=sparse python3 bench/preempt/stage.py
#           --build-dir build --out .stage/s41g/preempt_sparse
#   stops_{gs,sparse}, overhead_{gs,sparse}: part stops and part overhead
#   OUT=DIR bash bench/preempt/results/session41/sparse_on_device.sh
# GPU machine, repository root, .stage/s41h.tgz carried.
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session sparse .stage/s41h.tgz
for st in gs sparse; do
  stops_step stops_$st .stage/preempt_$st 0
  overhead_step overhead_$st .stage/preempt_$st
done
device_archive sparse
