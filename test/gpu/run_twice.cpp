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
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include test/gpu/run_twice.cpp
//       -L/usr/local/cuda/lib64/stubs -lcuda -static-libstdc++ -static-libgcc
//       -o run_twice            (one line; test/gpu/stage.py runs it)
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

#include <cuda.h>

#include "byte_ranges.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

// ------------------------------------------------------------------ utilities

std::string strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string strfmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[512];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return std::string();
  if ((size_t)n < sizeof small) return std::string(small, (size_t)n);
  std::string out((size_t)n + 1, '\0');
  va_start(ap, fmt);
  vsnprintf(&out[0], out.size(), fmt, ap);
  va_end(ap);
  out.resize((size_t)n);
  return out;
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t p = s.find(sep, start);
    if (p == std::string::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, p - start));
    start = p + 1;
  }
}

std::vector<std::string> split_ws(const std::string &s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isspace((unsigned char)s[i])) ++i;
    size_t j = i;
    while (j < s.size() && !isspace((unsigned char)s[j])) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

bool parse_i64(const std::string &s, int64_t &v) {
  if (s.empty()) return false;
  errno = 0;
  char *end = nullptr;
  long long x = strtoll(s.c_str(), &end, 0);
  if (errno || *end) return false;
  v = x;
  return true;
}

bool parse_u64(const std::string &s, uint64_t &v) {
  if (s.empty() || s[0] == '-') return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long x = strtoull(s.c_str(), &end, 0);
  if (errno || *end) return false;
  v = x;
  return true;
}

// integer of either signedness, returned as a 64-bit pattern
bool parse_int_bits(const std::string &s, uint64_t &bits) {
  int64_t v;
  if (parse_i64(s, v)) {
    bits = (uint64_t)v;
    return true;
  }
  uint64_t u;
  if (parse_u64(s, u)) {
    bits = u;
    return true;
  }
  return false;
}

bool parse_double(const std::string &s, double &v) {
  if (s.empty()) return false;
  errno = 0;
  char *end = nullptr;
  double x = strtod(s.c_str(), &end);
  if (errno == ERANGE && std::isinf(x)) return false;
  if (*end) return false;
  v = x;
  return true;
}

std::string json_str(const std::string &s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': o += "\\\""; break;
    case '\\': o += "\\\\"; break;
    case '\n': o += "\\n"; break;
    case '\r': o += "\\r"; break;
    case '\t': o += "\\t"; break;
    default:
      if (c < 0x20) o += strfmt("\\u%04x", c);
      else o += (char)c;
    }
  }
  return o + "\"";
}

std::string dirname_of(const std::string &path) {
  size_t p = path.rfind('/');
  if (p == std::string::npos) return ".";
  if (p == 0) return "/";
  return path.substr(0, p);
}

std::string now_iso8601() {
  time_t t = time(nullptr);
  struct tm tmv;
  gmtime_r(&t, &tmv);
  char b[64];
  strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tmv);
  return b;
}

// ---------------------------------------------------------------- PRNG / init

uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t fnv1a64(const void *data, size_t n, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char *p = (const unsigned char *)data;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

uint64_t buffer_seed(const std::string &name, int param) {
  uint64_t s = fnv1a64(name.data(), name.size()) ^
               ((uint64_t)(param + 1) * 0x9E3779B97F4A7C15ull);
  return splitmix64(s);
}

enum class ElemType { F32, F64, I32, U32, I64, U64, I8, U8 };

struct ElemInfo {
  const char *name;
  ElemType t;
  size_t size;
  bool is_float;
  bool is_signed;
};

const ElemInfo kElems[] = {
    {"f32", ElemType::F32, 4, true, true},  {"f64", ElemType::F64, 8, true, true},
    {"i32", ElemType::I32, 4, false, true}, {"u32", ElemType::U32, 4, false, false},
    {"i64", ElemType::I64, 8, false, true}, {"u64", ElemType::U64, 8, false, false},
    {"i8", ElemType::I8, 1, false, true},   {"u8", ElemType::U8, 1, false, false},
};

const ElemInfo *elem_by_name(const std::string &n) {
  for (const ElemInfo &e : kElems)
    if (n == e.name) return &e;
  return nullptr;
}

enum class InitKind { Rand, RandInt, Zero, Iota, Const };

struct Init {
  InitKind kind = InitKind::Zero;
  int64_t lo = 0, hi = 0;    // randint
  double cval_f = 0;         // const, float types
  uint64_t cval_bits = 0;    // const, integer types (two's complement)
  std::string text;          // as written
};

// store an integer value (two's complement bits) or a double into element i
void store_int(uint8_t *dst, const ElemInfo &e, uint64_t bits) {
  switch (e.t) {
  case ElemType::F32: { float f = (float)(int64_t)bits; memcpy(dst, &f, 4); break; }
  case ElemType::F64: { double d = (double)(int64_t)bits; memcpy(dst, &d, 8); break; }
  case ElemType::I32: case ElemType::U32: { uint32_t v = (uint32_t)bits; memcpy(dst, &v, 4); break; }
  case ElemType::I64: case ElemType::U64: memcpy(dst, &bits, 8); break;
  case ElemType::I8: case ElemType::U8: { uint8_t v = (uint8_t)bits; *dst = v; break; }
  }
}

void store_float(uint8_t *dst, const ElemInfo &e, double d) {
  if (e.t == ElemType::F32) {
    float f = (float)d;
    memcpy(dst, &f, 4);
  } else {
    memcpy(dst, &d, 8);
  }
}

// Fill `out` (count*size bytes) deterministically.
void fill_buffer(std::vector<uint8_t> &out, const ElemInfo &e, uint64_t count,
                 const Init &init, uint64_t seed) {
  out.assign((size_t)(count * e.size), 0);
  uint64_t st = seed;
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t *dst = out.data() + i * e.size;
    switch (init.kind) {
    case InitKind::Zero: break;
    case InitKind::Iota: store_int(dst, e, i); break;
    case InitKind::Const:
      if (e.is_float) store_float(dst, e, init.cval_f);
      else store_int(dst, e, init.cval_bits);
      break;
    case InitKind::Rand: {
      uint64_t r = splitmix64(st);
      if (e.t == ElemType::F32)
        store_float(dst, e, (double)(float)((double)(r >> 40) * (2.0 / 16777216.0) - 1.0));
      else if (e.t == ElemType::F64)
        store_float(dst, e, (double)(r >> 11) * (2.0 / 9007199254740992.0) - 1.0);
      else
        store_int(dst, e, r % 100);
      break;
    }
    case InitKind::RandInt: {
      uint64_t r = splitmix64(st);
      uint64_t span = (uint64_t)init.hi - (uint64_t)init.lo;
      store_int(dst, e, (uint64_t)init.lo + r % span);
      break;
    }
    }
  }
}

// ------------------------------------------------------------------- manifest

enum class ArgKind { Buf, Ptr, Scalar };

struct Arg {
  ArgKind kind = ArgKind::Scalar;
  std::string tok;
  // buf
  const ElemInfo *elem = nullptr;
  uint64_t count = 0;
  Init init;
  // ptr
  int ref = -1;
  int64_t off = 0;
  // scalar: raw little-endian bytes
  size_t size = 0;
  uint64_t bits = 0;
  std::string stype;
};

struct Instance {
  int index = 0;
  int line = 0;
  std::string raw;
  std::string ptx, ptx_resolved, sym, name, pred = "none", cls = "none", expect;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  unsigned smem = 0;
  std::string args_text;
  std::vector<Arg> args;
  ByteRanges wr;      // wr=: what the first launch may change (byte_ranges.h)
  ByteRanges rd;      // rd=: what a launch may read
  std::string error;  // parse error
};

bool parse_dims(const std::string &s, unsigned d[3], std::string &err) {
  std::vector<std::string> p = split(s, ',');
  if (p.empty() || p.size() > 3) {
    err = "bad dims '" + s + "'";
    return false;
  }
  for (int i = 0; i < 3; ++i) d[i] = 1;
  for (size_t i = 0; i < p.size(); ++i) {
    uint64_t v;
    if (!parse_u64(p[i], v) || v == 0 || v > 0xffffffffull) {
      err = "bad dims '" + s + "'";
      return false;
    }
    d[i] = (unsigned)v;
  }
  return true;
}

bool parse_arg(const std::string &tok, Arg &a, std::string &err) {
  a.tok = tok;
  std::vector<std::string> f = split(tok, ':');
  const std::string &k = f[0];
  if (k == "buf") {
    if (f.size() < 4) {
      err = "buf needs buf:T:COUNT:INIT: '" + tok + "'";
      return false;
    }
    a.kind = ArgKind::Buf;
    a.elem = elem_by_name(f[1]);
    if (!a.elem) {
      err = "unknown element type '" + f[1] + "' in '" + tok + "'";
      return false;
    }
    if (!parse_u64(f[2], a.count)) {
      err = "bad COUNT in '" + tok + "'";
      return false;
    }
    if (a.count > (UINT64_MAX / 16)) {
      err = "COUNT too large in '" + tok + "'";
      return false;
    }
    const std::string &ik = f[3];
    a.init.text = tok.substr(tok.find(':', tok.find(':', 4) + 1) + 1);
    if (ik == "rand" && f.size() == 4) {
      a.init.kind = InitKind::Rand;
    } else if (ik == "zero" && f.size() == 4) {
      a.init.kind = InitKind::Zero;
    } else if (ik == "iota" && f.size() == 4) {
      a.init.kind = InitKind::Iota;
    } else if (ik == "randint" && f.size() == 6) {
      a.init.kind = InitKind::RandInt;
      if (!parse_i64(f[4], a.init.lo) || !parse_i64(f[5], a.init.hi) ||
          a.init.lo >= a.init.hi) {
        err = "bad randint:LO:HI (need integers, LO < HI) in '" + tok + "'";
        return false;
      }
    } else if (ik == "const" && f.size() == 5) {
      a.init.kind = InitKind::Const;
      if (a.elem->is_float) {
        if (!parse_double(f[4], a.init.cval_f)) {
          err = "bad const value in '" + tok + "'";
          return false;
        }
      } else if (!parse_int_bits(f[4], a.init.cval_bits)) {
        err = "bad integer const value in '" + tok + "'";
        return false;
      }
    } else {
      err = "bad INIT in '" + tok + "'";
      return false;
    }
    return true;
  }
  if (k == "ptr") {
    if (f.size() != 2) {
      err = "ptr needs ptr:K+OFF: '" + tok + "'";
      return false;
    }
    a.kind = ArgKind::Ptr;
    std::string s = f[1];
    size_t p = s.find_first_of("+-");
    std::string ks = p == std::string::npos ? s : s.substr(0, p);
    int64_t kv;
    uint64_t off = 0;
    if (!parse_i64(ks, kv) || kv < 0 || kv > 100000 ||
        (p != std::string::npos && !parse_u64(s.substr(p + 1), off))) {
      err = "bad ptr token '" + tok + "'";
      return false;
    }
    a.ref = (int)kv;
    a.off = (p != std::string::npos && s[p] == '-') ? -(int64_t)off : (int64_t)off;
    return true;
  }
  if (f.size() != 2) {
    err = "bad argument token '" + tok + "'";
    return false;
  }
  a.kind = ArgKind::Scalar;
  a.stype = k;
  const std::string &v = f[1];
  if (k == "i32" || k == "u32") {
    uint64_t bits;
    int64_t sv;
    bool ok = parse_int_bits(v, bits);
    if (ok && parse_i64(v, sv)) ok = sv >= INT32_MIN && sv <= (int64_t)UINT32_MAX;
    if (!ok) {
      err = "bad 32-bit integer in '" + tok + "'";
      return false;
    }
    a.size = 4;
    a.bits = bits & 0xffffffffull;
  } else if (k == "i64" || k == "u64") {
    if (!parse_int_bits(v, a.bits)) {
      err = "bad 64-bit integer in '" + tok + "'";
      return false;
    }
    a.size = 8;
  } else if (k == "f32") {
    double d;
    if (!parse_double(v, d)) {
      err = "bad float in '" + tok + "'";
      return false;
    }
    float fl = (float)d;
    uint32_t b;
    memcpy(&b, &fl, 4);
    a.size = 4;
    a.bits = b;
  } else if (k == "f64") {
    double d;
    if (!parse_double(v, d)) {
      err = "bad double in '" + tok + "'";
      return false;
    }
    memcpy(&a.bits, &d, 8);
    a.size = 8;
  } else {
    err = "unknown argument kind '" + k + "' in '" + tok + "'";
    return false;
  }
  return true;
}

// resolve ptr chains: buffer index and total offset for parameter i
bool resolve_ptr(const std::vector<Arg> &args, int i, int &buf, int64_t &off,
                 std::string &err) {
  off = 0;
  int cur = i;
  for (size_t steps = 0; steps <= args.size(); ++steps) {
    const Arg &a = args[(size_t)cur];
    if (a.kind == ArgKind::Buf) {
      buf = cur;
      return true;
    }
    if (a.kind != ArgKind::Ptr) {
      err = strfmt("ptr in parameter %d refers to scalar parameter %d", i, cur);
      return false;
    }
    if (a.ref < 0 || (size_t)a.ref >= args.size()) {
      err = strfmt("ptr in parameter %d refers to parameter %d, which does not exist", i,
                   a.ref);
      return false;
    }
    off += a.off;
    cur = a.ref;
  }
  err = strfmt("ptr in parameter %d: reference cycle", i);
  return false;
}

bool parse_line(const std::string &line, Instance &in, std::string &err) {
  // find " args=" (or leading "args=") and split
  std::string head = line, tail;
  bool have_args = false;
  {
    size_t p = 0;
    for (;;) {
      p = line.find("args=", p);
      if (p == std::string::npos) break;
      if (p == 0 || isspace((unsigned char)line[p - 1])) {
        head = line.substr(0, p);
        tail = line.substr(p + 5);
        have_args = true;
        break;
      }
      p += 5;
    }
  }
  if (!have_args) {
    err = "missing args= field";
    return false;
  }
  bool have[5] = {false, false, false, false, false};
  for (const std::string &f : split_ws(head)) {
    size_t eq = f.find('=');
    if (eq == std::string::npos || eq == 0) {
      err = "field without KEY=: '" + f + "'";
      return false;
    }
    std::string k = f.substr(0, eq), v = f.substr(eq + 1);
    if (k == "ptx") { in.ptx = v; have[0] = true; }
    else if (k == "sym") { in.sym = v; have[1] = true; }
    else if (k == "name") { in.name = v; have[2] = true; }
    else if (k == "grid") { if (!parse_dims(v, in.grid, err)) return false; have[3] = true; }
    else if (k == "block") { if (!parse_dims(v, in.block, err)) return false; have[4] = true; }
    else if (k == "pred") {
      if (v != "idempotent" && v != "not-idempotent" && v != "none") {
        err = "pred must be idempotent, not-idempotent or none, got '" + v + "'";
        return false;
      }
      in.pred = v;
    } else if (k == "class") in.cls = v;
    else if (k == "expect") in.expect = v;
    else if (k == "wr" || k == "rd") {
      if (!(k == "wr" ? in.wr : in.rd).parse(v, err)) {
        err = k + "=: " + err;
        return false;
      }
    }
    else if (k == "smem") {
      uint64_t s;
      if (!parse_u64(v, s) || s > 0x7fffffff) {
        err = "bad smem '" + v + "'";
        return false;
      }
      in.smem = (unsigned)s;
    } else {
      err = "unknown field '" + k + "'";
      return false;
    }
  }
  static const char *names[5] = {"ptx", "sym", "name", "grid", "block"};
  for (int i = 0; i < 5; ++i)
    if (!have[i]) {
      err = std::string("missing ") + names[i] + "= field";
      return false;
    }
  std::vector<std::string> toks = split_ws(tail);
  in.args_text.clear();
  for (size_t i = 0; i < toks.size(); ++i) {
    if (i) in.args_text += ' ';
    in.args_text += toks[i];
    Arg a;
    if (!parse_arg(toks[i], a, err)) {
      err = strfmt("parameter %zu: ", i) + err;
      return false;
    }
    in.args.push_back(a);
  }
  for (size_t i = 0; i < in.args.size(); ++i) {
    if (in.args[i].kind != ArgKind::Ptr) continue;
    int b;
    int64_t off;
    if (!resolve_ptr(in.args, (int)i, b, off, err)) return false;
  }
  return true;
}

bool read_manifest(const std::string &path, std::vector<Instance> &out, std::string &err) {
  FILE *f = fopen(path.c_str(), "r");
  if (!f) {
    err = "cannot open manifest '" + path + "': " + strerror(errno);
    return false;
  }
  std::string dir = dirname_of(path);
  std::string line;
  int lineno = 0;
  char buf[4096];
  bool eof = false;
  while (!eof) {
    line.clear();
    for (;;) {
      if (!fgets(buf, sizeof buf, f)) {
        eof = true;
        break;
      }
      line += buf;
      if (!line.empty() && line.back() == '\n') break;
    }
    if (eof && line.empty()) break;
    ++lineno;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    Instance in;
    in.index = (int)out.size();
    in.line = lineno;
    in.raw = line;
    std::string perr;
    if (!parse_line(line, in, perr)) {
      in.error = strfmt("manifest line %d: ", lineno) + perr;
      in.args.clear();
    }
    if (in.name.empty()) in.name = strfmt("line%d", lineno);
    if (!in.ptx.empty())
      in.ptx_resolved = in.ptx[0] == '/' ? in.ptx : dir + "/" + in.ptx;
    out.push_back(in);
  }
  fclose(f);
  return true;
}

// -------------------------------------------------------------------- compare

struct Diff {
  bool identical = true;
  int buf = -1;        // index into the buffer list
  uint64_t offset = 0;  // first differing byte
  uint8_t a = 0, b = 0;
  uint64_t count = 0;  // number of differing bytes
};

Diff compare_buffers(const std::vector<std::vector<uint8_t>> &x,
                     const std::vector<std::vector<uint8_t>> &y) {
  Diff d;
  for (size_t k = 0; k < x.size() && k < y.size(); ++k) {
    const std::vector<uint8_t> &p = x[k], &q = y[k];
    size_t n = std::min(p.size(), q.size());
    if (p.size() != q.size()) {
      if (d.identical) {
        d.identical = false;
        d.buf = (int)k;
        d.offset = n;
      }
      d.count += (uint64_t)(std::max(p.size(), q.size()) - n);
    }
    if (n == 0 || memcmp(p.data(), q.data(), n) == 0) continue;
    for (size_t i = 0; i < n; ++i) {
      if (p[i] != q[i]) {
        if (d.identical || (d.buf == (int)k && i < d.offset)) {
          d.identical = false;
          d.buf = (int)k;
          d.offset = i;
          d.a = p[i];
          d.b = q[i];
        }
        ++d.count;
      }
    }
  }
  return d;
}

// -------------------------------------------------------------------- results

// Extra runs on I before a read-check failure counts: each must reproduce
// S1, or the kernel is nondeterministic and the check says nothing.
constexpr int kReadRecheckRuns = 3;

struct Result {
  const Instance *in = nullptr;
  std::string observed;  // identical | differs | error | skipped | timeout
  std::string verdict;
  std::string error;
  std::string note;
  int diff_param = -1;
  uint64_t diff_offset = 0;
  uint8_t diff_s1 = 0, diff_s2 = 0;
  uint64_t diff_bytes = 0;
  int64_t changed_first = -1;
  int64_t outside_bytes = -1;  // -1: writes not checked (wr=-), else bytes outside wr
  int outside_param = -1;
  uint64_t outside_offset = 0;
  int64_t read_bad = -1;  // -1: reads not checked, else bytes S1 does not explain
  int read_param = -1;
  uint64_t read_offset = 0;
  uint64_t read_perturbed = 0;  // bytes outside rd changed for the read check
  int deterministic = -1;  // -1 unknown, 0 no, 1 yes
  double ms = 0;
};

struct DeviceInfo {
  bool valid = false;
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  uint64_t total_mem = 0;
  int driver = 0;
};

struct Summary {
  int total = 0, identical = 0, differs = 0;
  int ok = 0, false_idem = 0, missed = 0, nopred = 0, error = 0, skipped = 0, timeout = 0;
  int pred_identical = 0;  // instances with a prediction observed identical
  int write_checked = 0, write_outside = 0;  // write regions checked / violated
  int read_checked = 0, read_outside = 0;    // read regions checked / violated
  int region_failed = 0;  // otherwise passing instances with a write or read outside
  int passed = 0, failed = 0;
  double fn_rate = -1;
};

Summary summarize(const std::vector<Result> &rs) {
  Summary s;
  s.total = (int)rs.size();
  for (const Result &r : rs) {
    if (r.observed == "identical") {
      ++s.identical;
      if (r.in->pred != "none") ++s.pred_identical;
    }
    if (r.observed == "differs") ++s.differs;
    if (r.verdict == "OK") ++s.ok;
    else if (r.verdict == "FALSE-IDEMPOTENT") ++s.false_idem;
    else if (r.verdict == "MISSED") ++s.missed;
    else if (r.verdict == "NO-PREDICTION") ++s.nopred;
    else if (r.verdict == "ERROR") ++s.error;
    else if (r.verdict == "SKIPPED") ++s.skipped;
    else if (r.verdict == "TIMEOUT") ++s.timeout;
    if (r.outside_bytes >= 0) ++s.write_checked;
    if (r.outside_bytes > 0) ++s.write_outside;
    if (r.read_bad >= 0) ++s.read_checked;
    if (r.read_bad > 0) ++s.read_outside;
    // once per instance: a write and a read outside (or a region failure of
    // an instance that already failed) must not be counted twice
    bool passing = r.verdict == "OK" || r.verdict == "MISSED" || r.verdict == "NO-PREDICTION";
    if (passing && (r.outside_bytes > 0 || r.read_bad > 0)) ++s.region_failed;
  }
  s.passed = s.ok + s.missed + s.nopred - s.region_failed;
  s.failed = s.false_idem + s.error + s.timeout + s.region_failed;
  if (s.pred_identical > 0) s.fn_rate = (double)s.missed / s.pred_identical;
  return s;
}

void print_summary(const Summary &s, int not_run) {
  printf("== summary ==\n");
  printf("instances: %d", s.total);
  if (not_run > 0) printf(" (+%d not run)", not_run);
  printf("\n");
  printf("observed: identical %d, differs %d, error %d, skipped %d, timeout %d\n",
         s.identical, s.differs, s.error, s.skipped, s.timeout);
  printf("verdicts: OK %d, FALSE-IDEMPOTENT %d, MISSED %d, NO-PREDICTION %d, ERROR %d, "
         "SKIPPED %d, TIMEOUT %d\n",
         s.ok, s.false_idem, s.missed, s.nopred, s.error, s.skipped, s.timeout);
  if (s.fn_rate >= 0)
    printf("false-negative rate: %d/%d = %.1f%% (MISSED / predicted instances observed "
           "identical)\n",
           s.missed, s.pred_identical, 100.0 * s.fn_rate);
  else
    printf("false-negative rate: n/a (no predicted instance observed identical)\n");
  printf("write regions: %d checked, %d with changed bytes outside (failures)\n",
         s.write_checked, s.write_outside);
  printf("read regions: %d checked, %d with a result depending on bytes outside (failures)\n",
         s.read_checked, s.read_outside);
  printf("%d passed, %d failed\n", s.passed, s.failed);
  fflush(stdout);
}

std::string result_json(const Result &r) {
  const Instance &in = *r.in;
  std::string o = "    {";
  o += strfmt("\"index\": %d, \"line\": %d, ", in.index, in.line);
  o += "\"name\": " + json_str(in.name) + ", ";
  o += "\"ptx\": " + json_str(in.ptx) + ", ";
  o += "\"symbol\": " + json_str(in.sym) + ", ";
  o += strfmt("\"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"smem\": %u, ",
              in.grid[0], in.grid[1], in.grid[2], in.block[0], in.block[1], in.block[2],
              in.smem);
  o += "\"args\": " + json_str(in.args_text) + ", ";
  o += "\"prediction\": " + json_str(in.pred) + ", ";
  o += "\"class\": " + json_str(in.cls) + ", ";
  o += "\"expect\": " + (in.expect.empty() ? std::string("null") : json_str(in.expect)) + ", ";
  o += "\"observed\": " + json_str(r.observed) + ", ";
  if (r.diff_param >= 0)
    o += strfmt("\"first_diff\": {\"param\": %d, \"offset\": %" PRIu64
                ", \"s1\": %u, \"s2\": %u}, ",
                r.diff_param, r.diff_offset, r.diff_s1, r.diff_s2);
  else
    o += "\"first_diff\": null, ";
  o += strfmt("\"diff_bytes\": %" PRIu64 ", ", r.diff_bytes);
  o += r.changed_first >= 0 ? strfmt("\"changed_by_first_launch\": %" PRId64 ", ",
                                     r.changed_first)
                            : std::string("\"changed_by_first_launch\": null, ");
  if (r.outside_bytes < 0)
    o += "\"write_check\": null, ";
  else if (r.outside_bytes == 0)
    o += "\"write_check\": {\"outside_bytes\": 0, \"first\": null}, ";
  else
    o += strfmt("\"write_check\": {\"outside_bytes\": %" PRId64 ", \"first\": {\"param\": %d, "
                "\"offset\": %" PRIu64 "}}, ",
                r.outside_bytes, r.outside_param, r.outside_offset);
  if (r.read_bad < 0)
    o += "\"read_check\": null, ";
  else
    o += strfmt("\"read_check\": {\"bad_bytes\": %" PRId64 ", \"perturbed_bytes\": %" PRIu64
                ", \"first\": %s}, ",
                r.read_bad, r.read_perturbed,
                r.read_bad > 0 ? strfmt("{\"param\": %d, \"offset\": %" PRIu64 "}",
                                        r.read_param, r.read_offset).c_str()
                               : "null");
  o += std::string("\"deterministic\": ") +
       (r.deterministic < 0 ? "null" : r.deterministic ? "true" : "false") + ", ";
  o += "\"verdict\": " + json_str(r.verdict) + ", ";
  o += "\"error\": " + (r.error.empty() ? std::string("null") : json_str(r.error)) + ", ";
  o += "\"note\": " + json_str(r.note) + ", ";
  o += strfmt("\"ms\": %.3f}", r.ms);
  return o;
}

// supervisor state (the supervisor process never calls a cu* function)
std::vector<Result> g_results;
std::vector<Instance> g_instances;
std::string g_json_path, g_manifest_path, g_command, g_date;
DeviceInfo g_dev;

bool write_json(bool complete, int not_run) {
  if (g_json_path.empty()) return true;
  std::string tmp = g_json_path + ".tmp";
  FILE *f = fopen(tmp.c_str(), "w");
  if (!f) {
    fprintf(stderr, "run_twice: cannot write %s: %s\n", tmp.c_str(), strerror(errno));
    return false;
  }
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  Summary s = summarize(g_results);
  std::string o = "{\n  \"schema\": 1,\n  \"tool\": \"run_twice\",\n";
  o += "  \"manifest\": " + json_str(g_manifest_path) + ",\n";
  o += "  \"command\": " + json_str(g_command) + ",\n";
  o += "  \"host\": " + json_str(host) + ",\n";
  o += "  \"date\": " + json_str(g_date) + ",\n";
  if (g_dev.valid)
    o += strfmt("  \"device\": {\"ordinal\": %d, \"name\": %s, \"cc\": \"%d.%d\", "
                "\"total_mem\": %" PRIu64 ", \"driver\": %d},\n",
                g_dev.ordinal, json_str(g_dev.name).c_str(), g_dev.cc_major,
                g_dev.cc_minor, g_dev.total_mem, g_dev.driver);
  else
    o += "  \"device\": null,\n";
  o += std::string("  \"complete\": ") + (complete ? "true" : "false") + ",\n";
  o += "  \"instances\": [\n";
  for (size_t i = 0; i < g_results.size(); ++i) {
    o += result_json(g_results[i]);
    o += i + 1 < g_results.size() ? ",\n" : "\n";
  }
  o += "  ],\n";
  o += strfmt("  \"summary\": {\"instances\": %d, \"not_run\": %d, \"identical\": %d, "
              "\"differs\": %d, \"ok\": %d, \"false_idempotent\": %d, \"missed\": %d, "
              "\"no_prediction\": %d, \"error\": %d, \"skipped\": %d, \"timeout\": %d, "
              "\"predicted_identical\": %d, \"false_negative_rate\": %s, "
              "\"write_checked\": %d, \"write_outside\": %d, "
              "\"read_checked\": %d, \"read_outside\": %d, "
              "\"passed\": %d, \"failed\": %d}\n}\n",
              s.total, not_run, s.identical, s.differs, s.ok, s.false_idem, s.missed,
              s.nopred, s.error, s.skipped, s.timeout, s.pred_identical,
              s.fn_rate >= 0 ? strfmt("%.6f", s.fn_rate).c_str() : "null", s.write_checked,
              s.write_outside, s.read_checked, s.read_outside, s.passed, s.failed);
  bool ok = fwrite(o.data(), 1, o.size(), f) == o.size();
  ok = (fclose(f) == 0) && ok;
  if (ok) ok = rename(tmp.c_str(), g_json_path.c_str()) == 0;
  if (!ok) fprintf(stderr, "run_twice: failed writing %s\n", g_json_path.c_str());
  return ok;
}

std::string verdict_for(const std::string &pred, const std::string &observed) {
  if (observed != "identical" && observed != "differs") return "ERROR";
  if (pred == "none") return "NO-PREDICTION";
  if (pred == "idempotent") return observed == "identical" ? "OK" : "FALSE-IDEMPOTENT";
  return observed == "differs" ? "OK" : "MISSED";
}

void print_result(const Result &r, size_t n_total) {
  const Instance &in = *r.in;
  std::string obs = r.observed;
  if (r.observed == "differs")
    obs += strfmt(" param=%d offset=%" PRIu64 " (0x%02x!=0x%02x, %" PRIu64 " bytes)",
                  r.diff_param, r.diff_offset, r.diff_s1, r.diff_s2, r.diff_bytes);
  printf("[%3d/%zu] %-16s %s  pred=%s class=%s observed=%s", in.index + 1, n_total,
         r.verdict.c_str(), in.name.c_str(), in.pred.c_str(), in.cls.c_str(), obs.c_str());
  if (!r.error.empty()) printf("  error: %s", r.error.c_str());
  if (r.outside_bytes > 0)
    printf("  WRITE-OUTSIDE-REGION param=%d offset=%" PRIu64 " (%" PRId64 " bytes)",
           r.outside_param, r.outside_offset, r.outside_bytes);
  if (r.read_bad > 0)
    printf("  READ-OUTSIDE-REGION param=%d offset=%" PRIu64 " (%" PRId64 " bytes)",
           r.read_param, r.read_offset, r.read_bad);
  if (!r.note.empty()) printf("  [%s]", r.note.c_str());
  printf("  (%.1f ms)\n", r.ms);
  fflush(stdout);
}

// ------------------------------------------------------- worker <-> supervisor
//
// The supervisor (main process) never touches CUDA.  It forks a worker that
// initialises CUDA and runs instances from a start index, reporting over a
// pipe, one message per line (fields separated by \x1f):
//   D name cc_major cc_minor total_mem driver   device information
//   S i                                          instance i started
//   R i observed verdict error note diff_param diff_offset s1 s2 diff_bytes
//     changed_first deterministic ms outside_bytes outside_param outside_offset
//     read_bad read_param read_offset read_perturbed
//                                                instance i finished
//   F message                                    fatal (CUDA init failed)
// Worker exit status: 0 done, 5 the context could not be re-created after a
// sticky error (the supervisor starts a fresh worker at the next instance:
// terminating the process is the only sure way to clear a sticky error),
// 6 fatal.  The supervisor's watchdog kills a worker whose instance runs
// longer than --timeout and stops.

double g_timeout_s = 10.0;

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string wire_clean(const std::string &s) {
  std::string o = s;
  for (char &c : o)
    if (c == '\n' || c == '\r' || c == '\x1f') c = ' ';
  return o;
}

std::string encode_result(int index, const Result &r) {
  const char US = '\x1f';
  std::string o = "R";
  o += US + std::to_string(index);
  for (const std::string *f : {&r.observed, &r.verdict, &r.error, &r.note})
    o += US + wire_clean(*f);
  o += strfmt("%c%d%c%" PRIu64 "%c%u%c%u%c%" PRIu64 "%c%" PRId64 "%c%d%c%.3f", US,
              r.diff_param, US, r.diff_offset, US, r.diff_s1, US, r.diff_s2, US,
              r.diff_bytes, US, r.changed_first, US, r.deterministic, US, r.ms);
  o += strfmt("%c%" PRId64 "%c%d%c%" PRIu64, US, r.outside_bytes, US, r.outside_param, US,
              r.outside_offset);
  o += strfmt("%c%" PRId64 "%c%d%c%" PRIu64 "%c%" PRIu64, US, r.read_bad, US, r.read_param, US,
              r.read_offset, US, r.read_perturbed);
  return o + "\n";
}

bool decode_result(const std::vector<std::string> &f, Result &r, int &index) {
  if (f.size() != 21 || f[0] != "R") return false;
  index = atoi(f[1].c_str());
  r.observed = f[2];
  r.verdict = f[3];
  r.error = f[4];
  r.note = f[5];
  r.diff_param = atoi(f[6].c_str());
  r.diff_offset = strtoull(f[7].c_str(), nullptr, 10);
  r.diff_s1 = (uint8_t)atoi(f[8].c_str());
  r.diff_s2 = (uint8_t)atoi(f[9].c_str());
  r.diff_bytes = strtoull(f[10].c_str(), nullptr, 10);
  r.changed_first = strtoll(f[11].c_str(), nullptr, 10);
  r.deterministic = atoi(f[12].c_str());
  r.ms = atof(f[13].c_str());
  r.outside_bytes = strtoll(f[14].c_str(), nullptr, 10);
  r.outside_param = atoi(f[15].c_str());
  r.outside_offset = strtoull(f[16].c_str(), nullptr, 10);
  r.read_bad = strtoll(f[17].c_str(), nullptr, 10);
  r.read_param = atoi(f[18].c_str());
  r.read_offset = strtoull(f[19].c_str(), nullptr, 10);
  r.read_perturbed = strtoull(f[20].c_str(), nullptr, 10);
  return true;
}

void write_all(int fd, const std::string &s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = write(fd, s.data() + off, s.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      _exit(7);  // supervisor gone
    }
    off += (size_t)n;
  }
}

// ----------------------------------------------------------------- CUDA layer

std::string cu_err(CUresult r) {
  const char *n = nullptr, *s = nullptr;
  cuGetErrorName(r, &n);
  cuGetErrorString(r, &s);
  if (!n && (int)r == 34) n = "CUDA_ERROR_STUB_LIBRARY";
  return strfmt("%s (%d: %s)", n ? n : "CUresult", (int)r,
                s ? s : ((int)r == 34 ? "stub libcuda, not a real driver" : "?"));
}

bool is_sticky(CUresult r) {
  switch (r) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_UNKNOWN:
    return true;
  default:
    return false;
  }
}

struct ModuleEntry {
  CUmodule mod = nullptr;
  std::string error;
};

struct Runner {
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  std::map<std::string, ModuleEntry> modules;
  bool check_determinism = true;

  bool create_context(std::string &err) {
    CUresult r;
#if CUDA_VERSION >= 13000
    r = cuCtxCreate(&ctx, nullptr, 0, dev);
#else
    r = cuCtxCreate(&ctx, 0, dev);
#endif
    if (r != CUDA_SUCCESS) {
      ctx = nullptr;
      err = "cuCtxCreate: " + cu_err(r);
      return false;
    }
    return true;
  }

  // After a sticky error: destroy our context (never reset the device) and
  // create a fresh one.  Modules and allocations die with the old context.
  bool recreate_context(std::string &err) {
    modules.clear();
    if (ctx) {
      CUresult r = cuCtxDestroy(ctx);
      if (r != CUDA_SUCCESS)
        fprintf(stderr, "run_twice: cuCtxDestroy after fault: %s (continuing)\n",
                cu_err(r).c_str());
      ctx = nullptr;
    }
    return create_context(err);
  }

  // true when the context still works
  bool probe_context() {
    if (cuCtxSynchronize() != CUDA_SUCCESS) return false;
    CUdeviceptr p = 0;
    if (cuMemAlloc(&p, 256) != CUDA_SUCCESS) return false;
    return cuMemFree(p) == CUDA_SUCCESS;
  }

  ModuleEntry &module_for(const Instance &in) {
    auto it = modules.find(in.ptx_resolved);
    if (it != modules.end()) return it->second;
    ModuleEntry &e = modules[in.ptx_resolved];
    FILE *f = fopen(in.ptx_resolved.c_str(), "rb");
    if (!f) {
      e.error = "cannot open PTX '" + in.ptx_resolved + "': " + strerror(errno);
      return e;
    }
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    fclose(f);
    static char log[16384], info[4096];
    log[0] = info[0] = 0;
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)sizeof log, info,
                    (void *)(uintptr_t)sizeof info};
    CUresult r = cuModuleLoadDataEx(&e.mod, text.c_str(), 4, opts, vals);
    if (r != CUDA_SUCCESS) {
      e.mod = nullptr;
      std::string l = log;
      while (!l.empty() && (l.back() == '\n' || l.back() == ' ')) l.pop_back();
      for (char &c : l)
        if (c == '\n') c = ' ';
      if (l.size() > 400) l = l.substr(0, 400) + "...";
      e.error = "cuModuleLoadDataEx(" + in.ptx + "): " + cu_err(r) +
                (l.empty() ? std::string() : " JIT log: " + l);
    }
    return e;
  }

  // Run one instance.  `sticky` is set when the context must be re-created.
  void run(const Instance &in, Result &res, bool &sticky) {
    sticky = false;
    std::vector<CUdeviceptr> dptr(in.args.size(), 0);
    std::vector<int> bufparams;
    std::vector<uint64_t> bytes;
    std::string where;
    CUresult last = CUDA_SUCCESS;

    auto fail = [&](const std::string &msg) {
      res.observed = "error";
      res.error = msg;
    };
    auto ck = [&](CUresult r, const char *what) -> bool {
      if (r == CUDA_SUCCESS) return true;
      last = r;
      fail(std::string(what) + ": " + cu_err(r));
      return false;
    };
    auto cleanup = [&]() {
      for (CUdeviceptr p : dptr)
        if (p) cuMemFree(p);
    };

    ModuleEntry &me = module_for(in);
    if (!me.mod) {
      fail(me.error);
      return;
    }
    CUfunction fn = nullptr;
    if (!ck(cuModuleGetFunction(&fn, me.mod, in.sym.c_str()), "cuModuleGetFunction")) {
      res.error += " (symbol " + in.sym + ")";
      return;
    }

    // parameter layout check (cuFuncGetParamInfo, CUDA >= 12.4)
    {
      size_t off = 0, sz = 0;
      CUresult r0 = cuFuncGetParamInfo(fn, 0, &off, &sz);
      if (r0 == CUDA_SUCCESS || r0 == CUDA_ERROR_INVALID_VALUE) {
        std::vector<size_t> sizes;
        for (size_t i = 0; i < 4096; ++i) {
          if (cuFuncGetParamInfo(fn, i, &off, &sz) != CUDA_SUCCESS) break;
          sizes.push_back(sz);
        }
        if (sizes.size() != in.args.size()) {
          fail(strfmt("kernel has %zu parameters, manifest gives %zu", sizes.size(),
                      in.args.size()));
          return;
        }
        for (size_t i = 0; i < sizes.size(); ++i) {
          size_t want = in.args[i].kind == ArgKind::Scalar ? in.args[i].size : 8;
          if (sizes[i] != want) {
            fail(strfmt("parameter %zu is %zu bytes in the kernel, token '%s' gives %zu", i,
                        sizes[i], in.args[i].tok.c_str(), want));
            return;
          }
        }
      }
    }

    // host buffers: input I
    std::vector<std::vector<uint8_t>> I, S1, S2;
    uint64_t need = 0;
    for (size_t i = 0; i < in.args.size(); ++i) {
      const Arg &a = in.args[i];
      if (a.kind != ArgKind::Buf) continue;
      uint64_t b = a.count * a.elem->size;
      bufparams.push_back((int)i);
      bytes.push_back(b);
      need += ((b + 0xfffff) & ~0xfffffull) + (1u << 20);  // allocation granularity slack
    }
    size_t free_b = 0, total_b = 0;
    if (!ck(cuMemGetInfo(&free_b, &total_b), "cuMemGetInfo")) return;
    uint64_t margin = std::max<uint64_t>(256ull << 20, total_b / 50);
    if (need + margin > free_b) {
      res.observed = "skipped";
      res.verdict = "SKIPPED";
      res.note = strfmt("needs %" PRIu64 " MiB of device memory, %zu MiB free", need >> 20,
                        free_b >> 20);
      return;
    }
    // at most 4 host copies are live at once: I, S1, S2 and the determinism
    // run's; S2 is released before the read check adds I2 and S3
    uint64_t host_need = 0;
    for (uint64_t b : bytes) host_need += b;
    long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0 && host_need * 4 + (256ull << 20) > (uint64_t)pages * psz) {
      res.observed = "skipped";
      res.verdict = "SKIPPED";
      res.note = strfmt("needs %" PRIu64 " MiB of host memory (4 copies), too little free",
                        (host_need * 4) >> 20);
      return;
    }
    try {
      I.resize(bufparams.size());
      for (size_t k = 0; k < bufparams.size(); ++k) {
        const Arg &a = in.args[(size_t)bufparams[k]];
        fill_buffer(I[k], *a.elem, a.count, a.init, buffer_seed(in.name, bufparams[k]));
      }
    } catch (const std::bad_alloc &) {
      res.observed = "skipped";
      res.verdict = "SKIPPED";
      res.note = "host allocation failed";
      return;
    }

    for (size_t k = 0; k < bufparams.size(); ++k) {
      CUdeviceptr p = 0;
      if (!ck(cuMemAlloc(&p, std::max<uint64_t>(bytes[k], 1)), "cuMemAlloc")) {
        cleanup();
        if (last == CUDA_ERROR_OUT_OF_MEMORY) {
          res.observed = "skipped";
          res.verdict = "SKIPPED";
          res.note = res.error;
          res.error.clear();
        }
        return;
      }
      dptr[(size_t)bufparams[k]] = p;
    }

    // kernel parameters
    std::vector<uint64_t> store(in.args.size(), 0);
    std::vector<void *> params(in.args.size(), nullptr);
    for (size_t i = 0; i < in.args.size(); ++i) {
      const Arg &a = in.args[i];
      if (a.kind == ArgKind::Buf) {
        store[i] = (uint64_t)dptr[i];
      } else if (a.kind == ArgKind::Ptr) {
        int b = -1;
        int64_t off = 0;
        std::string e;
        resolve_ptr(in.args, (int)i, b, off, e);  // validated at parse time
        store[i] = (uint64_t)dptr[(size_t)b] + (uint64_t)off;
      } else {
        store[i] = a.bits;  // little endian: low bytes first
      }
      params[i] = &store[i];
    }

    auto upload = [&](const std::vector<std::vector<uint8_t>> &src) -> bool {
      for (size_t k = 0; k < bufparams.size(); ++k)
        if (bytes[k] &&
            !ck(cuMemcpyHtoD(dptr[(size_t)bufparams[k]], src[k].data(), bytes[k]),
                "cuMemcpyHtoD"))
          return false;
      return ck(cuCtxSynchronize(), "cuCtxSynchronize (after upload)");
    };
    auto download = [&](std::vector<std::vector<uint8_t>> &dst) -> bool {
      dst.resize(bufparams.size());
      for (size_t k = 0; k < bufparams.size(); ++k) {
        dst[k].resize(bytes[k]);
        if (bytes[k] && !ck(cuMemcpyDtoH(dst[k].data(), dptr[(size_t)bufparams[k]], bytes[k]),
                            "cuMemcpyDtoH"))
          return false;
      }
      return true;
    };
    auto launch = [&](const char *which) -> bool {
      void **pp = params.empty() ? nullptr : params.data();
      if (!ck(cuLaunchKernel(fn, in.grid[0], in.grid[1], in.grid[2], in.block[0],
                             in.block[1], in.block[2], in.smem, nullptr, pp, nullptr),
              strfmt("cuLaunchKernel (%s)", which).c_str()))
        return false;
      return ck(cuCtxSynchronize(), strfmt("cuCtxSynchronize (%s)", which).c_str());
    };

    bool ok = upload(I) && launch("launch 1") && download(S1) && launch("launch 2") &&
              download(S2);
    if (ok) {
      Diff ch = compare_buffers(I, S1);
      res.changed_first = (int64_t)ch.count;
      if (in.wr.checked) {
        OffendingBytes wo = bytes_outside(in.wr, bufparams, I, S1);
        res.outside_bytes = (int64_t)wo.bytes;
        res.outside_param = wo.param;
        res.outside_offset = wo.offset;
      }
      Diff d = compare_buffers(S1, S2);
      res.observed = d.identical ? "identical" : "differs";
      if (!d.identical) {
        res.diff_param = bufparams[(size_t)d.buf];
        res.diff_offset = d.offset;
        res.diff_s1 = d.a;
        res.diff_s2 = d.b;
        res.diff_bytes = d.count;
      }
      if (ch.identical) res.note = "first launch changed no byte";
      if (check_determinism) {
        std::vector<std::vector<uint8_t>> S1b;
        std::string saved_err = res.error;
        if (upload(I) && launch("determinism launch") && download(S1b)) {
          Diff dd = compare_buffers(S1, S1b);
          res.deterministic = dd.identical ? 1 : 0;
          if (!dd.identical) {
            if (!res.note.empty()) res.note += "; ";
            res.note += strfmt("NONDETERMINISTIC: a second run on I differs from S1 at "
                               "param %d offset %" PRIu64,
                               bufparams[(size_t)dd.buf], dd.offset);
          }
        } else {
          // S1/S2 were observed; only the extra launch failed: keep the
          // observation, report the failure as a note (a sticky fault is
          // caught by the probe below and the context is re-created)
          if (!res.note.empty()) res.note += "; ";
          res.note += "determinism launch failed: " + res.error;
          res.error = saved_err;
          res.observed = d.identical ? "identical" : "differs";
        }
      }
      // Read check (byte_ranges.h).  Only for a kernel whose re-run on I
      // reproduced S1: otherwise a difference proves nothing about reads.
      if (in.rd.checked && res.deterministic == 0) {
        if (!res.note.empty()) res.note += "; ";
        res.note += "read check skipped (nondeterministic)";
      }
      if (in.rd.checked && res.deterministic == 1) {
        std::vector<std::vector<uint8_t>>().swap(S2);  // keeps the peak at 4 host copies
        std::vector<std::vector<uint8_t>> I2, S3;
        std::string saved_err = res.error, problem;
        try {
          I2 = I;
          uint64_t perturbed = perturb_outside(in.rd, bufparams, I2);
          if (perturbed == 0) {
            res.read_bad = 0;  // I2 == I: the determinism run already was this run
          } else if (upload(I2) && launch("read-check launch") && download(S3)) {
            OffendingBytes rb = read_dependence(bufparams, I, S1, I2, S3);
            res.read_bad = (int64_t)rb.bytes;
            res.read_param = rb.param;
            res.read_offset = rb.offset;
            res.read_perturbed = perturbed;
            if (rb.bytes > 0) {
              // A race between CTAs (a plain read of what other threads
              // atomically lower) can reproduce S1 once and not the next
              // time: before calling the read region too small, run I again
              // a few times. A real miss is deterministic; a kernel that
              // now differs on I proves nothing about its reads.
              std::vector<std::vector<uint8_t>>().swap(I2);
              std::vector<std::vector<uint8_t>>().swap(S3);  // peak stays at 4 copies
              for (int k = 0; k < kReadRecheckRuns && res.deterministic == 1; ++k) {
                std::vector<std::vector<uint8_t>> S1c;
                if (!(upload(I) && launch("read re-check launch") && download(S1c))) {
                  problem = "read re-check launch failed: " + res.error;
                  break;
                }
                Diff dc = compare_buffers(S1, S1c);
                if (!dc.identical) {
                  res.deterministic = 0;
                  res.read_bad = -1;
                  if (!res.note.empty()) res.note += "; ";
                  res.note += strfmt("NONDETERMINISTIC: re-run %d on I differs from S1 at param "
                                     "%d offset %" PRIu64 "; read check inconclusive",
                                     k + 2, bufparams[(size_t)dc.buf], dc.offset);
                }
              }
            }
          } else {
            problem = "read-check launch failed: " + res.error;
          }
        } catch (const std::bad_alloc &) {
          problem = "read check skipped: host allocation failed";
        }
        if (!problem.empty()) {
          // as for the determinism launch: keep the observation (a sticky
          // fault is caught by the probe below)
          if (!res.note.empty()) res.note += "; ";
          res.note += problem;
          res.error = saved_err;
          res.observed = d.identical ? "identical" : "differs";
        }
      }
    }
    if (res.observed == "error" && last != CUDA_SUCCESS) {
      sticky = is_sticky(last) || !probe_context();
      if (sticky) return;  // allocations die with the context
    }
    cleanup();
    if (!sticky && !probe_context()) sticky = true;
  }
};

// ------------------------------------------------------------------ self test

int g_fails = 0;
#define EXPECT(c)                                                                  \
  do {                                                                             \
    if (!(c)) {                                                                    \
      ++g_fails;                                                                   \
      printf("self-test FAILED line %d: %s\n", __LINE__, #c);                      \
    }                                                                              \
  } while (0)

template <class T> T elem_at(const std::vector<uint8_t> &b, size_t i) {
  T v;
  memcpy(&v, b.data() + i * sizeof(T), sizeof(T));
  return v;
}

int self_test() {
  // parser
  {
    Instance in;
    std::string err;
    bool ok = parse_line("ptx=a.ptx sym=_Z1fPfi name=x.cu:f#0 grid=4 block=32,2 pred=idempotent "
                         "class=conditional expect=conditional smem=128 args=buf:f32:10:rand "
                         "ptr:0+8 i32:-3 u32:4294967295 i64:-1 u64:18446744073709551615 "
                         "f32:1.5 f64:-2.25",
                         in, err);
    EXPECT(ok);
    EXPECT(in.grid[0] == 4 && in.grid[1] == 1 && in.grid[2] == 1);
    EXPECT(in.block[0] == 32 && in.block[1] == 2 && in.block[2] == 1);
    EXPECT(in.smem == 128 && in.pred == "idempotent" && in.cls == "conditional");
    EXPECT(in.args.size() == 8);
    if (in.args.size() == 8) {
      EXPECT(in.args[0].kind == ArgKind::Buf && in.args[0].count == 10);
      EXPECT(in.args[1].kind == ArgKind::Ptr && in.args[1].ref == 0 && in.args[1].off == 8);
      EXPECT(in.args[2].size == 4 && in.args[2].bits == 0xfffffffdull);
      EXPECT(in.args[3].size == 4 && in.args[3].bits == 0xffffffffull);
      EXPECT(in.args[4].size == 8 && in.args[4].bits == ~0ull);
      EXPECT(in.args[5].size == 8 && in.args[5].bits == ~0ull);
      float f;
      uint32_t fb = (uint32_t)in.args[6].bits;
      memcpy(&f, &fb, 4);
      EXPECT(in.args[6].size == 4 && f == 1.5f);
      double d;
      memcpy(&d, &in.args[7].bits, 8);
      EXPECT(in.args[7].size == 8 && d == -2.25);
    }
    Instance e0;
    EXPECT(parse_line("ptx=a sym=b name=c grid=1 block=1 pred=idempotent args=", e0, err));
    EXPECT(e0.args.empty());
    const char *bad[] = {
        "ptx=a sym=b name=c grid=1 block=1 pred=maybe args=",
        "ptx=a sym=b name=c grid=0 block=1 args=",
        "ptx=a sym=b name=c grid=1 block=1",
        "sym=b name=c grid=1 block=1 args=",
        "ptx=a sym=b name=c grid=1 block=1 args=buf:f16:4:zero",
        "ptx=a sym=b name=c grid=1 block=1 args=buf:f32:4:randint:5:5",
        "ptx=a sym=b name=c grid=1 block=1 args=buf:f32:4:bogus",
        "ptx=a sym=b name=c grid=1 block=1 args=i32:1 ptr:0+0",
        "ptx=a sym=b name=c grid=1 block=1 args=ptr:1 ptr:0",
        "ptx=a sym=b name=c grid=1 block=1 args=ptr:5",
        "ptx=a sym=b name=c grid=1 block=1 args=i32:4294967296",
        "ptx=a sym=b name=c grid=1 block=1 args=i32:x",
        "ptx=a sym=b name=c grid=1 block=1 args=buf:i32:4:const:1.5",
        "ptx=a sym=b name=c grid=1 block=1 bogus=1 args=",
    };
    for (const char *b : bad) {
      Instance x;
      std::string e;
      bool r = parse_line(b, x, e);
      EXPECT(!r);
      if (r) printf("  accepted: %s\n", b);
    }
    Instance ch;
    EXPECT(parse_line("ptx=a sym=b name=c grid=1 block=1 args=buf:u8:64:zero ptr:0+16 ptr:1-4",
                      ch, err));
    int b = -1;
    int64_t off = 0;
    EXPECT(resolve_ptr(ch.args, 2, b, off, err) && b == 0 && off == 12);
  }
  // init
  {
    std::vector<uint8_t> v;
    Init in;
    in.kind = InitKind::Iota;
    fill_buffer(v, *elem_by_name("i32"), 100, in, 1);
    EXPECT(v.size() == 400 && elem_at<int32_t>(v, 0) == 0 && elem_at<int32_t>(v, 99) == 99);
    fill_buffer(v, *elem_by_name("f64"), 10, in, 1);
    EXPECT(elem_at<double>(v, 7) == 7.0);
    fill_buffer(v, *elem_by_name("u8"), 300, in, 1);
    EXPECT(v[299] == (uint8_t)299);
    in.kind = InitKind::Const;
    in.cval_f = -0.5;
    fill_buffer(v, *elem_by_name("f32"), 5, in, 1);
    EXPECT(elem_at<float>(v, 4) == -0.5f);
    in.cval_bits = (uint64_t)-7;
    fill_buffer(v, *elem_by_name("i64"), 5, in, 1);
    EXPECT(elem_at<int64_t>(v, 3) == -7);
    in.kind = InitKind::Zero;
    fill_buffer(v, *elem_by_name("u64"), 5, in, 1);
    EXPECT(v.size() == 40 && std::all_of(v.begin(), v.end(), [](uint8_t x) { return !x; }));
    in.kind = InitKind::Rand;
    fill_buffer(v, *elem_by_name("f32"), 10000, in, 42);
    bool inrange = true, neg = false, pos = false;
    for (size_t i = 0; i < 10000; ++i) {
      float f = elem_at<float>(v, i);
      if (!(f >= -1.0f && f < 1.0f)) inrange = false;
      neg |= f < -0.5f;
      pos |= f > 0.5f;
    }
    EXPECT(inrange && neg && pos);
    std::vector<uint8_t> w;
    fill_buffer(w, *elem_by_name("f32"), 10000, in, 42);
    EXPECT(v == w);  // deterministic
    fill_buffer(w, *elem_by_name("f32"), 10000, in, 43);
    EXPECT(v != w);  // seed matters
    fill_buffer(v, *elem_by_name("f64"), 10000, in, 42);
    inrange = true;
    for (size_t i = 0; i < 10000; ++i) {
      double d = elem_at<double>(v, i);
      if (!(d >= -1.0 && d < 1.0)) inrange = false;
    }
    EXPECT(inrange);
    fill_buffer(v, *elem_by_name("i32"), 10000, in, 42);
    int mn = 1000, mx = -1;
    for (size_t i = 0; i < 10000; ++i) {
      mn = std::min(mn, elem_at<int32_t>(v, i));
      mx = std::max(mx, elem_at<int32_t>(v, i));
    }
    EXPECT(mn == 0 && mx == 99);
    in.kind = InitKind::RandInt;
    in.lo = -5;
    in.hi = 3;
    fill_buffer(v, *elem_by_name("i64"), 10000, in, 9);
    int64_t lo = 100, hi = -100;
    for (size_t i = 0; i < 10000; ++i) {
      lo = std::min(lo, elem_at<int64_t>(v, i));
      hi = std::max(hi, elem_at<int64_t>(v, i));
    }
    EXPECT(lo == -5 && hi == 2);
    fill_buffer(v, *elem_by_name("f32"), 1000, in, 9);
    bool integral = true;
    for (size_t i = 0; i < 1000; ++i) {
      float f = elem_at<float>(v, i);
      if (f != std::floor(f) || f < -5 || f >= 3) integral = false;
    }
    EXPECT(integral);
    EXPECT(buffer_seed("a", 0) != buffer_seed("a", 1));
    EXPECT(buffer_seed("a", 0) != buffer_seed("b", 0));
    EXPECT(buffer_seed("a", 0) == buffer_seed("a", 0));
  }
  // compare
  {
    std::vector<std::vector<uint8_t>> a = {std::vector<uint8_t>(16, 1),
                                           std::vector<uint8_t>(8, 2), {}};
    std::vector<std::vector<uint8_t>> b = a;
    Diff d = compare_buffers(a, b);
    EXPECT(d.identical && d.count == 0 && d.buf == -1);
    b[1][5] = 9;
    b[1][7] = 9;
    d = compare_buffers(a, b);
    EXPECT(!d.identical && d.buf == 1 && d.offset == 5 && d.a == 2 && d.b == 9 &&
           d.count == 2);
    b[0][15] = 0;
    d = compare_buffers(a, b);
    EXPECT(!d.identical && d.buf == 0 && d.offset == 15 && d.count == 3);
  }
  // verdicts
  {
    EXPECT(verdict_for("idempotent", "identical") == "OK");
    EXPECT(verdict_for("idempotent", "differs") == "FALSE-IDEMPOTENT");
    EXPECT(verdict_for("not-idempotent", "differs") == "OK");
    EXPECT(verdict_for("not-idempotent", "identical") == "MISSED");
    EXPECT(verdict_for("none", "differs") == "NO-PREDICTION");
    EXPECT(verdict_for("idempotent", "error") == "ERROR");
  }
  // regions in manifest lines (the regions themselves: byte_ranges_self_test)
  {
    std::string err;
    Instance a, b, c;
    EXPECT(parse_line("ptx=a sym=b name=c grid=1 block=1 wr=1:0-4 rd=0:0-8,1:2-3 args=", a, err));
    EXPECT(a.wr.checked && a.rd.checked && a.rd.allows(1, 2) && !a.rd.allows(1, 3));
    EXPECT(!parse_line("ptx=a sym=b name=c grid=1 block=1 rd=1:x args=", b, err) &&
           err.find("rd=") == 0);
    EXPECT(parse_line("ptx=a sym=b name=c grid=1 block=1 args=", c, err) && !c.rd.checked);
  }
  g_fails += byte_ranges_self_test();
  // results: the trip through the pipe, and a region failure counted once
  {
    Instance in;
    Result r;
    r.in = &in;
    r.observed = "identical";
    r.verdict = "OK";
    r.outside_bytes = 7;
    r.outside_param = 3;
    r.outside_offset = 40;
    r.read_bad = 5;
    r.read_param = 2;
    r.read_offset = 12;
    r.read_perturbed = 1234;
    std::string line = encode_result(5, r);
    line.pop_back();
    Result back;
    int idx = -1;
    EXPECT(decode_result(split(line, '\x1f'), back, idx) && idx == 5);
    EXPECT(back.outside_bytes == 7 && back.outside_param == 3 && back.outside_offset == 40);
    EXPECT(back.read_bad == 5 && back.read_param == 2 && back.read_offset == 12 &&
           back.read_perturbed == 1234);
    Result fi = r, missed = r;
    fi.verdict = "FALSE-IDEMPOTENT";  // already failed: its read failure adds nothing
    fi.outside_bytes = -1;
    missed.verdict = "MISSED";
    missed.outside_bytes = 0;
    missed.read_bad = -1;
    Summary s = summarize({r, fi, missed});
    EXPECT(s.write_checked == 2 && s.write_outside == 1 && s.read_checked == 2 &&
           s.read_outside == 2);
    EXPECT(s.passed == 1 && s.failed == 2);
    EXPECT(result_json(r).find("\"read_check\": {\"bad_bytes\": 5, \"perturbed_bytes\": 1234, "
                               "\"first\": {\"param\": 2, \"offset\": 12}}") !=
           std::string::npos);
    EXPECT(result_json(missed).find("\"read_check\": null") != std::string::npos);
  }
  printf("self-test: %s (%d failure%s)\n", g_fails ? "FAILED" : "passed", g_fails,
         g_fails == 1 ? "" : "s");
  return g_fails ? 1 : 0;
}

// -------------------------------------------------------------------- dry run

std::string hexdump_vals(const std::vector<uint8_t> &b, const ElemInfo &e, size_t n) {
  std::string o;
  size_t cnt = std::min<size_t>(n, b.size() / e.size);
  for (size_t i = 0; i < cnt; ++i) {
    const uint8_t *p = b.data() + i * e.size;
    if (i) o += ' ';
    switch (e.t) {
    case ElemType::F32: { float f; memcpy(&f, p, 4); o += strfmt("%.6g", f); break; }
    case ElemType::F64: { double d; memcpy(&d, p, 8); o += strfmt("%.9g", d); break; }
    case ElemType::I32: { int32_t v; memcpy(&v, p, 4); o += strfmt("%d", v); break; }
    case ElemType::U32: { uint32_t v; memcpy(&v, p, 4); o += strfmt("%u", v); break; }
    case ElemType::I64: { int64_t v; memcpy(&v, p, 8); o += strfmt("%" PRId64, v); break; }
    case ElemType::U64: { uint64_t v; memcpy(&v, p, 8); o += strfmt("%" PRIu64, v); break; }
    case ElemType::I8: o += strfmt("%d", (int)(int8_t)*p); break;
    case ElemType::U8: o += strfmt("%u", (unsigned)*p); break;
    }
  }
  if (b.size() / e.size > cnt) o += " ...";
  return o;
}

int dry_run(const std::vector<Instance> &ins) {
  int errors = 0;
  for (const Instance &in : ins) {
    printf("[%3d/%zu] %s  (manifest line %d)\n", in.index + 1, ins.size(), in.name.c_str(),
           in.line);
    if (!in.error.empty()) {
      printf("    ERROR %s\n", in.error.c_str());
      ++errors;
      continue;
    }
    printf("    load %s  symbol %s\n", in.ptx_resolved.c_str(), in.sym.c_str());
    printf("    launch grid=%u,%u,%u block=%u,%u,%u smem=%u  pred=%s class=%s%s%s\n",
           in.grid[0], in.grid[1], in.grid[2], in.block[0], in.block[1], in.block[2],
           in.smem, in.pred.c_str(), in.cls.c_str(), in.expect.empty() ? "" : " expect=",
           in.expect.c_str());
    uint64_t total = 0, wr_in = 0, rd_in = 0;  // rd_in/wr_in: bytes inside the regions
    for (size_t i = 0; i < in.args.size(); ++i) {
      const Arg &a = in.args[i];
      if (a.kind == ArgKind::Buf) {
        uint64_t bytes = a.count * a.elem->size;
        total += bytes;
        wr_in += in.wr.covered((int)i, bytes);
        rd_in += in.rd.covered((int)i, bytes);
        uint64_t seed = buffer_seed(in.name, (int)i);
        std::string contents = "not generated: over 256 MiB";
        if (bytes <= (256ull << 20)) {
          std::vector<uint8_t> v;
          fill_buffer(v, *a.elem, a.count, a.init, seed);
          contents = strfmt("fnv=0x%016" PRIx64 "  [%s]", fnv1a64(v.data(), v.size()),
                            hexdump_vals(v, *a.elem, 6).c_str());
        }
        printf("    param %zu: cuMemAlloc %" PRIu64 " bytes (%s x %" PRIu64
               ") init=%s seed=0x%016" PRIx64 " %s\n",
               i, bytes, a.elem->name, a.count, a.init.text.c_str(), seed, contents.c_str());
      } else if (a.kind == ArgKind::Ptr) {
        int b = -1;
        int64_t off = 0;
        std::string e;
        resolve_ptr(in.args, (int)i, b, off, e);
        printf("    param %zu: pointer = base of param %d %+" PRId64 " bytes\n", i, b, off);
      } else {
        printf("    param %zu: %s by value, %zu bytes = 0x%0*" PRIx64 "\n", i, a.stype.c_str(),
               a.size, (int)(a.size * 2), a.bits);
      }
    }
    printf("    total device memory %" PRIu64 " bytes; launch twice, compare S1/S2\n", total);
    printf("    write region: %s; read region: %s\n",
           in.wr.checked ? strfmt("%" PRIu64 " bytes may change", wr_in).c_str() : "not checked",
           in.rd.checked ? strfmt("%" PRIu64 " bytes may be read, %" PRIu64 " to perturb", rd_in,
                                  total - rd_in).c_str()
                         : "not checked");
  }
  printf("dry run: %zu instances, %d manifest errors\n", ins.size(), errors);
  fflush(stdout);
  return errors ? 1 : 0;
}

// --------------------------------------------------------------------- worker

// Runs instances [start, n) in this (forked) process; reports on fd.
[[noreturn]] void worker_main(int start, int fd, int ordinal, bool determinism) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const char US = '\x1f';
  Runner R;
  R.check_determinism = determinism;
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS) r = cuDeviceGet(&R.dev, ordinal);
  if (r != CUDA_SUCCESS) {
    write_all(fd, "F" + std::string(1, US) + wire_clean("CUDA init failed: " + cu_err(r)) + "\n");
    _exit(6);
  }
  {
    char nm[256] = "";
    int ma = 0, mi = 0, drv = 0;
    size_t tm = 0;
    cuDeviceGetName(nm, sizeof nm, R.dev);
    cuDeviceGetAttribute(&ma, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, R.dev);
    cuDeviceGetAttribute(&mi, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, R.dev);
    cuDeviceTotalMem(&tm, R.dev);
    cuDriverGetVersion(&drv);
    write_all(fd, strfmt("D%c%s%c%d%c%d%c%zu%c%d\n", US, wire_clean(nm).c_str(), US, ma, US,
                         mi, US, tm, US, drv));
  }
  std::string err;
  if (!R.create_context(err)) {
    write_all(fd, "F" + std::string(1, US) + wire_clean(err) + "\n");
    _exit(6);
  }
  for (size_t i = (size_t)start; i < g_instances.size(); ++i) {
    const Instance &in = g_instances[i];
    write_all(fd, strfmt("S%c%zu\n", US, i));
    Result res;
    res.in = &in;
    auto t0 = std::chrono::steady_clock::now();
    bool sticky = false;
    if (!in.error.empty()) {
      res.observed = "error";
      res.error = in.error;
    } else {
      R.run(in, res, sticky);
    }
    res.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                 .count();
    if (res.verdict.empty()) res.verdict = verdict_for(in.pred, res.observed);
    bool dead = false;
    if (sticky) {
      // as asked: destroy our context and create a new one (never reset the
      // device); when the driver refuses, this worker process ends and the
      // supervisor continues in a fresh one
      std::string e2;
      if (!res.note.empty()) res.note += "; ";
      if (R.recreate_context(e2)) {
        res.note += "context re-created after sticky error";
      } else {
        res.note += "context re-creation failed (" + e2 + "); worker process restarted";
        dead = true;
      }
    }
    write_all(fd, encode_result((int)i, res));
    if (dead) _exit(5);
  }
  _exit(0);
}

// ----------------------------------------------------------------- supervisor

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
