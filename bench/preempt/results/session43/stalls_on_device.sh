#!/usr/bin/env bash
# Session 43, call 7 (diagnostics, measurement only): Nsight Compute stall
# reasons without SourceCounters (NCU_SOURCE=0: no SASS patching, so paced
# segments keep their plain length), the original kernel in the window
# (launches 0-5 of the overhead part: original, full clone, light twin,
# alternate, free, ...), for iota_i32, saxpy_gs, warp_reduce_sum and
# kmeans_assign on this session's default stage (.stage/s43c.tgz's `preempt`).
#   OUT=DIR bash bench/preempt/results/session43/stalls_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session stalls .stage/s43c.tgz
NCU_SOURCE=0 ncu_step 400 "_Z8iota_i32Piii _Z8saxpy_gsifPKfS0_Pf _Z15warp_reduce_sumPKfPfi _Z13kmeans_assignPKfS0_Piiii" 0 6
device_archive stalls ncu.log
