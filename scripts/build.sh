#!/usr/bin/env bash
# Configures and builds gmem into build/ (installing dependencies first).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
gen=()
command -v ninja >/dev/null && [ ! -f build/Makefile ] && gen=(-G Ninja)
cmake -S . -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
