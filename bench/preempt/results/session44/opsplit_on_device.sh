#!/usr/bin/env bash
# Session 44, call 4 (diagnostics): which of the stream operations behind a
# clone costs what, on the 21 overhead-table kernels under 1 ms
# (preempt/ops_manifest.txt: the overhead manifest's lines of those
# kernels). Part aslaunched without libgmemrt (both kinds of launch run the
# kernel as compiled, unscheduled), its "queued with ops" launch given each
# sequence in turn with PB_OPS: ewe (libgmemrt's: drain event, hold wait,
# done event), we, w, e, ee; the same stage as call 3.
#   OUT=DIR bash bench/preempt/results/session44/opsplit_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_session opsplit .stage/s44b.tgz
ops_runs ops_manifest.txt ewe we w e ee
device_archive opsplit
