// Part 1: preemption latency of the clones, on victims of ~1, 10 and 100 ms.
//
// Victims (kernels.cu): victim_loop (idempotent, per-thread loop checks) and
// victim_tiled (idempotent, checks joined to __syncthreads) run one wave of
// long CTAs and get request 2; victim_accum (non-idempotent: out += f(in))
// runs many ~20 us CTAs and gets request 1, so it stops between virtual
// CTAs: within two of them, one on its light twin (late read); rows
// `cta200us` / `light-cta200us` with ~200 us ones, also for
// victim_accum_sync (no loop checkpoints). Rows `waves4` / `spread4`: the idempotent victims on a grid
// of 4 waves, on the resident CTAs and on 4x them (libgmemrt's spread
// launches, whose unstarted CTAs must start and leave at a stop). A trial: reset the control block, launch the clone on the
// low-priority stream, wait until it runs (a host-mapped flag), wait a random
// fraction of its run time, then write the request with cuStreamWriteValue32
// on the high-priority stream. The write is queued there in advance, between
// two events, behind a wait on a host flag; the host releases the flag when
// the request is due, so events and write run back to back on the GPU with
// no host call between them. Device latency: from the event before the
// write (and from the one after it) to the event after the victim; host
// latency: from the flag's release until cuEventQuery reports the victim
// done. (Where the driver cannot wait on host memory, the write and events
// are issued when due, as before.) Trials where every CTA finished anyway
// count as too late.
// Also: the same for victims built with other check budgets, and each
// victim's steady-state cost (clone at request 0 against the original).
// Clones are launched per ABI version 2 (CloneLaunch): a persistent clone
// (info flag bit 4) with grid (P, 1, 1), P = min(grid, SMs x its occupancy),
// its virtual CTAs taking the victim's grid; the others with the victim's
// grid. "Too late" = every (virtual) CTA finished.
// The alternate (variant "alt") and barrier-free (variant "free") forms of
// the idempotent victims get 10 ms rows of their own; the barrier-free form
// only where kernels.ptx has one (victim_loop: no barrier, no shared memory)
// and never for victim_accum (request 1, not idempotent), whose light twin
// (what libgmemrt launches for it) gets rows "light" and "light-cta3us".
#include "parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <memory>
#include <random>

namespace pb {

namespace {

struct Item {
  std::string variant, path, victim, kind; // kind: latency | steady
  double target_ms = 10, lo = 0.02, hi = 0.6;
  int trials = 0;
  bool verify = false;
  double accum_cta_us = 20; ///< victim_accum: run time of one virtual CTA
  Form form = Form::Full;   ///< which clone of the victim runs
  /// Idempotent victims: waves of resident CTAs in the grid, and the clone's
  /// spread (P = spread x the resident CTAs; libgmemrt's spread launches).
  unsigned waves = 1, spread = 1;
};

/// victim_accum and victim_accum_sync: not idempotent, many CTAs of a
/// chosen run time.
bool isAccum(const std::string &victim) { return victim.rfind("victim_accum", 0) == 0; }

struct Victim {
  CUfunction orig = nullptr;
  CloneLaunch clone; // owns the control block
  unsigned grid = 0;
  int iters = 1, mask = 0, n = 0;
  CUdeviceptr in = 0, out = 0, pristine = 0, ref = 0;
  uint64_t out_bytes = 0;
  volatile int *started = nullptr;
  CUdeviceptr started_dev = 0;
  double cta_us = 0, measured_ms = 0;
  unsigned long long slots[9];
  void *params[9];

  ~Victim() {
    for (CUdeviceptr p : {in, out, pristine, ref})
      if (p)
        cuMemFree(p);
    if (started)
      cuMemFreeHost((void *)started);
  }
  /// Parameters of the original (clone = false) or of the clone: the
  /// victim's, then the control block and the user's grid (grid, 1, 1).
  void **args(const std::string &victim, bool for_clone) {
    int k = 0;
    slots[k++] = in;
    slots[k++] = out;
    slots[k++] = (unsigned)iters;
    if (isAccum(victim))
      slots[k++] = (unsigned)mask;
    if (victim == "victim_tiled")
      slots[k++] = (unsigned)n;
    slots[k++] = started_dev;
    if (for_clone) {
      slots[k++] = clone.ctl.ptr;
      slots[k++] = clone.grid[0];
      slots[k++] = clone.grid[1];
      slots[k++] = clone.grid[2];
    }
    for (int i = 0; i < k; ++i)
      params[i] = &slots[i];
    return params;
  }
  /// The victim's grid (1-D, 256 threads) for the clone: P and control block.
  void set_grid(unsigned g, int sms) {
    grid = g;
    const unsigned gd[3] = {g, 1, 1}, bd[3] = {256, 1, 1};
    std::string why = clone.configure(gd, bd, 0, sms);
    if (!why.empty())
      throw std::runtime_error(why);
  }
  void launch_orig(const std::string &victim, CUstream s) {
    CU(cuLaunchKernel(orig, grid, 1, 1, 256, 1, 1, 0, s, args(victim, false), nullptr));
  }
  void launch_clone(const std::string &victim, CUstream s) {
    clone.launch(args(victim, true), s);
  }
};

/// "" or why the victim cannot be run (its clone is missing or of another ABI).
std::string prepare(Victim &v, const Item &it, Module &m, Gpu &gpu, const Helpers &h) {
  v.orig = m.fn(it.victim);
  std::string why = v.clone.find(m, it.victim, it.form);
  if (!why.empty())
    return why;
  const std::string &name = it.victim;
  int nb = 0;
  CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, v.clone.fn, 256, 0));
  unsigned wave = (unsigned)(gpu.sms * std::max(nb, 1));
  bool accum = isAccum(it.victim);
  const unsigned grid0 = accum ? wave : wave * std::max(it.waves, 1u);
  v.clone.spread = it.spread;
  uint64_t floats = accum ? (1ull << 24) : (uint64_t)grid0 * 256;
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
  auto clone_run = [&] {
    v.clone.ctl.reset(gpu.lo);
    return time_launch([&] { v.launch_clone(name, gpu.lo); }, gpu.lo);
  };
  // Calibrate: one wave at a small iteration count, scaled to the target.
  v.set_grid(grid0, gpu.sms);
  v.iters = it.victim == "victim_tiled" ? 64 : 2000;
  double t0 = clone_run();
  double per_iter_ms = t0 / v.iters;
  if (accum) {
    v.iters = std::max(1, (int)(it.accum_cta_us / 1000.0 / per_iter_ms));
    v.cta_us = 1000.0 * clone_run();
    double waves = std::max(1.0, std::round(it.target_ms / std::max(v.cta_us / 1000.0, 1e-4)));
    v.set_grid((unsigned)std::min(waves * wave, 2.0e9), gpu.sms);
  } else {
    v.iters = std::max(1, (int)std::min(it.target_ms / per_iter_ms, 2.0e9));
  }
  v.measured_ms = clone_run();
  if (!accum)
    v.cta_us = 1000.0 * v.measured_ms;
  // Reference output of the original (for verified relaunches).
  CU(cuMemcpyDtoD(v.out, v.pristine, v.out_bytes));
  time_launch([&] { v.launch_orig(name, gpu.lo); }, gpu.lo);
  CU(cuMemcpyDtoD(v.ref, v.out, v.out_bytes));
  return "";
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
      .str("form", form_name(it.form)).num("target_ms", it.target_ms);
  Victim v;
  std::string why = prepare(v, it, *m, gpu, h);
  if (!why.empty())
    return j.str("error", why).text();
  Ctl &ctl = v.clone.ctl;
  bool idem = !isAccum(it.victim);
  uint32_t request = idem ? 2 : 1;
  if (it.form == Form::Free && !idem) // never: a relaunch would re-run finished work
    return j.str("error", "barrier-free clone of a non-idempotent victim").text();
  j.integer("request", request).integer("grid", v.grid).integer("iters", v.iters);
  v.clone.describe(j);
  j.integer("loop_checkpoints", v.clone.info.loop_checkpoints)
      .integer("interval_k", v.clone.info.interval_k)
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
        double t = time_launch(
            [&] {
              if (c)
                v.launch_clone(it.victim, s);
              else
                v.launch_orig(it.victim, s);
            },
            s);
        (c ? tc : to).push_back(t);
      }
    }
    double mo = percentile(to, 50), mc = percentile(tc, 50);
    return j.num("orig_ms", mo).num("clone_ms", mc).num("overhead", mc / mo - 1.0).text();
  }
  CUevent ew, ew2, ewd, eend;
  CU(cuEventCreate(&ew, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&ew2, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&ewd, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&eend, CU_EVENT_DEFAULT));
  std::mt19937_64 rng(seed ^ buffer_seed(it.victim + it.variant, (int)it.target_ms));
  std::uniform_real_distribution<double> U(it.lo, it.hi);
  std::vector<double> host_us, dev_us, written_us, submit_us, event_us, remaining_ms;
  int late = 0, verified = 0, bad = 0, incomplete = 0, trials = 0;
  bool queued = true; // see below; false where the driver cannot wait on host memory
  volatile uint32_t *go = reinterpret_cast<volatile uint32_t *>(
      reinterpret_cast<volatile char *>(v.started) + 32);
  const CUdeviceptr go_dev = v.started_dev + 32;
  for (int t = 0; t < it.trials && now_s() < deadline; ++t) {
    ++trials;
    bool verify = it.verify && t % 4 == 0;
    if (verify || !idem)
      CU(cuMemcpyDtoDAsync(v.out, v.pristine, v.out_bytes, s));
    ctl.reset(s);
    *v.started = 0;
    __sync_synchronize();
    v.launch_clone(it.victim, s);
    CU(cuEventRecord(eend, s));
    // The request is queued at once behind a wait on a host flag, between
    // two events: released, the three run back to back on the GPU, so no
    // host call time lies between the events and the write.
    if (queued) {
      *go = 0;
      __sync_synchronize();
      CUresult w = cuStreamWaitValue32(gpu.hi, go_dev, 1, CU_STREAM_WAIT_VALUE_EQ);
      if (w == CUDA_SUCCESS) {
        CU(cuEventRecord(ew, gpu.hi));
        CU(cuEventRecord(ew2, gpu.hi)); // ew -> ew2: what one timing event costs the GPU
        CU(cuStreamWriteValue32(gpu.hi, ctl.ptr, request, 0));
        CU(cuEventRecord(ewd, gpu.hi));
      } else {
        queued = false; // waits on host memory unsupported: write when due
      }
    }
    double wait_until = now_s() + 2.0;
    while (!*v.started && now_s() < wait_until) {
    }
    double frac = U(rng);
    double t_start = now_s();
    spin_until(t_start + frac * v.measured_ms * 1e-3);
    double t0 = now_s();
    if (queued) {
      *go = 1;
      __sync_synchronize();
    } else {
      CU(cuEventRecord(ew, gpu.hi));
      CU(cuStreamWriteValue32(gpu.hi, ctl.ptr, request, 0));
      CU(cuEventRecord(ewd, gpu.hi));
    }
    CUresult q;
    while ((q = cuEventQuery(eend)) == CUDA_ERROR_NOT_READY)
      if (now_s() - t0 > 5.0 + 2e-3 * v.measured_ms)
        throw HangError(strfmt("%s still running 5 s after request %u", it.victim.c_str(),
                               request));
    double t1 = now_s();
    CU(q);
    CU(cuStreamSynchronize(gpu.hi));
    float ms = 0, ms_written = 0, ms_submit = 0;
    // Queued: [ew][ew2][write][ewd]; ew -> ew2 is what one timing event
    // takes on the GPU, the latency is bracketed by ewd -> eend (after the
    // write) and ew2 -> eend (before it).
    CUevent before = queued ? ew2 : ew;
    CU(cuEventElapsedTime(&ms, before, eend));
    CU(cuEventElapsedTime(&ms_written, ewd, eend));
    CU(cuEventElapsedTime(&ms_submit, before, ewd));
    float ms_event = 0;
    if (queued)
      CU(cuEventElapsedTime(&ms_event, ew, ew2));
    if (ctl.all_done()) {
      ++late;
    } else {
      host_us.push_back((t1 - t0) * 1e6);
      dev_us.push_back(ms * 1e3);
      written_us.push_back(ms_written * 1e3);
      submit_us.push_back(ms_submit * 1e3);
      event_us.push_back(ms_event * 1e3);
      remaining_ms.push_back(v.measured_ms * (1.0 - frac));
    }
    if (verify) {
      ctl.set_request(s, 0); // same P and control block: the rest of the work
      v.launch_clone(it.victim, s);
      wait_stream(s, 5.0 + 2e-3 * v.measured_ms);
      if (!ctl.all_done())
        ++incomplete;
      ++verified;
      if (idem && device_diff(h, s, v.out, v.ref, v.out_bytes, nullptr))
        ++bad;
    }
  }
  cuEventDestroy(ew);
  cuEventDestroy(ew2);
  cuEventDestroy(ewd);
  cuEventDestroy(eend);
  j.integer("trials", trials).integer("too_late", late).raw("host_us", stats(host_us))
      .raw("device_us", stats(dev_us)).raw("device_from_write_us", stats(written_us))
      .raw("write_submit_us", stats(submit_us)).raw("timing_event_us", stats(event_us)).boolean("write_queued", queued).num("remaining_ms_p50", percentile(remaining_ms, 50))
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
  // Short virtual CTAs stopped between CTAs only (request 1): what a launch
  // of a light twin (no loop checks) waits for, the runtime's
  // GMEM_PREEMPT_LIGHT_US rule.
  for (double cta_us : {3.0, 5.0}) {
    Item it{"cta" + std::to_string((int)cta_us) + "us", o.kernels, "victim_accum", "latency", 10.0};
    it.trials = o.trials;
    it.accum_cta_us = cta_us;
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
  // Spread launches (libgmemrt's GMEM_PREEMPT_SPREAD): a grid of 4 waves on
  // 4 x the resident CTAs, whose unstarted CTAs must start and leave at a
  // stop; beside the same grid on the resident CTAs alone.
  for (unsigned spread : {1u, kSpread})
    for (const char *v : {"victim_loop", "victim_tiled"}) {
      Item it{spread == 1 ? "waves4" : "spread" + std::to_string(spread), o.kernels, v, "latency",
              10.0};
      it.trials = std::max(50, o.trials * 3 / 10);
      it.waves = 4;
      it.spread = spread;
      items.push_back(it);
    }
  // The alternate full form (loop state in shared memory), which libgmemrt
  // launches for idempotent shapes where it runs faster: the same stops.
  for (const char *v : {"victim_loop", "victim_tiled"}) {
    Item it{"alt", o.kernels, v, "latency", 10.0};
    it.trials = std::max(50, o.trials * 3 / 10);
    it.form = Form::Alt;
    items.push_back(it);
  }
  // The barrier-free form, which libgmemrt may launch for idempotent shapes
  // (request 2 only): victims whose kernels.ptx has one; none, no rows.
  std::vector<const char *> free_victims;
  for (const char *v : {"victim_loop", "victim_tiled"})
    if (ptx_file_has_entry(o.kernels, std::string("__gmem_prf_") + v))
      free_victims.push_back(v);
  for (const char *v : free_victims) {
    Item it{"free", o.kernels, v, "latency", 10.0};
    it.trials = std::max(50, o.trials * 3 / 10);
    it.form = Form::Free;
    items.push_back(it);
  }
  // The light twin (no loop checks; a plain barrier and a shared stop word
  // after each virtual CTA), which libgmemrt launches for launches not
  // found idempotent: victim_accum at request 1, ~20 us and 3 us CTAs.
  for (double cta_us : {20.0, 3.0}) {
    Item it{cta_us < 10 ? "light-cta3us" : "light", o.kernels, "victim_accum", "latency", 10.0};
    it.trials = std::max(50, o.trials * 3 / 10);
    it.accum_cta_us = cta_us;
    it.form = Form::Light;
    items.push_back(it);
  }
  // Long virtual CTAs at request 1 (training-like kernels not found
  // idempotent): a stop waits for the CTA that runs when the request lands
  // (late read at its end), or also for the next one (without it).
  // The same for a victim without loop checkpoints, whose light twin is
  // its main clone plus the late read (every launch of it may run the twin).
  for (const char *v : {"victim_accum", "victim_accum_sync"})
    for (Form f : {Form::Full, Form::Light}) {
      std::string row = std::string(f == Form::Light ? "light-" : "") + "cta200us";
      Item it{row, o.kernels, v, "latency", 20.0};
      it.trials = std::max(50, o.trials * 3 / 10);
      it.accum_cta_us = 200;
      it.form = f;
      items.push_back(it);
    }
  std::vector<std::pair<std::string, std::string>> all = {{"default", o.kernels}};
  for (const std::string &var : o.variants)
    all.push_back({var.substr(0, var.find('=')), var.substr(var.find('=') + 1)});
  for (auto &[name, path] : all)
    for (const char *v : victims)
      items.push_back(Item{name, path, v, "steady", 10.0});
  for (const char *v : {"victim_loop", "victim_tiled"}) {
    Item it{"alt", o.kernels, v, "steady", 10.0};
    it.form = Form::Alt;
    items.push_back(it);
  }
  for (const char *v : free_victims) {
    Item it{"free", o.kernels, v, "steady", 10.0};
    it.form = Form::Free;
    items.push_back(it);
  }

  // --victim / --row: a subset, for same-call A/Bs of clone builds.
  items.erase(std::remove_if(items.begin(), items.end(),
                             [&](const Item &it) {
                               return (!o.victim.empty() && it.victim != o.victim) ||
                                      (!o.rows.empty() &&
                                       std::find(o.rows.begin(), o.rows.end(), it.variant) ==
                                           o.rows.end());
                             }),
              items.end());
  int n = (int)items.size();
  double deadline = now_s() + o.budget_s;
  printf("latency: %d items, %d trials per class, budget %.0f s\n", n, o.trials, o.budget_s);
  return run_part(
      o, "latency", n, 90.0,
      [&](int i, Worker &w) {
        // Leave time for the later (cheaper) items.
        double item_deadline = now_s() + std::max(1.0, (deadline - now_s()) * 0.5);
        return run_item(items[i], w.gpu, w.h, w.mods, o.seed, item_deadline);
      },
      [&](int i) {
        return Json().str("variant", items[i].variant).str("victim", items[i].victim)
            .str("kind", items[i].kind);
      },
      [&](int i) { return items[i].victim; }, [&] { return now_s() >= deadline; });
}

} // namespace pb
