#!/usr/bin/env bash
# The co-location demo on the GPU machine (repo root, ".stage" carried;
# staged by bench/colocation/stage.sh). About 4 minutes.
#
#   bash bench/colocation/run_on_device.sh      # results in $OUT
#
# Writes $OUT/colocation.jsonl (one JSON line per configuration, every
# request's latency) and $OUT/run.log. Then, on the build machine:
#   python3 bench/colocation/report.py DIR_WITH_THOSE_FILES
#
# Configurations (1500 requests of 20 kernels, one every 2 ms; training
# kernels of ~25 ms, 100 waves of CTAs):
#   alone            the chain alone, no gmem
#   alone-gmem       the chain alone under libgmemrt with its stream real-time
#   be-B             training kernel B alone (throughput reference), B = step
#                    (idempotent) or accum (not idempotent)
#   be-B-gmem        ... under libgmemrt: gated preemptible clones, nothing to preempt
#   colo-B           chain beside training B, CUDA stream priorities only
#   colo-B-gmem      ... with gmem's scheduler preempting the training
#   stress-B-gmem    a request every 400 us (many preemptions; checks results)
#   colo-B-gmem-hand the hand-written clones (when the pass's are the main ones)
#   alone-gmemrt     the chain alone under libgmemrt, scheduler inactive
#   *-w10            10 waves of 10x longer CTAs instead of 100
#   *-conn32, *-poll200   CUDA_DEVICE_MAX_CONNECTIONS=32, GMEM_SCHED_POLL_US=200
#   alone-evict-l2   the chain alone, its weights evicted from L2 after each request
#   *-persist-l2     the chain's weights marked persisting in L2 (stream access policy)
#   *-l2rt           the same done by libgmemrt (GMEM_SCHED_L2=persist)
#   *-h4096-graph    the chain's other shape: memory-bound layers (GEMV
#                    4096x4096, 640 MB of weights) launched as one CUDA graph
#                    per request (how inference servers launch decode steps);
#                    alone / beside the training in 3 alternating rounds (@rK)
#   *-h1024-graph, *-h4096-streams   the two changes one at a time
# Every request also reports its first kernel's GPU time (E0->E1, waiting for
# multiprocessors included), the other 19 kernels' (E1->E2) and the host's
# issue time.
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" colocation.jsonl
{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
  nvidia-smi -L
  nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader
  echo "binary: $BIN"
  ITERS=$(timeout 60 $BIN --calibrate --be-ms 25) || { echo "FAIL: calibrate"; exit 1; }
  echo "training iterations: $ITERS"
  C=(--requests 1500 --period-us 2000)
  run alone $BIN --mode alone "${C[@]}"
  run alone-gmemrt env LD_PRELOAD="$RT" $BIN --mode alone "${C[@]}"
  run alone-gmem env LD_PRELOAD="$RT" $BIN --mode alone --gmem "${C[@]}"
  for B in step accum; do
    T=(--be $B --iters "$ITERS")
    run be-$B $BIN --mode be "${T[@]}" "${C[@]}"
    run be-$B-gmem env LD_PRELOAD="$RT" $BIN --mode be --gmem "${T[@]}" "${C[@]}"
    run colo-$B $BIN --mode colo "${T[@]}" "${C[@]}"
    run colo-$B-gmem env LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
    run stress-$B-gmem env LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" --requests 2000 --period-us 400
    if [ "$BIN" != "$HAND" ]; then
      run colo-$B-gmem-hand env LD_PRELOAD="$RT" $HAND --mode colo --gmem "${T[@]}" "${C[@]}"
    fi
  done
  # Where the chain's extra latency comes from: 10x fewer, 10x longer CTAs
  # (less to drain), more hardware queues, a slower monitor.
  ITERS10=$(timeout 60 $BIN --calibrate --be-ms 25 --waves 10) || { echo "FAIL: calibrate"; exit 1; }
  echo "training iterations with 10 waves: $ITERS10"
  T=(--be step --iters "$ITERS10" --waves 10)
  run be-step-w10 $BIN --mode be "${T[@]}" "${C[@]}"
  run colo-step-w10 $BIN --mode colo "${T[@]}" "${C[@]}"
  run colo-step-gmem-w10 env LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
  T=(--be step --iters "$ITERS")
  run colo-step-gmem-conn32 env CUDA_DEVICE_MAX_CONNECTIONS=32 LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
  run colo-step-gmem-poll200 env GMEM_SCHED_POLL_US=200 LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
  # The training's use of L2: the chain alone with its weights evicted
  # after each request, and beside the training with them persisting in L2.
  run alone-evict-l2 $BIN --mode alone --evict-l2 "${C[@]}"
  run colo-step-gmem-persist-l2 env LD_PRELOAD="$RT" $BIN --mode colo --gmem --persist-l2 "${T[@]}" "${C[@]}"
  run colo-step-gmem-l2rt env GMEM_SCHED_L2=persist LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
  # The chain's shape: graph-launched, memory-bound layers.
  G=(--hidden 4096 --graph)
  for K in 1 2 3; do
    run alone-h4096-graph@r$K $BIN --mode alone "${G[@]}" "${C[@]}"
    run colo-step-gmem-h4096-graph@r$K env LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${G[@]}" "${C[@]}"
  done
  run colo-step-h4096-graph $BIN --mode colo "${T[@]}" "${G[@]}" "${C[@]}"
  run colo-accum-gmem-h4096-graph env LD_PRELOAD="$RT" $BIN --mode colo --gmem --be accum --iters "$ITERS" "${G[@]}" "${C[@]}"
  for G in "--hidden 1024 --graph" "--hidden 4096"; do
    N=$(echo "$G" | sed 's/--hidden /h/; s/ --graph/-graph/'); case $N in *graph) ;; *) N=$N-streams ;; esac
    run alone-$N $BIN --mode alone $G "${C[@]}"
    run colo-step-gmem-$N env LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" $G "${C[@]}"
  done
  echo "=== scheduler log of a short run (first lines in sched_log.txt)"
  timeout 30 env GMEM_LOG=sched LD_PRELOAD="$RT" $BIN --mode colo --gmem --be step --iters "$ITERS" \
    --requests 20 --period-us 2000 --label log-step-gmem > "$OUT/sched_log.txt" 2>&1
  echo "exit $?, $(grep -c preempt "$OUT/sched_log.txt") preemption lines"
  head -c 200000 "$OUT/sched_log.txt" > "$OUT/sched_log.tmp" && mv "$OUT/sched_log.tmp" "$OUT/sched_log.txt"
  echo
  echo "demo status: $([ $FAIL = 0 ] && echo PASS || echo FAIL)"
} 2>&1 | tee "$OUT/run.log"
grep -q "^demo status: PASS" "$OUT/run.log"
