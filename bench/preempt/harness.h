// Shared pieces of the preemption harness (bench/preempt): CUDA driver API
// helpers, the instance manifest (the format of test/gpu/run_twice.cpp, as
// written by test/gpu/stage.py), device buffers of an instance, the control
// block, JSON text, and a supervisor that runs work in a child process with
// a watchdog (a kernel that never ends must not end the whole run).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace pb {

// ------------------------------------------------------------------ errors

struct CudaError : std::runtime_error {
  CUresult code;
  CudaError(CUresult c, const std::string &what) : std::runtime_error(what), code(c) {}
  /// Errors after which the context is unusable (the worker must restart).
  bool sticky() const;
};

/// A kernel that did not finish in time: its process must go (exit 5), the
/// kernel with it.
struct HangError : std::runtime_error {
  explicit HangError(const std::string &w) : std::runtime_error(w) {}
};

void check(CUresult r, const char *what, const char *file, int line);
#define CU(call) ::pb::check((call), #call, __FILE__, __LINE__)

std::string strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
double now_s();   // CLOCK_MONOTONIC seconds (the same clock in every process)
void spin_until(double t);

// ------------------------------------------------------------------- JSON

/// Builds one JSON object; values are added in order.
class Json {
public:
  Json &str(const std::string &k, const std::string &v);
  Json &num(const std::string &k, double v);
  Json &integer(const std::string &k, long long v);
  Json &boolean(const std::string &k, bool v);
  Json &raw(const std::string &k, const std::string &json);
  std::string text() const { return "{" + body_ + "}"; }

private:
  void key(const std::string &k);
  std::string body_;
};
std::string json_escape(const std::string &s);
std::string json_array(const std::vector<std::string> &items);
std::string json_numbers(const std::vector<double> &v);

// --------------------------------------------------------------- manifest

enum class ArgKind { Buf, Ptr, Scalar };

struct Arg {
  ArgKind kind = ArgKind::Scalar;
  std::string tok;
  // buf
  int type = 0;        // fill kernel type code (see kernels.cu)
  size_t elem = 4;
  uint64_t count = 0;
  int mode = 2;        // fill kernel mode
  long long lo = 0, hi = 0;
  double cf = 0;
  // ptr
  int ref = -1;
  long long off = 0;
  // scalar
  uint64_t bits = 0;
  size_t size = 0;
};

struct Instance {
  int line = 0;
  std::string ptx, sym, name, pred, cls;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  std::vector<Arg> args;
  std::string error; // manifest problem: the instance is reported, not run
  uint64_t ctas() const { return (uint64_t)grid[0] * grid[1] * grid[2]; }
};

/// Reads a manifest (one instance per line, KEY=VALUE fields, args= last).
/// Paths are made relative to the manifest's folder.
bool read_manifest(const std::string &path, std::vector<Instance> &out, std::string &err);
bool parse_arg(const std::string &tok, Arg &a, std::string &err);

// ---------------------------------------------------------------- device

struct Gpu {
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  CUstream lo = nullptr, hi = nullptr; // low / high priority, non-blocking
  int sms = 0;
  std::string name;
  bool memops = false; // cuStreamWriteValue32 usable
  void init(int ordinal);
  std::string json() const;
};

/// A loaded module (cubin next to the PTX when present) and its mutable
/// device globals: snapshot after load, restored before every run, so that
/// counters in __device__ variables start each run the same.
class Module {
public:
  Module() = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module() {
    if (mod_)
      cuModuleUnload(mod_);
  }
  void load(const std::string &ptx_path);
  /// Contents of a module global (empty when there is none).
  std::vector<uint8_t> global_bytes(const std::string &name) const;
  CUfunction fn(const std::string &name) const; // throws when missing
  bool has(const std::string &name) const;
  void restore_globals(CUstream s);

private:
  CUmodule mod_ = nullptr;
  struct Global {
    CUdeviceptr ptr;
    std::vector<uint8_t> init;
  };
  std::vector<Global> globals_;
};

/// Names of the mutable `.global` variables a PTX text declares.
std::vector<std::string> ptx_globals(const std::string &ptx);

struct Helpers {
  CUfunction fill = nullptr, count_diff = nullptr, trigger = nullptr;
  void from(const Module &m);
};

/// Buffers and argument values of one instance.
class Launch {
public:
  ~Launch() { release(); }
  /// Allocates (cuMemAlloc) and fills every buffer on the device.
  void setup(const Instance &in, const Helpers &h, CUstream s);
  void release();
  /// kernelParams for cuLaunchKernel; with_ctl appends the control block.
  void **params(bool with_ctl);
  void set_ctl(CUdeviceptr ctl) { ctl_ = ctl; }
  const std::vector<CUdeviceptr> &bufs() const { return bufs_; }
  const std::vector<uint64_t> &bytes() const { return bytes_; }
  uint64_t total_bytes() const;

private:
  std::vector<CUdeviceptr> bufs_; // 0 for non-buffer parameters
  std::vector<uint64_t> bytes_;
  std::vector<uint64_t> slots_;   // 8 bytes per parameter value
  std::vector<void *> ptrs_;
  CUdeviceptr ctl_ = 0;
};

void launch(CUfunction f, const Instance &in, void **params, CUstream s);
/// cuStreamSynchronize with a time limit (spins; throws HangError).
void wait_stream(CUstream s, double timeout_s);

/// Per-launch control block: request, reserved, done bitmap.
struct Ctl {
  CUdeviceptr ptr = 0;
  uint64_t ctas = 0;
  size_t bytes = 0;
  void alloc(uint64_t ctas);
  void release();
  void reset(CUstream s);                      // request 0, no CTA done
  void set_request(CUstream s, uint32_t value); // memset (stream-ordered)
  uint64_t done_count();                       // synchronous read of the bitmap
};

uint64_t buffer_seed(const std::string &name, int param);

/// Counts differing bytes between equally sized device buffers (on the
/// device); first differing offset in *first.
uint64_t device_diff(const Helpers &h, CUstream s, CUdeviceptr a, CUdeviceptr b, uint64_t n,
                     uint64_t *first);

// ------------------------------------------------------------ supervision

/// Runs items [0, n) in forked worker processes. The worker calls
/// work(start, report) which must call report(i, json) after item i. When a
/// worker dies or an item runs longer than watchdog_s, the item is reported
/// through failed(i, why) and a new worker continues at i + 1.
using Report = std::function<void(int, const std::string &)>;
void supervise(int n, double watchdog_s, const std::function<void(int, const Report &)> &work,
               const std::function<void(int, const std::string &)> &done,
               const std::function<void(int, const std::string &)> &failed);

} // namespace pb
