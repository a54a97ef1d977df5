#!/usr/bin/env bash
# Session 35's device call 3: the preemptible clones with grid-stride loops
# around counted nests on the static rule (the new default), over the whole
# corpus; the same three steps as session 34's script:
# 1. forced-preemption correctness over the corpus (40 trials an instance)
# 2. the overhead table as libgmemrt launches it (part aslaunched, no cap)
# 3. stop latency of the overhead table's kernels (part stops, every form)
# GPU machine, repo root, .stage/s35p.tgz carried (a tar of .stage/preempt
# from `python3 bench/preempt/stage.py --build-dir build`).
#
#   OUT=DIR bash bench/preempt/results/session35/run_on_device.sh
TGZ=.stage/s35p.tgz exec bash "$(dirname "${BASH_SOURCE[0]}")/../session34/run_on_device.sh"
