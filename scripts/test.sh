#!/usr/bin/env bash
# The whole CPU test suite: GoogleTest units, lit/FileCheck tests, the corpus
# format check and the corpus class check. GPU tests run on the device
# separately (test/gpu/README.md); their last results are committed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)"
