#!/bin/bash
# printf first-launch probe (driver alone), then the gated test under libgmemrt with the scheduler log.
set -u
P=.stage/probe; S=.stage/runtime; RT=$S/lib/libgmemrt.so
export LD_LIBRARY_PATH="$PWD/$S/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for M in dev-write dev-memset host-store dev-warm dev-plain dev-write; do
  echo "== $M"; timeout 10 $P/printf_first_wait $M; echo "exit $?"
done
for M in gated urgent; do
  echo "== urgent_first_launch $M (GMEM_SCHED=1, GMEM_LOG=sched)"
  LD_PRELOAD=$RT GMEM_SCHED=1 GMEM_LOG=sched,errors timeout 8 $S/bin/urgent_first_launch $M 2>&1 | head -60; echo "exit ${PIPESTATUS[0]}"
done
