#!/bin/bash
set -u
P=.stage/probe/printf_first_wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "== $*"; timeout 12 "$@"; echo "exit $?"; }
run $P dev write other other attr
run $P dev write other other load
run $P dev write other other parkload
run $P dev write other deep load
run $P dev write other say load
run $P dev write other deep attr
run $P dev write other other plain
