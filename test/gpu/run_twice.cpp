// run_twice: GPU ground truth for gmem's idempotence analysis.
//
// For every kernel instance in a manifest it uploads deterministic input I,
// launches the kernel (memory becomes S1), launches it again on the same
// device memory (S2) and compares S1 with S2 byte for byte over every buffer.
// A difference proves the instance non-idempotent; equality is consistent
// with idempotence (docs/CORPUS_FORMAT.md, "Ground truth on the GPU").
//
// CUDA driver API only (cuda.h, -lcuda); no runtime API, no managed memory,
// never resets the device.  Build:
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include test/gpu/run_twice*.cpp
//       -L/usr/local/cuda/lib64/stubs -lcuda -static-libstdc++ -static-libgcc
//       -o run_twice            (one line; test/gpu/stage.py runs it)
// Files: this one (overview, supervisor, main) and run_twice_*.cpp; what
// each holds is listed in run_twice.h.
//
// Usage:
//   run_twice MANIFEST [--json PATH] [--device N] [--timeout SEC]
//             [--no-determinism-check] [--dry-run] [--self-test]
//
//   --json PATH   also write the results as JSON (schema below)
//   --device N    CUDA device ordinal (default 0)
//   --timeout S   watchdog per instance in seconds (default 10); when an
//                 instance exceeds it the runner kills the worker, reports
//                 it, writes the JSON so far and exits with status 3
//   --no-determinism-check
//                 skip the extra launch that re-runs the kernel on I and
//                 compares with S1 (it only annotates, never changes verdicts;
//                 without it no read region is checked)
//   --dry-run     parse the manifest, generate every buffer, print what would
//                 be allocated and launched; calls no cu* function at all
//   --self-test   run the built-in unit tests (parser, PRNG/init, compare,
//                 region checks, wire format, summary); calls no cu* function
//
// ---------------------------------------------------------------------------
// MANIFEST FORMAT (written by test/gpu/stage.py)
//
// One instance per line.  Blank lines and lines whose first non-blank
// character is '#' are ignored.  A line is a sequence of whitespace-separated
// KEY=VALUE fields; values contain no whitespace.  `args=` must be the last
// field: everything after it (possibly nothing) is the list of ARG tokens.
//
//   ptx=PATH      PTX file, relative to the manifest's directory (or absolute)
//   sym=SYMBOL    mangled kernel symbol (the .entry name in the PTX)
//   name=NAME     display name (e.g. saxpy.cu:saxpy#0); also seeds the PRNG
//   grid=X[,Y,Z]  grid dimensions (missing components are 1)
//   block=X[,Y,Z] block dimensions
//   pred=P        analysis prediction: idempotent | not-idempotent | none
//   class=C       static class from gmem-analyze (idempotent | conditional |
//                 non-idempotent | unknown | none); optional, default none
//   expect=C      class from the corpus GMEM-EXPECT line; optional
//   smem=N        dynamic shared memory bytes; optional, default 0
//   wr=RANGES     predicted write region per buffer parameter K, byte
//                 ranges relative to the buffer: K:LO-HI+LO-HI,K2:...;
//                 `none` no buffer may be written, `-` (default) not
//                 checked (byte_ranges.h)
//   rd=RANGES     predicted read region, same syntax: a buffer not named may
//                 not be read at all; `none` no buffer may be read; `-`
//                 (default) not checked
//   args=ARG...   one token per kernel parameter, in order:
//       buf:T:COUNT:INIT   fresh cuMemAlloc of COUNT elements of T
//                          T in f32 f64 i32 u32 i64 u64 i8 u8
//                          INIT: rand (floats uniform in [-1,1), integers in
//                          [0,100)), randint:LO:HI (integers in [LO,HI); float
//                          buffers get the integer value), zero, iota (element
//                          i holds i), const:V
//       ptr:K[+OFF|-OFF]   device address of parameter K's buffer plus OFF bytes
//                          (K may itself be a ptr; it resolves to its address)
//       i32:N u32:N i64:N u64:N f32:X f64:X   scalars by value
//
// Example:
//   ptx=ptx/saxpy.ptx sym=_Z5saxpyifPKfPf name=saxpy.cu:saxpy#0 grid=4,1,1 block=256,1,1 pred=not-idempotent class=non-idempotent args=i32:1000 f32:2 buf:f32:1000:rand buf:f32:1000:rand
//
// Buffer contents are a pure function of (name, parameter index, T, COUNT,
// INIT): seed = splitmix64(fnv1a64(name) ^ (K+1)*0x9E3779B97F4A7C15), then a
// splitmix64 stream; one draw per element.
//
// ---------------------------------------------------------------------------
// PROCESS MODEL AND ERRORS
// The main process (supervisor) never calls CUDA.  It forks a worker process
// that does cuInit, cuCtxCreate on the device and runs the instances in
// order, reporting each result over a pipe; the supervisor prints and
// records them.  A CUDA error fails only its instance (ERROR).  After a
// sticky error (illegal address, launch failure, ...) the worker destroys its
// context (cuCtxDestroy) and creates a new one (cuCtxCreate); it never resets
// the device.  When the driver refuses that (current drivers keep a sticky
// error for the life of the process), the worker reports it and exits, and
// the supervisor starts a fresh worker at the next instance.  When a fresh
// worker cannot initialise CUDA either, the runner stops and reports.  The
// watchdog lives in the supervisor: an instance running longer than
// --timeout gets its worker killed (SIGKILL), is reported as TIMEOUT, and
// the runner stops.
//
// Memory: every buffer is a cuMemAlloc (never managed memory); an instance
// whose buffers (+ a margin of max(256 MiB, 2% of the device)) do not fit in
// cuMemGetInfo's free memory, or whose 4 host copies do not fit in free host
// memory, is SKIPPED (at most 4 are live: I, S1, S2 and the determinism
// run's copy; S2 is released before the read check's I2 and S3).  Before
// launching, the kernel's parameter count and sizes (cuFuncGetParamInfo)
// are checked against the ARG tokens.
// Besides the two launches, the worker by default re-runs the kernel on a
// fresh upload of I and compares with S1 (an annotation only: a
// nondeterministic kernel can differ for reasons other than idempotence).
// Then, for an instance with an rd= field that this re-run found
// deterministic, the read check: upload I2 = I with every byte outside rd
// changed (XOR 0x5A), launch once (S3) and require S3 == S1 where run 1
// changed a byte, S3 in {I2, S1} elsewhere (byte_ranges.h). A miss counts
// only after kReadRecheckRuns more runs on I all reproduce S1 (a race that
// one determinism run did not show makes the check inconclusive instead).  When rd leaves
// no byte to change, the determinism run already was that run: checked,
// no launch.  A failed read-check launch is noted and leaves it unchecked.
//
// VERDICTS
//   OK               prediction agrees with the observation (predicted
//                    idempotent and identical, or predicted not-idempotent
//                    and differs)
//   FALSE-IDEMPOTENT predicted idempotent but S1 != S2 (soundness failure)
//   MISSED           predicted not-idempotent but S1 == S2 (false negative,
//                    not a failure)
//   NO-PREDICTION    pred=none; observation reported only
//   ERROR            manifest error, CUDA error (module load, launch, fault),
//                    parameter-layout mismatch, worker crash
//   SKIPPED          the instance does not fit in free device/host memory
//   TIMEOUT          the watchdog fired (the runner stops)
// Independently of the verdict, an instance with a wr= field whose first
// launch changed a byte outside the predicted region (I against S1) is
// reported WRITE-OUTSIDE-REGION, one whose read check found bytes the run on
// I does not explain READ-OUTSIDE-REGION; either counts it as failed.
// passed = OK + MISSED + NO-PREDICTION - region failures; failed =
// FALSE-IDEMPOTENT + ERROR + TIMEOUT + region failures (+ instances not run
// when the runner stops early); region failures = instances with one of
// those verdicts (OK, MISSED, NO-PREDICTION) and a write or read outside,
// each counted once.
// false-negative rate = MISSED / (instances with a prediction that were
// observed identical).  One line per instance, then a summary whose last
// line is exactly "N passed, M failed".  Exit status: 0 when failed == 0,
// 1 when failed > 0, 2 usage/manifest-file error, 3 watchdog timeout, 4 CUDA
// unusable (init or context creation failed in a fresh worker) or another
// fatal runner error.
//
// JSON (--json, rewritten after every instance with "complete": false, and
// at the end with "complete": true): {"schema":1, "tool":"run_twice", "manifest", "command",
//   "host", "date", "device": {...} | null, "complete": bool,
//   "instances": [{"index","line","name","ptx","symbol","grid","block","smem",
//     "args","prediction","class","expect","observed" (identical | differs |
//     error | skipped | timeout), "first_diff": {"param","offset","s1","s2"} |
//     null, "diff_bytes", "changed_by_first_launch", "write_check"
//     ({"outside_bytes", "first": {"param","offset"} | null} | null when not
//     checked), "read_check" ({"bad_bytes", "perturbed_bytes", "first":
//     {"param","offset"} | null} | null when not checked), "deterministic"
//     (bool | null), "verdict", "error" (string | null), "note", "ms"}],
//   "summary": {...counts..., "write_checked", "write_outside",
//     "read_checked", "read_outside", "false_negative_rate", "passed",
//     "failed"}}
// ---------------------------------------------------------------------------

#include "run_twice.h"

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace run_twice {

// ----------------------------------------------------------------- supervisor

// supervisor state (the supervisor process never calls a cu* function)
std::vector<Result> g_results;
std::vector<Instance> g_instances;
std::string g_json_path, g_manifest_path, g_command, g_date;
DeviceInfo g_dev;

namespace {

// --timeout: the watchdog's limit per instance
double g_timeout_s = 10.0;

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int g_ordinal = 0;
bool g_determinism = true;

void record(Result &r, size_t index) {
  r.in = &g_instances[index];
  g_results.push_back(r);
  print_result(g_results.back(), g_instances.size());
  write_json(false, (int)g_instances.size() - (int)g_results.size());
}

int finish(bool complete, int fatal_status) {
  int not_run = (int)g_instances.size() - (int)g_results.size();
  Summary s = summarize(g_results);
  if (!complete) s.failed += not_run;
  print_summary(s, not_run);
  write_json(complete, not_run);
  if (fatal_status) return fatal_status;
  return s.failed ? 1 : 0;
}

int supervise() {
  printf("run_twice: %zu instances from %s\n", g_instances.size(), g_manifest_path.c_str());
  size_t next = 0;
  int workers = 0;
  while (next < g_instances.size()) {
    int pfd[2];
    if (pipe(pfd) != 0) {
      printf("FATAL: pipe: %s\n", strerror(errno));
      return finish(false, 4);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
      printf("FATAL: fork: %s\n", strerror(errno));
      return finish(false, 4);
    }
    if (pid == 0) {
      close(pfd[0]);
      worker_main((int)next, pfd[1], g_ordinal, g_determinism);
    }
    ++workers;
    close(pfd[1]);
    std::string buf;
    int current = -1;
    int64_t started = 0;
    bool fatal = false;
    std::string fatal_msg;
    for (;;) {
      struct pollfd pf = {pfd[0], POLLIN, 0};
      int pr = poll(&pf, 1, 50);
      if (pr < 0 && errno != EINTR) break;
      if (current >= 0 && steady_ms() - started > (int64_t)(g_timeout_s * 1000.0)) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        close(pfd[0]);
        Result r;
        r.observed = "timeout";
        r.verdict = "TIMEOUT";
        r.error = strfmt("instance exceeded the %g s watchdog; worker killed, stopping",
                         g_timeout_s);
        r.ms = (double)(steady_ms() - started);
        record(r, (size_t)current);
        return finish(false, 3);
      }
      if (pr <= 0) continue;
      char tmp[8192];
      ssize_t n = read(pfd[0], tmp, sizeof tmp);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // EOF: worker ended
      buf.append(tmp, (size_t)n);
      size_t nl;
      while ((nl = buf.find('\n')) != std::string::npos) {
        std::string line = buf.substr(0, nl);
        buf.erase(0, nl + 1);
        std::vector<std::string> f = split(line, '\x1f');
        if (f[0] == "S" && f.size() == 2) {
          current = atoi(f[1].c_str());
          started = steady_ms();
        } else if (f[0] == "R") {
          Result r;
          int idx = -1;
          if (decode_result(f, r, idx) && idx >= 0 && (size_t)idx < g_instances.size()) {
            record(r, (size_t)idx);
            next = (size_t)idx + 1;
          }
          current = -1;
        } else if (f[0] == "D" && f.size() == 6) {
          if (!g_dev.valid)
            printf("device %d: %s (sm_%s%s, %" PRIu64 " MiB), driver API %s\n", g_ordinal,
                   f[1].c_str(), f[2].c_str(), f[3].c_str(),
                   (uint64_t)strtoull(f[4].c_str(), nullptr, 10) >> 20, f[5].c_str());
          g_dev.valid = true;
          g_dev.ordinal = g_ordinal;
          g_dev.name = f[1];
          g_dev.cc_major = atoi(f[2].c_str());
          g_dev.cc_minor = atoi(f[3].c_str());
          g_dev.total_mem = strtoull(f[4].c_str(), nullptr, 10);
          g_dev.driver = atoi(f[5].c_str());
        } else if (f[0] == "F") {
          fatal = true;
          fatal_msg = f.size() > 1 ? f[1] : "?";
        }
      }
    }
    close(pfd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (fatal) {
      printf("FATAL: %s%s\n", fatal_msg.c_str(),
             workers > 1 ? " (in a restarted worker; stopping)" : "");
      return finish(false, 4);
    }
    if (current >= 0) {
      // the worker died inside an instance without reporting it
      Result r;
      r.observed = "error";
      r.verdict = "ERROR";
      r.error = WIFSIGNALED(status) ? strfmt("worker killed by signal %d", WTERMSIG(status))
                                    : strfmt("worker exited with status %d mid-instance",
                                             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
      r.ms = (double)(steady_ms() - started);
      record(r, (size_t)current);
      next = (size_t)current + 1;
      continue;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 5) continue;  // restart after fault
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) || next < g_instances.size()) {
      printf("FATAL: worker ended unexpectedly (status 0x%x); stopping\n", status);
      return finish(false, 4);
    }
  }
  return finish(true, 0);
}

void usage() {
  fprintf(stderr,
          "usage: run_twice MANIFEST [--json PATH] [--device N] [--timeout SEC]\n"
          "                 [--no-determinism-check] [--dry-run]\n"
          "       run_twice --self-test\n");
}

}  // namespace
}  // namespace run_twice

// main is the only code outside namespace run_twice
using namespace run_twice;

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  setvbuf(stderr, nullptr, _IONBF, 0);
  std::string manifest;
  bool dry = false, selftest = false, determinism = true;
  for (int i = 0; i < argc; ++i) {
    if (i) g_command += ' ';
    g_command += argv[i];
  }
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) g_json_path = argv[++i];
    else if (a == "--device" && i + 1 < argc) g_ordinal = atoi(argv[++i]);
    else if (a == "--timeout" && i + 1 < argc) g_timeout_s = atof(argv[++i]);
    else if (a == "--dry-run") dry = true;
    else if (a == "--self-test") selftest = true;
    else if (a == "--no-determinism-check") determinism = false;
    else if (a == "-h" || a == "--help") { usage(); return 0; }
    else if (!a.empty() && a[0] == '-') { usage(); return 2; }
    else if (manifest.empty()) manifest = a;
    else { usage(); return 2; }
  }
  if (selftest) return self_test();
  if (manifest.empty() || !(g_timeout_s > 0)) {
    usage();
    return 2;
  }
  g_manifest_path = manifest;
  g_date = now_iso8601();
  std::string err;
  if (!read_manifest(manifest, g_instances, err)) {
    fprintf(stderr, "run_twice: %s\n", err.c_str());
    return 2;
  }
  if (dry) return dry_run(g_instances);
  g_determinism = determinism;
  signal(SIGPIPE, SIG_IGN);
  return supervise();
}
