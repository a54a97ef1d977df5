// run_twice's internal header: the types and functions its files share.
// What run_twice does and how (manifest format, verdicts, JSON schema,
// process model) is documented at the top of run_twice.cpp.
//
// The runner is split by what each part does, to keep files readable:
//   run_twice.cpp           overview, the supervisor (forks workers, watchdog,
//                           records results) and main
//   run_twice_util.cpp      string formatting, number parsing, JSON strings,
//                           paths, time
//   run_twice_manifest.cpp  buffer contents (element types, INIT kinds, the
//                           PRNG) and the manifest parser
//   run_twice_results.cpp   buffer comparison, results, summary, JSON output
//                           and the worker <-> supervisor wire format
//   run_twice_worker.cpp    the worker process: the CUDA layer (Runner); the
//                           only file that includes cuda.h and calls cu*
//   run_twice_selftest.cpp  --self-test and --dry-run (no cu* call)
// Everything is in namespace run_twice; what only one file uses stays in an
// anonymous namespace there.
#pragma once

#include "byte_ranges.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace run_twice {

// ------------------------------------------------------------------ utilities
// (run_twice_util.cpp)

std::string strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::vector<std::string> split(const std::string &s, char sep);
std::vector<std::string> split_ws(const std::string &s);
bool parse_i64(const std::string &s, int64_t &v);
bool parse_u64(const std::string &s, uint64_t &v);
bool parse_int_bits(const std::string &s, uint64_t &bits);
bool parse_double(const std::string &s, double &v);
std::string json_str(const std::string &s);
std::string dirname_of(const std::string &path);
std::string now_iso8601();

// ---------------------------------------------------------------- PRNG / init
// (run_twice_manifest.cpp)

uint64_t fnv1a64(const void *data, size_t n, uint64_t h = 0xcbf29ce484222325ull);
uint64_t buffer_seed(const std::string &name, int param);

enum class ElemType { F32, F64, I32, U32, I64, U64, I8, U8 };

struct ElemInfo {
  const char *name;
  ElemType t;
  size_t size;
  bool is_float;
  bool is_signed;
};

const ElemInfo *elem_by_name(const std::string &n);

enum class InitKind { Rand, RandInt, Zero, Iota, Const };

struct Init {
  InitKind kind = InitKind::Zero;
  int64_t lo = 0, hi = 0;    // randint
  double cval_f = 0;         // const, float types
  uint64_t cval_bits = 0;    // const, integer types (two's complement)
  std::string text;          // as written
};

void fill_buffer(std::vector<uint8_t> &out, const ElemInfo &e, uint64_t count,
                 const Init &init, uint64_t seed);

// ------------------------------------------------------------------- manifest
// (run_twice_manifest.cpp)

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

bool resolve_ptr(const std::vector<Arg> &args, int i, int &buf, int64_t &off,
                 std::string &err);
bool parse_line(const std::string &line, Instance &in, std::string &err);
bool read_manifest(const std::string &path, std::vector<Instance> &out, std::string &err);

// -------------------------------------------------------------------- compare
// (run_twice_results.cpp)

struct Diff {
  bool identical = true;
  int buf = -1;        // index into the buffer list
  uint64_t offset = 0;  // first differing byte
  uint8_t a = 0, b = 0;
  uint64_t count = 0;  // number of differing bytes
};

Diff compare_buffers(const std::vector<std::vector<uint8_t>> &x,
                     const std::vector<std::vector<uint8_t>> &y);

// -------------------------------------------------------------------- results
// (run_twice_results.cpp)

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

Summary summarize(const std::vector<Result> &rs);
void print_summary(const Summary &s, int not_run);
std::string result_json(const Result &r);
bool write_json(bool complete, int not_run);
std::string verdict_for(const std::string &pred, const std::string &observed);
void print_result(const Result &r, size_t n_total);

// ------------------------------------------------------- worker <-> supervisor
// (the wire format: run_twice_results.cpp; the worker: run_twice_worker.cpp)

std::string wire_clean(const std::string &s);
std::string encode_result(int index, const Result &r);
bool decode_result(const std::vector<std::string> &f, Result &r, int &index);
void write_all(int fd, const std::string &s);
[[noreturn]] void worker_main(int start, int fd, int ordinal, bool determinism);

// -------------------------------------------------------- self test / dry run
// (run_twice_selftest.cpp)

int self_test();
int dry_run(const std::vector<Instance> &ins);

// ----------------------------------------------------------- supervisor state
// (defined in run_twice.cpp; write_json reports it, a forked worker runs
// g_instances)

extern std::vector<Result> g_results;
extern std::vector<Instance> g_instances;
extern std::string g_json_path, g_manifest_path, g_command, g_date;
extern DeviceInfo g_dev;

}  // namespace run_twice
