set -u
tar xzf .stage/rt.tgz -C .stage || exit 2
S=.stage/runtime; RT=$PWD/$S/lib/libgmemrt.so
T0=$(date +%s)
LD_PRELOAD=$RT GMEM_SCHED=1 timeout 60 $S/bin/gpu_host $S/manifest.txt --sums --stream > /tmp/q.txt 2>&1
RC=$?; echo "quick clone pass: exit $RC in $(( $(date +%s) - T0 )) s, $(grep -c '^SUM' /tmp/q.txt) sums"
if [ $RC = 124 ]; then
  T0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER LD_PRELOAD=$RT GMEM_SCHED=1 timeout 60 $S/bin/gpu_host $S/manifest.txt --sums --stream > /tmp/q2.txt 2>&1
  echo "eager loading: exit $? in $(( $(date +%s) - T0 )) s, $(grep -c '^SUM' /tmp/q2.txt) sums"
  exit 1
fi
T0=$(date +%s)
OUT=$OUT/runtime timeout 175 bash test/runtime/gpu/run_on_device.sh > $OUT/runtime_stdout.txt 2>&1
echo "suite exit $? in $(( $(date +%s) - T0 )) s"
grep -E "chaos .*us:|checksums under chaos|suite status|^FAIL|gmemrt-sched" $OUT/runtime/run.log
rm -f $OUT/runtime/sums_*.txt; gzip -9 $OUT/runtime/chaos_*.txt $OUT/runtime/host_*.txt 2>/dev/null
tar czf $OUT/suite.tgz -C $OUT runtime runtime_stdout.txt && rm -rf $OUT/runtime $OUT/runtime_stdout.txt
