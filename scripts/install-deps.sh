#!/usr/bin/env bash
# Installs what gmem needs on Debian 12 (bookworm): the pinned LLVM/Clang/MLIR
# 19 toolchain, GoogleTest, CMake. Idempotent: does nothing when all is there.
set -euo pipefail

PKGS=(cmake ninja-build g++ python3
      llvm-19-dev clang-19 libclang-19-dev libmlir-19-dev mlir-19-tools
      llvm-19-tools lld-19 libgtest-dev)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo for apt-get" >&2; exit 1; }
    SUDO=sudo
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# CUDA headers are needed to analyse .cu sources (clang compiles them
# device-only); .ll/.bc and .hip inputs work without them.
if [ ! -f "${CUDA_PATH:-/usr/local/cuda}/include/cuda.h" ]; then
  echo "install-deps: warning: no CUDA toolkit at ${CUDA_PATH:-/usr/local/cuda}; .cu inputs will not compile" >&2
fi
