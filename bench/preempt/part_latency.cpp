// Part 1: preemption latency of the clones, on victims of ~1, 10 and 100 ms.
//
// Victims (kernels.cu): victim_loop (idempotent, per-thread loop checks) and
// victim_tiled (idempotent, checks joined to __syncthreads) run one wave of
// long CTAs and get request 2; victim_accum (non-idempotent: out += f(in))
// runs many ~20 us CTAs and gets request 1, so its latency is bounded by one
// CTA's run time. A trial: reset the control block, launch the clone on the
// low-priority stream, wait until it runs (a host-mapped flag), wait a random
// fraction of its run time, then write the request with cuStreamWriteValue32
// on the high-priority stream. Host latency: from just before that call
// until cuEventQuery reports the victim done. Device latency: event recorded
// on the high-priority stream right before the write to the event after the
// victim. Trials where every CTA finished anyway count as too late.
// Also: the same for victims built with other check budgets, and each
// victim's steady-state cost (clone at request 0 against the original).
#include "parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>
#include <cstring>
#include <memory>
#include <random>

namespace pb {

namespace {

struct Item {
  std::string variant, path, victim, kind; // kind: latency | steady
  double target_ms = 10, lo = 0.02, hi = 0.6;
  int trials = 0;
  bool verify = false;
};

struct Victim {
  CUfunction orig = nullptr, clone = nullptr;
  unsigned grid = 0;
  int iters = 1, mask = 0, n = 0;
  CUdeviceptr in = 0, out = 0, pristine = 0, ref = 0;
  uint64_t out_bytes = 0;
  volatile int *started = nullptr;
  CUdeviceptr started_dev = 0;
  std::vector<uint32_t> info;
  double cta_us = 0, measured_ms = 0;
  unsigned long long slots[6];
  void *params[6];

  ~Victim() {
    for (CUdeviceptr p : {in, out, pristine, ref})
      if (p)
        cuMemFree(p);
    if (started)
      cuMemFreeHost((void *)started);
  }
  void **args(const std::string &victim, CUdeviceptr ctl) {
    int k = 0;
    slots[k++] = in;
    slots[k++] = out;
    slots[k++] = (unsigned)iters;
    if (victim == "victim_accum")
      slots[k++] = (unsigned)mask;
    if (victim == "victim_tiled")
      slots[k++] = (unsigned)n;
    slots[k++] = started_dev;
    slots[k] = ctl;
    for (int i = 0; i <= k; ++i)
      params[i] = &slots[i];
    return params;
  }
};

double time_launch(CUfunction f, unsigned grid, void **args, CUstream s) {
  CUevent a, b;
  CU(cuEventCreate(&a, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&b, CU_EVENT_DEFAULT));
  CU(cuEventRecord(a, s));
  CU(cuLaunchKernel(f, grid, 1, 1, 256, 1, 1, 0, s, args, nullptr));
  CU(cuEventRecord(b, s));
  CU(cuStreamSynchronize(s));
  float ms = 0;
  CU(cuEventElapsedTime(&ms, a, b));
  cuEventDestroy(a);
  cuEventDestroy(b);
  return ms;
}

void prepare(Victim &v, const Item &it, Module &m, Gpu &gpu, const Helpers &h, Ctl &ctl) {
  v.orig = m.fn(it.victim);
  v.clone = m.fn("__gmem_pre_" + it.victim);
  std::vector<uint8_t> info = m.global_bytes("__gmem_pre_info_" + it.victim);
  v.info.assign(5, 0);
  if (info.size() >= 20)
    memcpy(v.info.data(), info.data(), 20);
  int nb = 0;
  CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, v.clone, 256, 0));
  unsigned wave = (unsigned)(gpu.sms * std::max(nb, 1));
  bool accum = it.victim == "victim_accum";
  uint64_t floats = accum ? (1ull << 24) : (uint64_t)wave * 256;
  v.mask = (int)((1u << 24) - 1);
  v.n = 1 << 22;
  uint64_t in_floats = it.victim == "victim_tiled" ? (uint64_t)v.n : floats;
  v.out_bytes = floats * 4;
  CU(cuMemAlloc(&v.in, in_floats * 4));
  CU(cuMemAlloc(&v.out, v.out_bytes));
  CU(cuMemAlloc(&v.pristine, v.out_bytes));
  CU(cuMemAlloc(&v.ref, v.out_bytes));
  unsigned long long cnt = in_floats, seed = buffer_seed(it.victim, 0);
  int type = 0, mode = 0;
  long long lo = 0, hi = 0;
  double cf = 0;
  void *pin = (void *)v.in;
  void *kp[] = {&pin, &cnt, &type, &mode, &seed, &lo, &hi, &cf};
  CU(cuLaunchKernel(h.fill, 1024, 1, 1, 256, 1, 1, 0, gpu.lo, kp, nullptr));
  CU(cuMemsetD32Async(v.out, 0, floats, gpu.lo));
  CU(cuMemsetD32Async(v.pristine, 0, floats, gpu.lo));
  void *host = nullptr;
  CU(cuMemHostAlloc(&host, 64, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
  v.started = (volatile int *)host;
  CU(cuMemHostGetDevicePointer(&v.started_dev, host, 0));
  // Calibrate: one wave at a small iteration count, scaled to the target.
  v.grid = wave;
  ctl.alloc(wave);
  ctl.reset(gpu.lo);
  v.iters = it.victim == "victim_tiled" ? 64 : 2000;
  double t0 = time_launch(v.clone, v.grid, v.args(it.victim, ctl.ptr), gpu.lo);
  double per_iter_ms = t0 / v.iters;
  if (accum) {
    v.iters = std::max(1, (int)(0.020 / per_iter_ms)); // ~20 us CTAs
    ctl.reset(gpu.lo);
    v.cta_us = 1000.0 * time_launch(v.clone, v.grid, v.args(it.victim, ctl.ptr), gpu.lo);
    double waves = std::max(1.0, std::round(it.target_ms / std::max(v.cta_us / 1000.0, 1e-4)));
    v.grid = (unsigned)std::min(waves * wave, 2.0e9);
  } else {
    v.iters = std::max(1, (int)std::min(it.target_ms / per_iter_ms, 2.0e9));
  }
  ctl.alloc(v.grid);
  ctl.reset(gpu.lo);
  v.measured_ms = time_launch(v.clone, v.grid, v.args(it.victim, ctl.ptr), gpu.lo);
  if (!accum)
    v.cta_us = 1000.0 * v.measured_ms;
  // Reference output of the original (for verified relaunches).
  CU(cuMemcpyDtoD(v.out, v.pristine, v.out_bytes));
  time_launch(v.orig, v.grid, v.args(it.victim, 0), gpu.lo);
  CU(cuMemcpyDtoD(v.ref, v.out, v.out_bytes));
}

std::string stats(const std::vector<double> &v) {
  double mean = 0;
  for (double x : v)
    mean += x;
  mean = v.empty() ? NAN : mean / (double)v.size();
  return Json().num("p50", percentile(v, 50)).num("p90", percentile(v, 90))
      .num("p99", percentile(v, 99)).num("max", percentile(v, 100)).num("mean", mean).text();
}

std::string run_item(const Item &it, Gpu &gpu, const Helpers &h,
                     std::map<std::string, std::unique_ptr<Module>> &mods, uint64_t seed,
                     double deadline) {
  auto &m = mods[it.path];
  if (!m) {
    m.reset(new Module());
    m->load(it.path);
  }
  Json j;
  j.str("variant", it.variant).str("victim", it.victim).str("kind", it.kind)
      .num("target_ms", it.target_ms);
  Victim v;
  Ctl ctl;
  prepare(v, it, *m, gpu, h, ctl);
  bool idem = it.victim != "victim_accum";
  uint32_t request = idem ? 2 : 1;
  j.integer("request", request).integer("grid", v.grid).integer("iters", v.iters)
      .integer("info_flags", v.info[2]).integer("loop_checkpoints", v.info[3])
      .integer("interval_k", v.info[4])
      .num("measured_ms", v.measured_ms).num("cta_us", v.cta_us);
  CUstream s = gpu.lo;
  if (it.kind == "steady") {
    std::vector<double> to, tc;
    for (int r = 0; r < 9; ++r) {
      bool cf = r & 1;
      for (int k = 0; k < 2; ++k) {
        bool c = (k == 0) == cf;
        if (c)
          ctl.reset(s);
        double t = time_launch(c ? v.clone : v.orig, v.grid, v.args(it.victim, c ? ctl.ptr : 0), s);
        (c ? tc : to).push_back(t);
      }
    }
    double mo = percentile(to, 50), mc = percentile(tc, 50);
    return j.num("orig_ms", mo).num("clone_ms", mc).num("overhead", mc / mo - 1.0).text();
  }
  CUevent ew, eend;
  CU(cuEventCreate(&ew, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&eend, CU_EVENT_DEFAULT));
  std::mt19937_64 rng(seed ^ buffer_seed(it.victim + it.variant, (int)it.target_ms));
  std::uniform_real_distribution<double> U(it.lo, it.hi);
  std::vector<double> host_us, dev_us, remaining_ms;
  int late = 0, verified = 0, bad = 0, incomplete = 0, trials = 0;
  for (int t = 0; t < it.trials && now_s() < deadline; ++t) {
    ++trials;
    bool verify = it.verify && t % 4 == 0;
    if (verify || !idem)
      CU(cuMemcpyDtoDAsync(v.out, v.pristine, v.out_bytes, s));
    ctl.reset(s);
    *v.started = 0;
    __sync_synchronize();
    CU(cuLaunchKernel(v.clone, v.grid, 1, 1, 256, 1, 1, 0, s, v.args(it.victim, ctl.ptr),
                      nullptr));
    CU(cuEventRecord(eend, s));
    double wait_until = now_s() + 2.0;
    while (!*v.started && now_s() < wait_until) {
    }
    double frac = U(rng);
    double t_start = now_s();
    spin_until(t_start + frac * v.measured_ms * 1e-3);
    double t0 = now_s();
    CU(cuEventRecord(ew, gpu.hi));
    CU(cuStreamWriteValue32(gpu.hi, ctl.ptr, request, 0));
    CUresult q;
    while ((q = cuEventQuery(eend)) == CUDA_ERROR_NOT_READY)
      if (now_s() - t0 > 5.0 + 2e-3 * v.measured_ms)
        throw HangError(strfmt("%s still running 5 s after request %u", it.victim.c_str(),
                               request));
    double t1 = now_s();
    CU(q);
    CU(cuStreamSynchronize(gpu.hi));
    float ms = 0;
    CU(cuEventElapsedTime(&ms, ew, eend));
    uint64_t done = ctl.done_count();
    if (done == ctl.ctas) {
      ++late;
    } else {
      host_us.push_back((t1 - t0) * 1e6);
      dev_us.push_back(ms * 1e3);
      remaining_ms.push_back(v.measured_ms * (1.0 - frac));
    }
    if (verify) {
      ctl.set_request(s, 0);
      CU(cuLaunchKernel(v.clone, v.grid, 1, 1, 256, 1, 1, 0, s, v.args(it.victim, ctl.ptr),
                        nullptr));
      wait_stream(s, 5.0 + 2e-3 * v.measured_ms);
      if (ctl.done_count() != ctl.ctas)
        ++incomplete;
      ++verified;
      if (idem && device_diff(h, s, v.out, v.ref, v.out_bytes, nullptr))
        ++bad;
    }
  }
  cuEventDestroy(ew);
  cuEventDestroy(eend);
  ctl.release();
  j.integer("trials", trials).integer("too_late", late).raw("host_us", stats(host_us))
      .raw("device_us", stats(dev_us)).num("remaining_ms_p50", percentile(remaining_ms, 50))
      .integer("verified_relaunches", verified).integer("verify_mismatches", bad)
      .integer("relaunch_incomplete", incomplete);
  return j.text();
}

} // namespace

int run_latency(const PartOptions &o) {
  std::vector<Item> items;
  const char *victims[] = {"victim_loop", "victim_tiled", "victim_accum"};
  for (const char *v : victims)
    for (double ms : {1.0, 10.0, 100.0}) {
      Item it{"default", o.kernels, v, "latency", ms};
      it.trials = o.trials;
      it.lo = 0.02;
      it.hi = ms <= 1 ? 0.8 : ms <= 10 ? 0.6 : 0.3;
      it.verify = ms <= 1;
      items.push_back(it);
    }
  for (const std::string &var : o.variants) {
    size_t eq = var.find('=');
    std::string name = var.substr(0, eq), path = var.substr(eq + 1);
    for (const char *v : {"victim_loop", "victim_tiled"}) {
      Item it{name, path, v, "latency", 10.0};
      it.trials = std::max(50, o.trials * 3 / 10);
      items.push_back(it);
    }
  }
  std::vector<std::pair<std::string, std::string>> all = {{"default", o.kernels}};
  for (const std::string &var : o.variants)
    all.push_back({var.substr(0, var.find('=')), var.substr(var.find('=') + 1)});
  for (auto &[name, path] : all)
    for (const char *v : victims)
      items.push_back(Item{name, path, v, "steady", 10.0});

  int n = (int)items.size();
  double deadline = now_s() + o.budget_s;
  std::vector<std::string> results(n);
  printf("latency: %d items, %d trials per class, budget %.0f s\n", n, o.trials, o.budget_s);
  supervise(
      n, 90.0,
      [&](int start, const Report &report) {
        Gpu gpu;
        gpu.init(o.device);
        Module km;
        km.load(o.kernels);
        Helpers h;
        h.from(km);
        std::map<std::string, std::unique_ptr<Module>> mods;
        for (int i = start; i < n && now_s() < deadline; ++i) {
          // Leave time for the later (cheaper) items.
          double item_deadline = now_s() + std::max(1.0, (deadline - now_s()) * 0.5);
          try {
            report(i, run_item(items[i], gpu, h, mods, o.seed, item_deadline));
          } catch (const HangError &e) {
            report(i, Json().str("variant", items[i].variant).str("victim", items[i].victim).str("kind", items[i].kind).str("error", e.what()).text());
            _exit(5);
          } catch (const CudaError &e) {
            report(i, Json().str("victim", items[i].victim).str("error", e.what()).text());
            if (e.sticky())
              _exit(5);
          }
        }
      },
      [&](int i, const std::string &json) {
        results[i] = json;
        printf("[%d/%d] %s\n", i + 1, n, json.c_str());
        fflush(stdout);
      },
      [&](int i, const std::string &why) {
        results[i] = Json().str("variant", items[i].variant).str("victim", items[i].victim)
                         .str("kind", items[i].kind).str("error", why).text();
        printf("[%d/%d] %s: %s\n", i + 1, n, items[i].victim.c_str(), why.c_str());
      });
  return write_part_json(o, "latency", results);
}

} // namespace pb
