#!/usr/bin/env bash
# Session 50, call 4: call 1 again with the tuner's wait raised from 32 to
# 128 launches a grid (call 3's log: im2col's one-trip grid was skipped
# before its light twin's timings returned). Old = session 49's final
# libgmemrt, new = this session's; new runs logged (GMEM_LOG=sched), the
# grid-stride kernels' lines kept.
#   OUT=DIR bash bench/preempt/results/session50/wait_ab_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session waitab .stage/s50c.tgz
S=.stage/s49/preempt
chmod +x "$S/preempt_bench"
for R in 1 2; do
  BUDGET=80 aslaunched old_r$R libgmemrt.so overhead_manifest.txt | tee -a "$LOG"
  BUDGET=80 aslaunched new_r$R libgmemrt_s50.so overhead_manifest.txt GMEM_LOG=sched | tee -a "$LOG"
  L=$W/aslaunched_new_r$R.log
  grep -E 'im2col|iota_i32|copy_vec4|saxpy_gs|^\[|grid-stride' "$L" > "$W/gridstride_r$R.log"
  rm -f "$L"
done
gzip -9 "$W"/gridstride_r*.log
device_archive waitab
