#!/usr/bin/env bash
# Session 50, call 3: the whole table as launched through this session's
# libgmemrt with GMEM_LOG=sched, to see what the tuner and chooser did with
# im2col among the others (call 1: +14.5%; alone in call 2: +8.2%); the
# log kept for the grid-stride kernels only.
#   OUT=DIR bash bench/preempt/results/session50/table_log_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session tablelog .stage/s50b.tgz
S=.stage/s49/preempt
chmod +x "$S/preempt_bench"
BUDGET=80 aslaunched new_log libgmemrt_s50.so overhead_manifest.txt GMEM_LOG=sched | tee -a "$LOG"
L=$W/aslaunched_new_log.log
grep -c took "$L"
grep -E 'im2col|iota_i32|copy_vec4|saxpy_gs|^\[|grid-stride' "$L" > "$W/gridstride_lines.log"
rm -f "$L"
gzip -9 "$W/gridstride_lines.log"
device_archive tablelog
