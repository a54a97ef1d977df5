// Shared pieces of the preemption harness (bench/preempt): CUDA driver API
// helpers, the instance manifest (the format of test/gpu/run_twice.cpp, as
// written by test/gpu/stage.py), device buffers of an instance, the control
// block, JSON text, and a supervisor that runs work in a child process with
// a watchdog (a kernel that never ends must not end the whole run).
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
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
  /// smem=N: dynamic shared memory bytes of every launch (kernel and forms).
  unsigned smem = 0;
  std::vector<Arg> args;
  /// vary=I:N (part aslaunched): the 4-byte scalar parameter I takes a new
  /// value on every launch, N in turn (i32/u32: its value + 0 .. N-1, or
  /// - 0 .. N-1 with vary=I:-N, for a size that may only shrink; f32: its
  /// value times 1 + 1e-6 x 0 .. N-1), as a step counter or pivot row.
  int vary_arg = -1;
  unsigned vary_count = 0;
  bool vary_down = false;
  /// vary_grid=N (part aslaunched): grid_x - 0 .. N-1 in turn (at least 1),
  /// as a grid that follows a request's size.
  unsigned vary_grid = 0;
  /// grid_x of launch number step (vary_grid).
  unsigned grid_x(unsigned step) const {
    return vary_grid ? grid[0] - std::min(grid[0] - 1, step % vary_grid) : grid[0];
  }
  std::string error; // manifest problem: the instance is reported, not run
  uint64_t ctas() const { return (uint64_t)grid[0] * grid[1] * grid[2]; }
};

/// Reads a manifest (one instance per line, KEY=VALUE fields, args= last).
/// Paths are made relative to the manifest's folder.
bool read_manifest(const std::string &path, std::vector<Instance> &out, std::string &err);
/// read_manifest for a part's entry: on failure prints "<part>: <why>" to
/// stderr (the part then exits 2).
bool load_manifest(const char *part, const std::string &path, std::vector<Instance> &out);
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
/// Whether a PTX text declares the kernel `name` (`.entry name(`); no CUDA call.
bool ptx_has_entry(const std::string &ptx, const std::string &name);
/// ptx_has_entry on a file's text (false when it cannot be read).
bool ptx_file_has_entry(const std::string &ptx_path, const std::string &name);

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
  /// kernelParams for cuLaunchKernel; with_ctl appends what a clone takes
  /// after the kernel's parameters (ABI version 2): the control block and
  /// the instance's grid (three uint32: grid_x, grid_y, grid_z).
  void **params(bool with_ctl);
  void set_ctl(CUdeviceptr ctl) { ctl_ = ctl; }
  /// Parameter in.vary_arg's value for launch number step (Instance::vary_arg).
  void vary(const Instance &in, unsigned step);
  /// The check interval passed in grid_z's high bits (0: none; only for
  /// clones with kFlagBatched).
  void set_batch(unsigned k) { batch_ = k > 0xffff ? 0xffff : k; }
  /// A clone with kFlagSegScale (Scaled): the segment scale s in grid_z's
  /// bits 24..25, the interval kept to bits 16..23.
  void set_seg(bool scaled, unsigned s) {
    scaled_ = scaled;
    scale_ = s > 3 ? 3 : s;
  }
  const std::vector<CUdeviceptr> &bufs() const { return bufs_; }
  const std::vector<uint64_t> &bytes() const { return bytes_; }
  uint64_t total_bytes() const;

private:
  std::vector<CUdeviceptr> bufs_; // 0 for non-buffer parameters
  std::vector<uint64_t> bytes_;
  std::vector<uint64_t> slots_;   // 8 bytes per parameter value (+ ctl and grid)
  std::vector<void *> ptrs_;
  CUdeviceptr ctl_ = 0;
  unsigned grid_[3] = {1, 1, 1};  // the instance's grid (the clone's grid arguments)
  unsigned batch_ = 0;
  bool scaled_ = false;
  unsigned scale_ = 0;
};

void launch(CUfunction f, const Instance &in, void **params, CUstream s);
/// The same with grid_x = gx.
void launch(CUfunction f, const Instance &in, unsigned gx, void **params, CUstream s);
/// cuStreamSynchronize with a time limit (spins; throws HangError).
void wait_stream(CUstream s, double timeout_s);
/// Milliseconds between events recorded on \p s around go(), after the
/// stream has drained (wait_stream with \p timeout_s, or without a limit
/// when it is 0).
double time_launch(const std::function<void()> &go, CUstream s, double timeout_s = 0);

// ------------------------------------------------------------- clone ABI

/// The clone ABI the harness speaks (docs/PREEMPTION_DESIGN.md, "ABI version
/// 2: persistent clones"): info global `__gmem_pre_info_<K>` = five uint32
/// The runtime launches a kernel's light twin when a virtual CTA of its full
/// clone runs at most this long (GMEM_PREEMPT_LIGHT_US's default): the twin
/// stops only between virtual CTAs.
constexpr double kLightMaxUs = 3.0;
/// libgmemrt runs the twin of a clone without loop checkpoints only where
/// virtual CTAs take at least this (CloneChoice.h's LateReadMinTauUs: the
/// shortest that takes the twin's late read).
constexpr double kLateReadMinUs = 4.0;
/// libgmemrt's GMEM_PREEMPT_SPREAD default (CloneChoice.h, "Spread"): after a
/// shape's form is chosen it is timed at this many times the resident CTAs
/// and kept there when more than 2% faster.
constexpr unsigned kSpread = 4;

/// {magic, version, flags, loop checkpoints, interval K}.
constexpr uint32_t kInfoMagic = 0x31504d47u; // "GMP1"
constexpr uint32_t kAbiVersion = 2;
constexpr uint32_t kFlagLoops = 1u, kFlagEntryOnly = 2u, kFlagBarriers = 4u, kFlagNoClone = 8u,
                   kFlagPersistent = 16u, kFlagHasLight = 32u, kFlagHasAlt = 64u,
                   kFlagHasFree = 128u, kFlagBatched = 256u, kFlagBalancedTail = 512u,
                   kFlagLightTail = 1024u, kFlagWarpAlignedBlock = 2048u,
                   kFlagSegScale = 4096u;
/// The segment scale the parts pass to clones with kFlagSegScale (grid_z's
/// bits 24..25): PB_SEG_SCALE (0..3, default 0), what libgmemrt chooses per
/// launch shape (runtime/src/CloneScale.cpp).
unsigned seg_scale_env();
/// Bits 16..23 of the flags: the balanced tail's share of the grid, percent
/// (the alternate form's with kFlagBalancedTail, the light twin's with
/// kFlagLightTail).
constexpr unsigned kTailPercentShift = 16;

/// Batched clones (flag bit 8) take a check interval K in grid_z's high 16
/// bits: between virtual CTAs they look at the request every K-th one.
/// libgmemrt picks K = floor(kBatchUs / tau) (1..65535, GMEM_PREEMPT_BATCH_US's
/// default) from the shape's measured virtual CTA time tau.
constexpr double kBatchUs = 4.0;
unsigned batch_for(double tau_us);

/// Which of a kernel's preemptible clones: the full one __gmem_pre_<K>, its
/// light twin __gmem_prl_<K> (no loop checkpoints), its alternate full
/// form __gmem_pra_<K> (loop state in shared memory; the runtime times it
/// against the full clone and keeps the faster per launch shape) or its
/// barrier-free form __gmem_prf_<K> (every thread loops over the virtual
/// CTAs on its own; a relaunch re-runs virtual CTAs some threads had
/// finished, so it may only ever run for launches found idempotent, stopped
/// with request 2).
enum class Form { Full, Light, Alt, Free };
const char *form_name(Form f); // "full", "light", "alt", "free"

struct CloneInfo {
  uint32_t magic = 0, version = 0, flags = 0, loop_checkpoints = 0, interval_k = 0;
  std::string error; // empty: usable by this harness
  bool persistent() const { return flags & kFlagPersistent; }
  /// A light twin __gmem_prl_<sym> exists (no loop checkpoints).
  bool has_light() const { return (flags & kFlagHasLight) && persistent(); }
  /// An alternate full clone __gmem_pra_<sym> exists.
  bool has_alt() const { return (flags & kFlagHasAlt) && persistent(); }
  /// A barrier-free clone __gmem_prf_<sym> exists (also for kernels without
  /// loop checkpoints: it does not imply a light twin). Idempotent launches only.
  bool has_free() const { return (flags & kFlagHasFree) && persistent(); }
  /// Percent of the virtual CTAs form f claims one by one at the end (0:
  /// none; the full clone and the free form never do).
  unsigned tail_percent(Form f) const {
    const uint32_t bit = f == Form::Alt ? kFlagBalancedTail : f == Form::Light ? kFlagLightTail : 0;
    return bit && (flags & bit) && persistent() ? (flags >> kTailPercentShift) & 0xff : 0;
  }
};
/// First claimed ticket of a clone with a balanced tail: min(total, max(P,
/// total - total * percent / 100)), as the clone computes it.
uint64_t tail_static_end(uint64_t total, unsigned P, unsigned tail_percent);
/// Decodes an info global's bytes (empty: none found); sets error when they
/// are missing, short, of another magic or of a version other than 2.
CloneInfo parse_clone_info(const std::vector<uint8_t> &bytes);

/// Virtual CTAs finished, from a control block's words (request, then
/// `reserved`/`next`, then the done bitmap / the redo list). P = 0: not
/// persistent, popcount of the bitmap's first `total` bits (needs
/// ceil(total/32) words after the header). P > 0: min(next, total) minus the
/// non-zero redo words (needs 2P words after the header); with a balanced
/// tail (tail_percent > 0) the static tickets below the static end, plus the
/// claimed ones (word 1) less those still held in resume words.
uint64_t ctl_work_done(const uint32_t *words, size_t nwords, uint64_t total, unsigned P,
                       unsigned tail_percent = 0);

/// Per-launch control block. Not persistent (P = 0): {request, reserved,
/// done bitmap}; persistent (P > 0): {request, next, redo[2P]}. Sized for
/// max(bitmap words, 2P) after the 8-byte header.
struct Ctl {
  CUdeviceptr ptr = 0;
  uint64_t ctas = 0; // virtual CTAs: the user's grid
  unsigned P = 0;    // persistent CTAs of the clone's launch, 0 = not persistent
  unsigned tail_percent = 0; // balanced tail (CloneInfo::tail_percent)
  size_t bytes = 0;
  void alloc(uint64_t ctas, unsigned P = 0, unsigned tail_percent = 0);
  void release();
  void reset(CUstream s);                      // all zero: request 0, nothing done
  void set_request(CUstream s, uint32_t value); // memset (stream-ordered)
  uint64_t done_count();                       // synchronous: virtual CTAs finished
  bool all_done() { return done_count() == ctas; }
};

/// How a kernel's clone is launched, decided per kernel from its info global
/// at run time: persistent (flag bit 4) -> grid (P, 1, 1) with
/// P = min(total CTAs, SMs x cuOccupancyMaxActiveBlocksPerMultiprocessor(
/// clone, threads per block, dynamic shared memory)) (times `spread` for a
/// spread launch), computed once per configure(); else the user's grid. Same block and dynamic shared memory
/// either way. Owns the control block (sized for the kind). A relaunch after
/// a stop (request back to 0) uses the same P and control block.
struct CloneLaunch {
  std::string name; // __gmem_pre_<sym>
  CUfunction fn = nullptr;
  CloneInfo info;
  Form form = Form::Full; // which clone find() took
  bool persistent = false;
  unsigned P = 0; // persistent: CTAs launched; 0 otherwise
  unsigned spread = 1; // persistent: P is up to this many times the resident CTAs
  unsigned max_P = 0;  // persistent: at most this many CTAs (0: no cap)
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  unsigned smem = 0;
  Ctl ctl;

  CloneLaunch() = default;
  CloneLaunch(const CloneLaunch &) = delete;
  CloneLaunch &operator=(const CloneLaunch &) = delete;
  ~CloneLaunch() { ctl.release(); }
  /// Finds the clone of `sym` and reads its info; "" or why it cannot be used
  /// (no clone, no info global, bad magic, version other than 2).
  /// form: the light twin __gmem_prl_<sym> (same protocol, no loop
  /// checkpoints), the alternate __gmem_pra_<sym> (same protocol and
  /// checkpoints, state in shared memory) or the barrier-free
  /// __gmem_prf_<sym> (same control block and words; redo stays 0; only for
  /// idempotent launches) instead; the info global is the full clone's.
  std::string find(const Module &m, const std::string &sym, Form form = Form::Full);
  /// Sets the user's launch (grid, block, dynamic shared memory), computes P
  /// (persistent clones) and allocates the zeroed-on-reset control block;
  /// "" or why it cannot be launched. sms: the device's multiprocessors.
  std::string configure(const unsigned g[3], const unsigned b[3], unsigned dyn_smem, int sms);
  uint64_t total() const { return (uint64_t)grid[0] * grid[1] * grid[2]; }
  /// A persistent launch's time per virtual CTA (us) from its run time:
  /// each CTA runs ceil(total / P) of them in turn.
  double vcta_us(double run_ms) const { return 1000.0 * run_ms / std::ceil((double)total() / P); }
  /// The clone's launch grid: (P, 1, 1) or the user's grid.
  void launch_grid(unsigned out[3]) const;
  /// cuLaunchKernel of the clone; params must end with ctl.ptr and the
  /// user's grid (Launch::params(true)).
  void launch(void **params, CUstream s) const;
  /// "persistent", "P" (0 when not persistent), "info_version", "info_flags".
  void describe(Json &j) const;
  /// find + configure for a corpus instance, with in.ptx loaded once into
  /// mods, and describe into j. Returns the instance's module, or null with
  /// *why set.
  Module *open(const Instance &in, int sms, std::map<std::string, std::unique_ptr<Module>> &mods,
               Json &j, std::string *why);
  /// The light twin, alternate or barrier-free form of an opened full clone
  /// (same module), configured for the same launch (its own occupancy, so
  /// its own P); "" or why not (none). Describes "light_P" / "alt_P" /
  /// "free_P". The caller must launch a Form::Free clone only for an
  /// idempotent launch.
  /// label: the JSON key's prefix instead of the form's name.
  std::string open_form(const Module &m, const Instance &in, int sms, Json &j, Form form,
                        const char *label = nullptr);
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
