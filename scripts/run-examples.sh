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
echo "=== GPU demo: a program built with gmem-clang++ under libgmemrt"
if [ ! -x build/bin/gmem-clang++ ]; then
  echo "GPU demo skipped: build/bin/gmem-clang++ was not built"
elif ! build/bin/gmem-clang++ -O2 -Iinclude examples/demo/demo_app.cu -o build/demo_app -ldl; then
  echo "GPU demo skipped: the demo did not build (see above)"
elif ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "GPU demo skipped: no NVIDIA GPU on this machine (built build/demo_app; run it on one"
  echo "with GMEM_LOG=launches to see one decision per launch)"
else
  GMEM_LOG=launches build/demo_app
fi
