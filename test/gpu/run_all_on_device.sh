#!/usr/bin/env bash
# Every GPU check of the project in one device command (the device lends one
# machine at a time and starting it costs minutes): the corpus run-twice
# ground truth, the driver-built programs and the runtime suite. Stage first
# on the build machine (each part's stage script), carry .stage, then run:
#
#   bash test/gpu/run_all_on_device.sh
#
# Each part writes into $OUT/<part>/; a part whose stage is missing is
# reported as skipped. Exit status: non-zero if any part failed. The four
# stages (~31 MB) and the tracked tree (~28 MB) fit the device tool's 64 MiB
# together (carry .stage/gpu, .stage/driver, .stage/runtime, .stage/memory;
# ~2 minutes on an H200); should they outgrow it, carry .stage/gpu and
# .stage/driver in one call and the other two in another.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
OUT="${OUT:-.stage/out}"
mkdir -p "$OUT"
status=0
part() { # name, stage dir, command...
  local name=$1 stage=$2; shift 2
  echo "=== $name"
  if [ ! -d "$stage" ]; then
    echo "SKIPPED $name: $stage not staged"
    return
  fi
  mkdir -p "$OUT/$name"
  OUT="$OUT/$name" timeout 240 "$@"
  local rc=$?
  echo "=== $name: exit $rc"
  [ "$rc" = 0 ] || status=1
}
nvidia-smi -L
part corpus .stage/gpu bash test/gpu/run_on_device.sh
# GMEM_LOG=launches: the *_gmemrt programs and the README's demo print one
# line per launch with the runtime's decision.
GMEM_LOG=launches part driver .stage/driver bash test/driver/gpu/run.sh
part runtime .stage/runtime bash test/runtime/gpu/run_on_device.sh
part memory .stage/memory bash test/runtime/gpu/memory_run.sh
exit $status
