// Shared pieces of the preemption harness; see harness.h.
#include "harness.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pb {

// ------------------------------------------------------------------ errors

bool CudaError::sticky() const {
  switch (code) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_UNKNOWN:
    return true;
  default:
    return false;
  }
}

void check(CUresult r, const char *what, const char *file, int line) {
  if (r == CUDA_SUCCESS)
    return;
  const char *name = nullptr, *desc = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &desc);
  throw CudaError(r, strfmt("%s failed: %s (%s) at %s:%d", what, name ? name : "?",
                            desc ? desc : "?", file, line));
}

std::string strfmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[512];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0)
    return std::string();
  if ((size_t)n < sizeof small)
    return std::string(small, (size_t)n);
  std::string out((size_t)n + 1, '\0');
  va_start(ap, fmt);
  vsnprintf(&out[0], out.size(), fmt, ap);
  va_end(ap);
  out.resize((size_t)n);
  return out;
}

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void spin_until(double t) {
  while (now_s() < t) {
  }
}

// ------------------------------------------------------------------- JSON

std::string json_escape(const std::string &s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\')
      o += '\\', o += (char)c;
    else if (c == '\n')
      o += "\\n";
    else if (c < 0x20)
      o += strfmt("\\u%04x", c);
    else
      o += (char)c;
  }
  return o + "\"";
}

void Json::key(const std::string &k) {
  if (!body_.empty())
    body_ += ", ";
  body_ += json_escape(k) + ": ";
}
Json &Json::str(const std::string &k, const std::string &v) {
  key(k);
  body_ += json_escape(v);
  return *this;
}
Json &Json::num(const std::string &k, double v) {
  key(k);
  body_ += std::isfinite(v) ? strfmt("%.6g", v) : std::string("null");
  return *this;
}
Json &Json::integer(const std::string &k, long long v) {
  key(k);
  body_ += strfmt("%lld", v);
  return *this;
}
Json &Json::boolean(const std::string &k, bool v) {
  key(k);
  body_ += v ? "true" : "false";
  return *this;
}
Json &Json::raw(const std::string &k, const std::string &json) {
  key(k);
  body_ += json;
  return *this;
}

std::string json_array(const std::vector<std::string> &items) {
  std::string o = "[";
  for (size_t i = 0; i < items.size(); ++i)
    o += (i ? ",\n  " : "\n  ") + items[i];
  return o + (items.empty() ? "]" : "\n]");
}

std::string json_numbers(const std::vector<double> &v) {
  std::string o = "[";
  for (size_t i = 0; i < v.size(); ++i)
    o += (i ? "," : "") + strfmt("%.4g", v[i]);
  return o + "]";
}

// --------------------------------------------------------------- manifest

namespace {

struct TypeInfo {
  const char *name;
  int code;
  size_t size;
  bool is_float;
};
const TypeInfo kTypes[] = {{"f32", 0, 4, true}, {"f64", 1, 8, true}, {"i32", 2, 4, false},
                           {"u32", 3, 4, false}, {"i64", 4, 8, false}, {"u64", 5, 8, false},
                           {"i8", 6, 1, false},  {"u8", 7, 1, false}};

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream is(s);
  while (std::getline(is, cur, sep))
    out.push_back(cur);
  return out;
}

bool to_i64(const std::string &s, long long &v) {
  if (s.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  v = strtoll(s.c_str(), &end, 0);
  if (!errno && !*end)
    return true;
  errno = 0;
  unsigned long long u = strtoull(s.c_str(), &end, 0);
  if (errno || *end || s[0] == '-')
    return false;
  v = (long long)u;
  return true;
}

bool to_double(const std::string &s, double &v) {
  char *end = nullptr;
  v = strtod(s.c_str(), &end);
  return !s.empty() && !*end;
}

bool parse_dims(const std::string &s, unsigned d[3]) {
  std::vector<std::string> p = split(s, ',');
  if (p.empty() || p.size() > 3)
    return false;
  for (int i = 0; i < 3; ++i) {
    long long v = 1;
    if (i < (int)p.size() && (!to_i64(p[i], v) || v < 1 || v > 0xffffffffll))
      return false;
    d[i] = (unsigned)v;
  }
  return true;
}

std::string dir_of(const std::string &p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}

} // namespace

bool parse_arg(const std::string &tok, Arg &a, std::string &err) {
  a = Arg();
  a.tok = tok;
  std::vector<std::string> f = split(tok, ':');
  if (f.size() >= 4 && f[0] == "buf") {
    a.kind = ArgKind::Buf;
    const TypeInfo *t = nullptr;
    for (const TypeInfo &ti : kTypes)
      if (f[1] == ti.name)
        t = &ti;
    long long count;
    if (!t || !to_i64(f[2], count) || count < 0) {
      err = "bad buf token " + tok;
      return false;
    }
    a.type = t->code;
    a.elem = t->size;
    a.count = (uint64_t)count;
    const std::string &m = f[3];
    if (m == "rand" && f.size() == 4) {
      a.mode = 0;
    } else if (m == "randint" && f.size() == 6 && to_i64(f[4], a.lo) && to_i64(f[5], a.hi) &&
               a.lo < a.hi) {
      a.mode = 1;
    } else if (m == "zero" && f.size() == 4) {
      a.mode = 2;
    } else if (m == "iota" && f.size() == 4) {
      a.mode = 3;
    } else if (m == "const" && f.size() == 5 &&
               (t->is_float ? to_double(f[4], a.cf) : to_i64(f[4], a.lo))) {
      a.mode = 4;
    } else {
      err = "bad INIT in " + tok;
      return false;
    }
    return true;
  }
  if (f.size() == 2 && f[0] == "ptr") {
    a.kind = ArgKind::Ptr;
    std::string r = f[1];
    size_t pm = r.find_first_of("+-");
    long long ref, off = 0;
    if (!to_i64(r.substr(0, pm), ref) ||
        (pm != std::string::npos && !to_i64(r.substr(pm + 1), off))) {
      err = "bad ptr token " + tok;
      return false;
    }
    a.ref = (int)ref;
    a.off = pm != std::string::npos && r[pm] == '-' ? -off : off;
    return true;
  }
  if (f.size() != 2) {
    err = "bad token " + tok;
    return false;
  }
  a.kind = ArgKind::Scalar;
  long long iv;
  double dv;
  if ((f[0] == "i32" || f[0] == "u32") && to_i64(f[1], iv)) {
    a.size = 4;
    a.bits = (uint32_t)iv;
  } else if ((f[0] == "i64" || f[0] == "u64") && to_i64(f[1], iv)) {
    a.size = 8;
    a.bits = (uint64_t)iv;
  } else if (f[0] == "f32" && to_double(f[1], dv)) {
    float x = (float)dv;
    uint32_t b;
    memcpy(&b, &x, 4);
    a.size = 4;
    a.bits = b;
  } else if (f[0] == "f64" && to_double(f[1], dv)) {
    a.size = 8;
    memcpy(&a.bits, &dv, 8);
  } else {
    err = "bad scalar " + tok;
    return false;
  }
  return true;
}

bool load_manifest(const char *part, const std::string &path, std::vector<Instance> &out) {
  std::string err;
  if (read_manifest(path, out, err))
    return true;
  fprintf(stderr, "%s: %s\n", part, err.c_str());
  return false;
}

bool read_manifest(const std::string &path, std::vector<Instance> &out, std::string &err) {
  std::ifstream in(path);
  if (!in) {
    err = "cannot read " + path;
    return false;
  }
  std::string base = dir_of(path), line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#')
      continue;
    Instance I;
    I.line = lineno;
    size_t ap = line.find(" args=");
    std::string head = ap == std::string::npos ? line : line.substr(0, ap);
    std::string args = ap == std::string::npos ? "" : line.substr(ap + 6);
    std::istringstream hs(head);
    std::string field;
    while (hs >> field) {
      size_t eq = field.find('=');
      std::string k = field.substr(0, eq), v = eq == std::string::npos ? "" : field.substr(eq + 1);
      if (k == "ptx")
        I.ptx = v[0] == '/' ? v : base + "/" + v;
      else if (k == "sym")
        I.sym = v;
      else if (k == "name")
        I.name = v;
      else if (k == "pred")
        I.pred = v;
      else if (k == "class")
        I.cls = v;
      else if (k == "grid" && !parse_dims(v, I.grid))
        I.error = "bad grid " + v;
      else if (k == "block" && !parse_dims(v, I.block))
        I.error = "bad block " + v;
      else if (k == "vary") {
        long long a = -1, c = 0;
        size_t colon = v.find(':');
        if (colon == std::string::npos || !to_i64(v.substr(0, colon), a) ||
            !to_i64(v.substr(colon + 1), c) || a < 0 || c == 0 || c > (1ll << 30) ||
            c < -(1ll << 30))
          I.error = "bad vary " + v + " (want PARAM:COUNT or PARAM:-COUNT)";
        I.vary_arg = (int)a;
        I.vary_down = c < 0;
        I.vary_count = (unsigned)(c < 0 ? -c : c);
      } else if (k == "vary_grid") {
        long long c = 0;
        if (!to_i64(v, c) || c < 1 || c > (1ll << 30))
          I.error = "bad vary_grid " + v;
        I.vary_grid = (unsigned)c;
      }
    }
    if (ap == std::string::npos && I.error.empty())
      I.error = "no args= field";
    std::istringstream as(args);
    std::string tok;
    while (as >> tok && I.error.empty()) {
      Arg a;
      std::string e;
      if (!parse_arg(tok, a, e))
        I.error = e;
      I.args.push_back(a);
    }
    if (I.error.empty() && I.vary_arg >= 0 &&
        (I.vary_arg >= (int)I.args.size() || I.args[I.vary_arg].kind != ArgKind::Scalar ||
         I.args[I.vary_arg].size != 4))
      I.error = strfmt("vary: parameter %d is not a 4-byte scalar", I.vary_arg);
    for (size_t i = 0; i < I.args.size() && I.error.empty(); ++i) {
      if (I.args[i].kind != ArgKind::Ptr)
        continue;
      int cur = (int)i;
      for (size_t hop = 0; I.args[cur].kind == ArgKind::Ptr; ++hop) {
        int r = I.args[cur].ref;
        if (r < 0 || r >= (int)I.args.size() || hop > I.args.size()) {
          I.error = strfmt("ptr of parameter %zu does not resolve", i);
          break;
        }
        cur = r;
      }
      if (I.error.empty() && I.args[cur].kind != ArgKind::Buf)
        I.error = strfmt("ptr of parameter %zu refers to a scalar", i);
    }
    if (I.sym.empty() || I.ptx.empty())
      I.error = "missing sym= or ptx=";
    out.push_back(std::move(I));
  }
  return true;
}

// ---------------------------------------------------------------- device

void Gpu::init(int ordinal) {
  CU(cuInit(0));
  CU(cuDeviceGet(&dev, ordinal));
  CU(cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_SPIN));
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  char nm[256] = "";
  CU(cuDeviceGetName(nm, sizeof nm, dev));
  name = nm;
  CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  int least = 0, greatest = 0;
  CU(cuCtxGetStreamPriorityRange(&least, &greatest));
  CU(cuStreamCreateWithPriority(&lo, CU_STREAM_NON_BLOCKING, least));
  CU(cuStreamCreateWithPriority(&hi, CU_STREAM_NON_BLOCKING, greatest));
  int ops = 0;
  memops = cuDeviceGetAttribute(&ops, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, dev) ==
               CUDA_SUCCESS && ops;
  // v2 stream memory operations are always available on current drivers;
  // the attribute only describes the deprecated v1 batch API.
  memops = true;
}

std::string Gpu::json() const {
  int drv = 0, ma = 0, mi = 0;
  cuDriverGetVersion(&drv);
  cuDeviceGetAttribute(&ma, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  cuDeviceGetAttribute(&mi, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  return Json().str("name", name).integer("sms", sms).integer("driver", drv)
      .str("sm", strfmt("%d%d", ma, mi)).text();
}

void Module::load(const std::string &ptx_path) {
  std::string cubin = ptx_path;
  if (cubin.size() > 4 && cubin.compare(cubin.size() - 4, 4, ".ptx") == 0)
    cubin = cubin.substr(0, cubin.size() - 4) + ".cubin";
  std::ifstream ptx(ptx_path);
  std::string text((std::istreambuf_iterator<char>(ptx)), std::istreambuf_iterator<char>());
  std::ifstream bin(cubin, std::ios::binary);
  if (bin) {
    std::string data((std::istreambuf_iterator<char>(bin)), std::istreambuf_iterator<char>());
    CU(cuModuleLoadData(&mod_, data.data()));
  } else {
    if (text.empty())
      throw std::runtime_error("cannot read " + ptx_path);
    CU(cuModuleLoadData(&mod_, text.c_str()));
  }
  for (const std::string &name : ptx_globals(text)) {
    CUdeviceptr p;
    size_t bytes;
    if (cuModuleGetGlobal(&p, &bytes, mod_, name.c_str()) != CUDA_SUCCESS || !bytes)
      continue;
    Global g{p, std::vector<uint8_t>(bytes)};
    CU(cuMemcpyDtoH(g.init.data(), p, bytes));
    globals_.push_back(std::move(g));
  }
}

std::vector<std::string> ptx_globals(const std::string &text) {
  // Mutable module globals: `.global` declarations other than gmem's own.
  std::vector<std::string> out;
  std::istringstream ls(text);
  std::string line;
  while (std::getline(ls, line)) {
    std::istringstream ws(line);
    std::string w, name, prev;
    bool global = false, external = false;
    while (ws >> w) {
      if (w[0] == '.') {
        global |= w == ".global";
        external |= w == ".extern";
      } else if (prev != ".align") {
        name = w;
        break;
      }
      prev = w;
    }
    if (!global || external || name.empty() || name.compare(0, 7, "__gmem_") == 0)
      continue;
    out.push_back(name.substr(0, name.find_first_of("[;= ")));
  }
  return out;
}

std::vector<uint8_t> Module::global_bytes(const std::string &name) const {
  CUdeviceptr p;
  size_t bytes = 0;
  if (cuModuleGetGlobal(&p, &bytes, mod_, name.c_str()) != CUDA_SUCCESS)
    return {};
  std::vector<uint8_t> out(bytes);
  CU(cuMemcpyDtoH(out.data(), p, bytes));
  return out;
}

// PB_CARVEOUT=PCT or clones:PCT (diagnostics): the preferred shared-memory
// carveout (percent of the unified L1/shared array, 0 = most L1) of every
// function the harness loads, or of the clones only (__gmem_pr*). The
// driver picks the split per launch where nothing is preferred; a clone
// with a few bytes of static shared memory may get a larger shared part,
// and a smaller L1, than its kernel with none.
static void apply_carveout(CUfunction f, const std::string &name) {
  static const char *v = getenv("PB_CARVEOUT");
  if (!v || !*v)
    return;
  std::string s = v;
  bool clones_only = s.rfind("clones:", 0) == 0;
  if (clones_only)
    s = s.substr(7);
  if (clones_only && name.rfind("__gmem_pr", 0) != 0)
    return;
  char *end = nullptr;
  long pct = strtol(s.c_str(), &end, 10);
  if (end == s.c_str() || *end || pct < -1 || pct > 100)
    throw std::runtime_error("PB_CARVEOUT: expected PCT or clones:PCT, PCT in -1..100, got '" +
                             std::string(v) + "'");
  CU(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, int(pct)));
  int shared = 0, regs = 0, occ = 0;
  cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
  cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
  cuOccupancyMaxActiveBlocksPerMultiprocessor(&occ, f, 256, 0);
  fprintf(stderr, "carveout %ld%%: %s static shared %d B, %d regs, %d CTAs of 256/SM\n", pct,
          name.c_str(), shared, regs, occ);
}

CUfunction Module::fn(const std::string &name) const {
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod_, name.c_str()));
  apply_carveout(f, name);
  return f;
}

bool Module::has(const std::string &name) const {
  CUfunction f;
  return cuModuleGetFunction(&f, mod_, name.c_str()) == CUDA_SUCCESS;
}

void Module::restore_globals(CUstream s) {
  for (Global &g : globals_)
    CU(cuMemcpyHtoDAsync(g.ptr, g.init.data(), g.init.size(), s));
}

void Helpers::from(const Module &m) {
  fill = m.fn("fill");
  count_diff = m.fn("count_diff");
  trigger = m.fn("trigger");
}

void wait_stream(CUstream s, double timeout_s) {
  double until = now_s() + timeout_s;
  CUresult r;
  while ((r = cuStreamQuery(s)) == CUDA_ERROR_NOT_READY)
    if (now_s() > until)
      throw HangError(strfmt("stream still busy %.0f s later (kernel hangs?)", timeout_s));
  CU(r);
}

uint64_t buffer_seed(const std::string &name, int param) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : name)
    h = (h ^ c) * 0x100000001b3ull;
  return h ^ ((uint64_t)(param + 1) * 0x9E3779B97F4A7C15ull);
}

void Launch::setup(const Instance &in, const Helpers &h, CUstream s) {
  release();
  size_t n = in.args.size();
  bufs_.assign(n, 0);
  bytes_.assign(n, 0);
  slots_.assign(n + 4, 0); // + ctl and grid_x, grid_y, grid_z (clone ABI version 2)
  for (int d = 0; d < 3; ++d)
    grid_[d] = in.grid[d];
  for (size_t i = 0; i < n; ++i) {
    const Arg &a = in.args[i];
    if (a.kind == ArgKind::Buf) {
      bytes_[i] = a.count * a.elem;
      CU(cuMemAlloc(&bufs_[i], std::max<uint64_t>(bytes_[i], 256)));
      unsigned long long count = a.count, seed = buffer_seed(in.name, (int)i);
      int type = a.type, mode = a.mode;
      long long lo = a.lo, hi = a.hi;
      double cf = a.cf;
      void *p = (void *)bufs_[i];
      void *kp[] = {&p, &count, &type, &mode, &seed, &lo, &hi, &cf};
      unsigned blocks = (unsigned)std::min<uint64_t>((a.count + 255) / 256, 8192);
      if (blocks)
        CU(cuLaunchKernel(h.fill, blocks, 1, 1, 256, 1, 1, 0, s, kp, nullptr));
      slots_[i] = bufs_[i];
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const Arg &a = in.args[i];
    if (a.kind == ArgKind::Scalar) {
      slots_[i] = a.bits;
    } else if (a.kind == ArgKind::Ptr) {
      long long off = 0;
      int cur = (int)i;
      while (in.args[cur].kind == ArgKind::Ptr) {
        off += in.args[cur].off;
        cur = in.args[cur].ref;
      }
      slots_[i] = bufs_[cur] + off;
    }
  }
}

void Launch::release() {
  for (CUdeviceptr p : bufs_)
    if (p)
      cuMemFree(p);
  bufs_.clear();
}

void **Launch::params(bool with_ctl) {
  ptrs_.clear();
  size_t n = slots_.size() - 4;
  for (size_t i = 0; i < n; ++i)
    ptrs_.push_back(&slots_[i]);
  if (with_ctl) {
    // The u32 grid values sit in the low bytes of their 8-byte slots
    // (little-endian), where cuLaunchKernel reads 4 bytes.
    slots_[n] = ctl_;
    for (int d = 0; d < 3; ++d)
      slots_[n + 1 + d] = grid_[d];
    slots_[n + 3] |= uint64_t(scaled_ && batch_ > 0xff ? 0xff : batch_) << 16;
    if (scaled_)
      slots_[n + 3] |= uint64_t(scale_) << 24;
    for (int k = 0; k < 4; ++k)
      ptrs_.push_back(&slots_[n + k]);
  }
  return ptrs_.data();
}

void Launch::vary(const Instance &in, unsigned step) {
  if (in.vary_arg < 0 || in.vary_count == 0 || (size_t)in.vary_arg >= slots_.size())
    return;
  const Arg &a = in.args[in.vary_arg];
  const unsigned k = step % in.vary_count;
  uint32_t bits = (uint32_t)a.bits;
  if (a.tok.rfind("f32:", 0) == 0) {
    float x;
    memcpy(&x, &bits, 4);
    x *= 1.0f + 1e-6f * (float)k;
    memcpy(&bits, &x, 4);
  } else {
    bits = in.vary_down ? bits - k : bits + k;
  }
  slots_[in.vary_arg] = bits;
}

double time_launch(const std::function<void()> &go, CUstream s, double timeout_s) {
  CUevent a, b;
  CU(cuEventCreate(&a, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&b, CU_EVENT_DEFAULT));
  CU(cuEventRecord(a, s));
  go();
  CU(cuEventRecord(b, s));
  if (timeout_s > 0)
    wait_stream(s, timeout_s);
  else
    CU(cuStreamSynchronize(s));
  float ms = 0;
  CU(cuEventElapsedTime(&ms, a, b));
  cuEventDestroy(a);
  cuEventDestroy(b);
  return ms;
}

unsigned seg_scale_env() {
  const char *v = getenv("PB_SEG_SCALE");
  const long s = v ? strtol(v, nullptr, 10) : 0;
  return s < 0 ? 0 : s > 3 ? 3 : unsigned(s);
}

unsigned batch_for(double tau_us) {
  if (!(tau_us > 0))
    return 1;
  return (unsigned)std::clamp(std::floor(kBatchUs / tau_us), 1.0, 65535.0);
}

uint64_t Launch::total_bytes() const {
  uint64_t t = 0;
  for (uint64_t b : bytes_)
    t += b;
  return t;
}

void launch(CUfunction f, const Instance &in, void **params, CUstream s) {
  launch(f, in, in.grid[0], params, s);
}

void launch(CUfunction f, const Instance &in, unsigned gx, void **params, CUstream s) {
  CU(cuLaunchKernel(f, gx, in.grid[1], in.grid[2], in.block[0], in.block[1], in.block[2], 0, s,
                    params, nullptr));
}

bool ptx_has_entry(const std::string &text, const std::string &name) {
  auto ident = [](char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; };
  for (size_t at = text.find(".entry"); at != std::string::npos;
       at = text.find(".entry", at + 6)) {
    size_t p = at + 6;
    if (p >= text.size() || !isspace((unsigned char)text[p]))
      continue;
    while (p < text.size() && isspace((unsigned char)text[p]))
      ++p;
    if (text.compare(p, name.size(), name) == 0 &&
        (p + name.size() == text.size() || !ident(text[p + name.size()])))
      return true;
  }
  return false;
}

bool ptx_file_has_entry(const std::string &ptx_path, const std::string &name) {
  std::ifstream f(ptx_path);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return ptx_has_entry(text, name);
}

const char *form_name(Form f) {
  switch (f) {
  case Form::Light: return "light";
  case Form::Alt: return "alt";
  case Form::Free: return "free";
  default: return "full";
  }
}

CloneInfo parse_clone_info(const std::vector<uint8_t> &bytes) {
  CloneInfo c;
  if (bytes.empty()) {
    c.error = "no info global";
    return c;
  }
  if (bytes.size() < 20) {
    c.error = strfmt("info global of %zu bytes, expected 20", bytes.size());
    return c;
  }
  uint32_t w[5];
  memcpy(w, bytes.data(), 20);
  c.magic = w[0];
  c.version = w[1];
  c.flags = w[2];
  c.loop_checkpoints = w[3];
  c.interval_k = w[4];
  if (c.magic != kInfoMagic)
    c.error = strfmt("info magic 0x%08x, expected 0x%08x", c.magic, kInfoMagic);
  else if (c.version != kAbiVersion)
    c.error = strfmt("info version %u, harness expects %u", c.version, kAbiVersion);
  else if (c.flags & kFlagNoClone)
    c.error = strfmt("info flags 0x%x: no clone (NoClone)", c.flags);
  return c;
}

uint64_t tail_static_end(uint64_t total, unsigned P, unsigned tail_percent) {
  uint64_t pool = total * tail_percent / 100;
  return std::min<uint64_t>(total, std::max<uint64_t>(P, total - pool));
}

uint64_t ctl_work_done(const uint32_t *words, size_t nwords, uint64_t total, unsigned P,
                       unsigned tail_percent) {
  if (P == 0) {
    uint64_t c = 0;
    for (uint64_t i = 0; i < total && 2 + i / 32 < nwords; ++i)
      c += (words[2 + i / 32] >> (i % 32)) & 1;
    return c;
  }
  // Persistent (ABI v2): CTA p runs p, p + P, ... below the static end (the
  // total without a balanced tail), then tickets it claimed from word 1; its
  // words are redo (+1) and resume (+1, 0 = never ran): the next ticket it
  // owns, static or claimed, or past the total when it finished.
  const uint64_t end = tail_percent ? tail_static_end(total, P, tail_percent) : total;
  uint64_t done = 0, held = 0, redos = 0;
  for (unsigned p = 0; p < P && 2 + 2 * (size_t)p + 1 < nwords; ++p) {
    uint32_t redo = words[2 + 2 * p], resume = words[3 + 2 * p];
    uint64_t next = resume ? resume - 1 : p;
    uint64_t upto = std::min<uint64_t>(next, end);
    done += upto > p ? (upto - p + P - 1) / P : 0;
    held += next >= end && next < total; // claimed, not started
    redos += redo != 0; // started, counted above or among the claimed
  }
  if (tail_percent)
    done += std::min<uint64_t>(words[1], total - end);
  return done >= held + redos ? done - held - redos : 0;
}

void Ctl::alloc(uint64_t n, unsigned persistent_ctas, unsigned tail) {
  release();
  ctas = n;
  P = persistent_ctas;
  tail_percent = tail;
  uint64_t words = std::max<uint64_t>((n + 31) / 32, 2 * (uint64_t)P);
  bytes = 8 + 4 * words;
  bytes = (bytes + 255) / 256 * 256;
  CU(cuMemAlloc(&ptr, bytes));
}

void Ctl::release() {
  if (ptr)
    cuMemFree(ptr);
  ptr = 0;
}

void Ctl::reset(CUstream s) { CU(cuMemsetD32Async(ptr, 0, bytes / 4, s)); }

void Ctl::set_request(CUstream s, uint32_t value) { CU(cuMemsetD32Async(ptr, value, 1, s)); }

uint64_t Ctl::done_count() {
  // Only the words the kind uses: header + bitmap, or header + redo[2P].
  size_t n = 2 + (P ? 2 * (size_t)P : (size_t)((ctas + 31) / 32));
  std::vector<uint32_t> words(n);
  CU(cuMemcpyDtoH(words.data(), ptr, n * 4));
  return ctl_work_done(words.data(), n, ctas, P, tail_percent);
}

Module *CloneLaunch::open(const Instance &in, int sms,
                          std::map<std::string, std::unique_ptr<Module>> &mods, Json &j,
                          std::string *why) {
  auto &mod = mods[in.ptx];
  if (!mod) {
    mod.reset(new Module());
    mod->load(in.ptx);
  }
  *why = find(*mod, in.sym);
  if (why->empty())
    *why = configure(in.grid, in.block, 0, sms);
  describe(j);
  return why->empty() ? mod.get() : nullptr;
}

std::string CloneLaunch::open_form(const Module &m, const Instance &in, int sms, Json &j,
                                   Form form, const char *label) {
  std::string why = find(m, in.sym, form);
  if (why.empty())
    why = configure(in.grid, in.block, 0, sms);
  if (why.empty())
    j.integer(std::string(label ? label : form_name(form)) + "_P", P);
  return why;
}

std::string CloneLaunch::find(const Module &m, const std::string &sym, Form form) {
  this->form = form;
  name = (form == Form::Light  ? "__gmem_prl_"
          : form == Form::Alt  ? "__gmem_pra_"
          : form == Form::Free ? "__gmem_prf_"
                               : "__gmem_pre_") +
         sym;
  fn = nullptr;
  info = parse_clone_info(m.global_bytes("__gmem_pre_info_" + sym));
  if (!info.error.empty())
    return info.error + " (__gmem_pre_info_" + sym + ")";
  if (form == Form::Light && !info.has_light())
    return "no light twin (info flag bit 5 clear)";
  if (form == Form::Alt && !info.has_alt())
    return "no alternate clone (info flag bit 6 clear)";
  if (form == Form::Free && !info.has_free())
    return "no barrier-free clone (info flag bit 7 clear)";
  if (!m.has(name))
    return "no clone " + name + " (entry-only/no-clone kernel)";
  fn = m.fn(name);
  persistent = info.persistent();
  return "";
}

std::string CloneLaunch::configure(const unsigned g[3], const unsigned b[3], unsigned dyn_smem,
                                   int sms) {
  for (int d = 0; d < 3; ++d) {
    grid[d] = g[d];
    block[d] = b[d];
  }
  smem = dyn_smem;
  P = 0;
  ctl.release();
  // As libgmemrt: such a clone is sound only for whole-warp rows.
  if ((info.flags & kFlagWarpAlignedBlock) && b[0] % 32 != 0)
    return strfmt("blockDim.x %u is not a multiple of 32 (info flag bit 11)", b[0]);
  uint64_t n = total();
  if (persistent) {
    if (n >= (1ull << 31))
      return strfmt("persistent clone: %llu CTAs, the ABI needs fewer than 2^31",
                    (unsigned long long)n);
    if (g[1] > 65535 || g[2] > 65535)
      return "persistent clone: grid y or z above the hardware's 65535";
    int per_sm = 0;
    CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, (int)(b[0] * b[1] * b[2]),
                                                   dyn_smem));
    if (per_sm < 1)
      return strfmt("persistent clone: occupancy 0 for a block of %u threads",
                    b[0] * b[1] * b[2]);
    // PB_NARROW=N (diagnostics): N fewer persistent CTAs per SM than fit
    // (at least one), as if the clone's occupancy were lower.
    static const int narrow = [] {
      const char *v = getenv("PB_NARROW");
      return v && *v ? std::max(0, atoi(v)) : 0;
    }();
    per_sm = std::max(1, per_sm - narrow);
    P = (unsigned)std::min<uint64_t>(n, (uint64_t)sms * (uint64_t)per_sm * std::max(spread, 1u));
    if (max_P)
      P = std::min(P, max_P);
  }
  ctl.alloc(n, P, info.tail_percent(form)); // only the forms that claim
  return "";
}

void CloneLaunch::launch_grid(unsigned out[3]) const {
  for (int d = 0; d < 3; ++d)
    out[d] = persistent ? (d == 0 ? P : 1) : grid[d];
}

void CloneLaunch::launch(void **params, CUstream s) const {
  unsigned g[3];
  launch_grid(g);
  CU(cuLaunchKernel(fn, g[0], g[1], g[2], block[0], block[1], block[2], smem, s, params,
                    nullptr));
}

void CloneLaunch::describe(Json &j) const {
  j.boolean("persistent", persistent).integer("P", P).integer("info_version", info.version)
      .integer("info_flags", info.flags);
}

uint64_t device_diff(const Helpers &h, CUstream s, CUdeviceptr a, CUdeviceptr b, uint64_t n,
                     uint64_t *first) {
  static CUdeviceptr result = 0;
  if (!result)
    CU(cuMemAlloc(&result, 16));
  uint64_t init[2] = {0, ~0ull};
  CU(cuStreamSynchronize(s));
  CU(cuMemcpyHtoD(result, init, 16));
  unsigned long long nn = n;
  void *pa = (void *)a, *pbp = (void *)b, *pr = (void *)result;
  void *kp[] = {&pa, &pbp, &nn, &pr};
  unsigned blocks = (unsigned)std::max<uint64_t>(1, std::min<uint64_t>((n / 4 + 255) / 256, 2048));
  CU(cuLaunchKernel(h.count_diff, blocks, 1, 1, 256, 1, 1, 0, s, kp, nullptr));
  CU(cuStreamSynchronize(s));
  uint64_t out[2];
  CU(cuMemcpyDtoH(out, result, 16));
  if (first)
    *first = out[1];
  return out[0];
}

// ------------------------------------------------------------ supervision

namespace {
void write_all(int fd, const std::string &s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    off += (size_t)n;
  }
}
} // namespace

void supervise(int n, double watchdog_s, const std::function<void(int, const Report &)> &work,
               const std::function<void(int, const std::string &)> &done,
               const std::function<void(int, const std::string &)> &failed) {
  int next = 0;
  while (next < n) {
    int fds[2];
    if (pipe(fds) != 0)
      throw std::runtime_error("pipe failed");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
      throw std::runtime_error("fork failed");
    if (pid == 0) {
      close(fds[0]);
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      int fd = fds[1];
      Report rep = [fd](int i, const std::string &json) {
        std::string one = json;
        std::replace(one.begin(), one.end(), '\n', ' ');
        write_all(fd, strfmt("R %d ", i) + one + "\n");
      };
      try {
        work(next, [&](int i, const std::string &j) { rep(i, j); });
      } catch (const std::exception &e) {
        write_all(fd, std::string("F ") + e.what() + "\n");
        _exit(6);
      }
      _exit(0);
    }
    close(fds[1]);
    std::string buf;
    int current = next;
    double started = now_s();
    bool killed = false;
    std::string fatal;
    for (;;) {
      pollfd pf = {fds[0], POLLIN, 0};
      int pr = poll(&pf, 1, 100);
      if (now_s() - started > watchdog_s) {
        kill(pid, SIGKILL);
        killed = true;
        break;
      }
      if (pr <= 0)
        continue;
      char tmp[65536];
      ssize_t got = read(fds[0], tmp, sizeof tmp);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      buf.append(tmp, (size_t)got);
      size_t nl;
      while ((nl = buf.find('\n')) != std::string::npos) {
        std::string l = buf.substr(0, nl);
        buf.erase(0, nl + 1);
        if (l.compare(0, 2, "R ") == 0) {
          int i = atoi(l.c_str() + 2);
          size_t sp = l.find(' ', 2);
          done(i, sp == std::string::npos ? "{}" : l.substr(sp + 1));
          current = i + 1;
          started = now_s();
        } else if (l.compare(0, 2, "F ") == 0) {
          fatal = l.substr(2);
        }
      }
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (current >= n)
      return;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 5 && !killed) {
      next = current; // the worker reported its item and left a broken context
      continue;
    }
    std::string why = killed ? strfmt("watchdog: item ran longer than %.0f s", watchdog_s)
                      : !fatal.empty() ? fatal
                      : WIFSIGNALED(status) ? strfmt("worker killed by signal %d", WTERMSIG(status))
                      : WIFEXITED(status) && WEXITSTATUS(status) == 0
                          ? std::string("worker stopped early (time budget)")
                          : strfmt("worker exited with status %d", WEXITSTATUS(status));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !killed) {
      for (int i = current; i < n; ++i)
        failed(i, why);
      return;
    }
    failed(current, why);
    next = current + 1;
  }
}

} // namespace pb
