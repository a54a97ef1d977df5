// The harness's device side: the GPU, modules, a launch's buffers and
// arguments, timing (see harness.h).

#include "harness.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pb {

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
  CU(cuLaunchKernel(f, gx, in.grid[1], in.grid[2], in.block[0], in.block[1], in.block[2],
                    in.smem, s, params, nullptr));
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

} // namespace pb
