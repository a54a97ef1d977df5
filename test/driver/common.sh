# Shared by run_tests.sh and run_cmake_test.sh (sourced; bash).

FAILS=0
CHECKS=0
ok() { CHECKS=$((CHECKS + 1)); echo "ok    $1"; }
bad() {
  CHECKS=$((CHECKS + 1)); FAILS=$((FAILS + 1)); echo "FAIL  $1"
  if [ $# -gt 1 ] && [ -n "$2" ]; then printf '%s\n' "$2" | tail -40 | sed 's/^/      | /'; fi
}
summary() { echo "# $((CHECKS - FAILS))/$CHECKS checks passed"; [ "$FAILS" = 0 ]; }

# use_work_dir LABEL: WORK (the script's --work) emptied, or where it is
# unset a new temporary directory named after LABEL, removed at exit unless
# KEEP=1.
use_work_dir() {
  if [ -z "$WORK" ]; then
    WORK="$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")"
    [ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT
  else
    rm -rf "$WORK"
    mkdir -p "$WORK"
  fi
}

# run_prog NAME EXE: a built program prints PASS (GPU) or exits 77 (no GPU).
run_prog() {
  local out rc
  out="$(timeout 120 "$2" 2>&1)"; rc=$?
  if [ $rc = 0 ] && grep -q "^PASS" <<<"$out"; then ok "$1 runs: PASS"
  elif [ $rc = 77 ]; then ok "$1 runs: no usable GPU here (exit 77: $(grep -m1 '^SKIP' <<<"$out" | cut -c1-90))"
  else bad "$1 runs (exit $rc)" "$out"; fi
}

# snapshot_plugin DRIVER DIR: copy the plugin the driver would use to DIR and
# export GMEM_PLUGIN to it, so that a concurrent rebuild of build/lib does
# not break the tests halfway. Retries until the copy loads (a half-written
# file does not). Sets DEFAULT_PLUGIN to the path the driver found.
snapshot_plugin() {
  local driver="$1" dir="$2" i
  DEFAULT_PLUGIN="$("$driver" --gmem-config 2>/dev/null | sed -n 's/^plugin=//p')"
  if [ ! -f "$DEFAULT_PLUGIN" ]; then
    echo "FAIL: the driver finds no plugin: $DEFAULT_PLUGIN"; return 1
  fi
  mkdir -p "$dir"
  printf '__global__ void k(int *p) { *p = 1; }\n' > "$dir/probe.cu"
  for i in $(seq 1 30); do
    cp "$DEFAULT_PLUGIN" "$dir/GmemPlugin.so" 2>/dev/null &&
      GMEM_PLUGIN="$dir/GmemPlugin.so" "$driver" --cuda-device-only -S "$dir/probe.cu" \
        -o "$dir/probe.ptx" >/dev/null 2>&1 && grep -q __gmem_desc_ "$dir/probe.ptx" && {
      export GMEM_PLUGIN="$dir/GmemPlugin.so"; return 0; }
    sleep 2
  done
  echo "FAIL: $DEFAULT_PLUGIN does not load (still being rebuilt?)"; return 1
}
