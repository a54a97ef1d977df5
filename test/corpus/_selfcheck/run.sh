#!/bin/bash
# usage: run.sh [--sanitize|--racecheck]
cd "$(dirname "$0")"
NAMES="activations atax bfs bicg bitonic_sort cast constant_memory conv2d copy device_counter device_helper elementwise_inplace embedding fill floyd_warshall gather_scatter gemm gemm_polybench gemv gesummv histogram hotspot im2col init_tables iota jacobi2d kmeans layernorm memcpy_device mvt nbody odd_even_sort optimizer pathfinder pointer_table reduction same_buffer saxpy scan softmax sor_redblack spmv stencil3d transpose vector_add"
for n in $NAMES; do
  if [ "$1" = "--sanitize" ]; then
    compute-sanitizer --tool memcheck --print-limit 5 --error-exitcode 3 ./selfcheck $n || echo "SANITIZER FAIL $n rc=$?"
  elif [ "$1" = "--racecheck" ]; then
    compute-sanitizer --tool racecheck --print-limit 5 --error-exitcode 3 ./selfcheck $n > /dev/null || echo "RACECHECK FAIL $n rc=$?"
  else
    ./selfcheck $n || echo "RUN FAIL $n rc=$?"
  fi
done
