#!/usr/bin/env bash
# Session 43, call 8 (diagnostics): the SASS of three corpus files in both
# stages of .stage/s43c.tgz (`preempt`: this session's default; `preempt_old`:
# session 41's PTX), by the GPU machine's cuobjdump (the build machine has
# none). Kept gzipped in sass/ for iota and saxpy.
#   OUT=DIR bash bench/preempt/results/session43/sass_on_device.sh
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
mkdir -p .stage "$OUT" && tar xzf .stage/s43c.tgz -C .stage || exit 2
CO=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump | head -1)
for f in iota saxpy reduction; do
  "$CO" -sass ".stage/preempt/corpus/ptx/$f.cubin" > "$OUT/$f.sass" 2>&1
  "$CO" -sass ".stage/preempt_old/corpus/ptx/$f.cubin" > "$OUT/${f}_old.sass" 2>&1
done
