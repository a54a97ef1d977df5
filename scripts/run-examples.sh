#!/usr/bin/env bash
# The main job on the bundled examples: build, then report what every kernel
# in examples/ reads and writes, its idempotence class, and two launch-time
# decisions (a disjoint launch and an aliasing one).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
A=build/bin/gmem-analyze
for f in examples/*.cu examples/*.hip; do
  echo "=== $f"
  "$A" "$f"
done
echo "=== instance: vector_add with separate buffers"
"$A" examples/vector_add.cu --kernel vector_add --grid 4 --block 256 \
  --alloc 0x100000:4096 --alloc 0x200000:4096 --alloc 0x300000:4096 \
  --arg ptr:0x100000 --arg ptr:0x200000 --arg ptr:0x300000 --arg i32:1000 | tail -5
echo "=== instance: vector_add writing c over b shifted by 16 bytes"
"$A" examples/vector_add.cu --kernel vector_add --grid 4 --block 256 \
  --alloc 0x100000:4096 --alloc 0x200000:8192 \
  --arg ptr:0x100000 --arg ptr:0x200000 --arg ptr:0x200010 --arg i32:1000 | tail -5
