// Part 4: stop latency of the corpus kernels at realistic sizes.
//
// Part 1 measures stops on synthetic victims (an ALU-bound loop, a tiled
// loop). The static check interval (the pass's cost model in "ALU units")
// says nothing about time, so a memory-bound loop can go far longer between
// checks than the victims do. This part stops the kernels of the overhead
// table (bench/preempt/overhead_sizes.txt: the same sizes, the same
// manifest) at random moments and times each stop as part 1 does: the
// request (2 for launches the instance check finds idempotent, else 1) is
// queued on the high-priority stream between two events behind a wait on a
// host flag, released when due; device latency runs from the event before
// the write to the event after the clone. Each stopped launch is then
// finished (request 0, the same P and control block, as libgmemrt's
// relaunch) and must have every virtual CTA done.
//
// Forms: every form the runtime may launch for the instance: the full
// clone, the alternate and barrier-free forms (barrier-free only for
// idempotent launches) and the light twin; a form is reported with the
// check interval libgmemrt would give it (batched kernels: K from tau for
// the CTA-protocol forms, 1 for the light twin of a launch not found
// idempotent).
#include "parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace pb {

namespace {

struct Host {
  volatile uint32_t *go = nullptr;
  CUdeviceptr dev = 0;
  Host() {
    void *p = nullptr;
    CU(cuMemHostAlloc(&p, 64, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    go = static_cast<volatile uint32_t *>(p);
    CU(cuMemHostGetDevicePointer(&dev, p, 0));
  }
  ~Host() { cuMemFreeHost((void *)go); }
};

struct Events {
  CUevent begin, ew, ew2, ewd, end;
  Events() {
    for (CUevent *e : {&begin, &ew, &ew2, &ewd, &end})
      CU(cuEventCreate(e, CU_EVENT_DEFAULT));
  }
  ~Events() {
    for (CUevent e : {begin, ew, ew2, ewd, end})
      cuEventDestroy(e);
  }
};

std::string stats(const std::vector<double> &v) {
  return Json().num("p50", percentile(v, 50)).num("p90", percentile(v, 90))
      .num("p99", percentile(v, 99)).num("max", percentile(v, 100)).text();
}

/// One form of one instance: `trials` stops at random moments.
std::string stop_form(const Instance &in, CloneLaunch &c, Launch &L, unsigned batch,
                      uint32_t request, int trials, double deadline, Gpu &gpu, std::mt19937_64 &rng) {
  Json j;
  j.str("form", form_name(c.form)).integer("P", c.P).integer("batch_k", batch);
  CUstream s = gpu.lo;
  L.set_ctl(c.ctl.ptr);
  L.set_batch(batch);
  // Light twins have no loop checks: a scale changes nothing there.
  const bool flag = c.persistent && (c.info.flags & kFlagSegScale);
  const bool scaled = flag && c.form != Form::Light;
  L.set_seg(flag, scaled ? seg_scale_env() : 0);
  j.integer("scale", scaled ? seg_scale_env() : 0);
  Events e;
  Host h;
  auto timed_run = [&] {
    c.ctl.reset(s);
    return time_launch([&] { c.launch(L.params(true), s); }, s, 30.0);
  };
  timed_run(); // warm-up
  const double run_ms = timed_run();
  j.num("run_ms", run_ms);
  if (c.persistent && c.P)
    j.num("vcta_us", c.vcta_us(run_ms));
  // PB_STOP_WINDOW=LO,HI: where in the run stops land (fractions of the
  // timed run; default 0.05,0.85). PB_STOP_ISSUE=direct: the host issues the
  // write at the stop's moment, as libgmemrt's monitor does, instead of
  // releasing one queued behind a wait on a host flag. Both for calibrating
  // the runtime's stop probes against these stops (results/session38).
  double lo = 0.05, hi = 0.85;
  if (const char *w = getenv("PB_STOP_WINDOW"))
    if (sscanf(w, "%lf,%lf", &lo, &hi) != 2 || !(lo >= 0 && lo < hi && hi <= 1))
      lo = 0.05, hi = 0.85;
  const char *issue = getenv("PB_STOP_ISSUE");
  const bool direct = issue && std::string(issue) == "direct";
  j.num("window_lo", lo).num("window_hi", hi).str("issue", direct ? "direct" : "queued");
  std::uniform_real_distribution<double> U(lo, hi);
  std::vector<double> at_frac;
  std::vector<double> dev_us, written_us;
  int late = 0, incomplete = 0, n = 0;
  for (; n < trials && now_s() < deadline; ++n) {
    c.ctl.reset(s);
    *h.go = 0;
    __sync_synchronize();
    CU(cuEventRecord(e.begin, s));
    c.launch(L.params(true), s);
    CU(cuEventRecord(e.end, s));
    auto queue_stop = [&] {
      CU(cuEventRecord(e.ew, gpu.hi));
      CU(cuEventRecord(e.ew2, gpu.hi));
      CU(cuStreamWriteValue32(gpu.hi, c.ctl.ptr, request, 0));
      CU(cuEventRecord(e.ewd, gpu.hi));
    };
    if (!direct) {
      CU(cuStreamWaitValue32(gpu.hi, h.dev, 1, CU_STREAM_WAIT_VALUE_EQ));
      queue_stop();
    }
    // The clone has begun once the event queued before it has completed.
    const double until = now_s() + 5.0;
    CUresult q;
    while ((q = cuEventQuery(e.begin)) == CUDA_ERROR_NOT_READY && now_s() < until) {
    }
    CU(q);
    const double frac = U(rng);
    spin_until(now_s() + frac * run_ms * 1e-3);
    if (direct)
      queue_stop();
    *h.go = 1;
    __sync_synchronize();
    wait_stream(s, 5.0 + 2e-3 * run_ms);
    wait_stream(gpu.hi, 5.0);
    float ms = 0, ms_written = 0;
    CU(cuEventElapsedTime(&ms, e.ew2, e.end));
    CU(cuEventElapsedTime(&ms_written, e.ewd, e.end));
    if (c.ctl.all_done()) {
      ++late;
      continue;
    }
    dev_us.push_back(ms * 1e3);
    written_us.push_back(ms_written * 1e3);
    at_frac.push_back(frac);
    // Finish the launch as libgmemrt's relaunch does.
    c.ctl.set_request(s, 0);
    c.launch(L.params(true), s);
    wait_stream(s, 5.0 + 2e-3 * run_ms);
    if (!c.ctl.all_done())
      ++incomplete;
  }
  (void)in;
  return j.integer("trials", n).integer("too_late", late).integer("relaunch_incomplete", incomplete)
      .raw("device_us", stats(dev_us)).raw("after_write_us", stats(written_us))
      .raw("device_samples_us", json_numbers(dev_us))
      .raw("after_write_samples_us", json_numbers(written_us))
      .raw("at_fraction_samples", json_numbers(at_frac)).text();
}

std::string measure(const Instance &in, Gpu &gpu, const Helpers &hl,
                    std::map<std::string, std::unique_ptr<Module>> &mods, int trials,
                    double deadline, uint64_t seed) {
  Json j;
  j.str("name", in.name).str("symbol", in.sym).str("pred", in.pred.empty() ? "none" : in.pred);
  if (!in.error.empty())
    return j.str("error", "manifest: " + in.error).text();
  if (!gpu.memops)
    return j.str("error", "stream memory operations unavailable").text();
  CloneLaunch cl;
  std::string why;
  // PB_SPREAD=N: every form at N times its resident CTAs (libgmemrt's
  // spread, CloneChoice.h), as the runtime may launch it.
  const char *sp = getenv("PB_SPREAD");
  const unsigned spread = sp ? (unsigned)std::max(1L, strtol(sp, nullptr, 10)) : 1;
  cl.spread = spread;
  Module *mod = cl.open(in, gpu.sms, mods, j, &why);
  if (!mod)
    return j.str("error", why).text();
  const bool idempotent = in.pred == "idempotent";
  const uint32_t request = idempotent ? 2 : 1;
  j.integer("request", request);
  Launch L;
  L.setup(in, hl, gpu.lo);
  CloneLaunch lite, alt, fre;
  lite.spread = alt.spread = fre.spread = spread;
  j.integer("spread", spread);
  std::vector<CloneLaunch *> forms = {&cl};
  if (cl.info.has_alt() && alt.open_form(*mod, in, gpu.sms, j, Form::Alt).empty())
    forms.push_back(&alt);
  if (idempotent && cl.info.has_free() && fre.open_form(*mod, in, gpu.sms, j, Form::Free).empty())
    forms.push_back(&fre);
  if (cl.info.has_light() && lite.open_form(*mod, in, gpu.sms, j, Form::Light).empty())
    forms.push_back(&lite);
  // libgmemrt's check interval for batched kernels, from the full clone's
  // virtual CTA time at K = 1 (as part 2).
  unsigned batch = 0;
  if (cl.persistent && cl.P && (cl.info.flags & kFlagBatched)) {
    L.set_ctl(cl.ctl.ptr);
    L.set_batch(1);
    cl.ctl.reset(gpu.lo);
    const double ms = time_launch([&] { cl.launch(L.params(true), gpu.lo); }, gpu.lo, 30.0);
    batch = batch_for(cl.vcta_us(ms));
  }
  std::mt19937_64 rng(seed ^ buffer_seed(in.name, 0));
  std::vector<std::string> out;
  for (CloneLaunch *c : forms) {
    const unsigned k = c->form == Form::Light && !idempotent ? (batch ? 1 : 0) : batch;
    out.push_back(stop_form(in, *c, L, k, request, trials, deadline, gpu, rng));
  }
  return j.raw("forms", json_array(out)).text();
}

} // namespace

int run_stops(const PartOptions &o) {
  std::vector<Instance> ins;
  if (!load_manifest("stops", o.manifest, ins))
    return 2;
  const int n = (int)ins.size();
  const double start = now_s(), deadline = start + o.budget_s;
  printf("stops: %d instances from %s, %d stops per form, budget %.0f s\n", n, o.manifest.c_str(),
         o.trials, o.budget_s);
  return run_part(
      o, "stops", n, 60.0,
      [&](int i, Worker &w) {
        // An even share of what is left, so that late instances still run.
        const double left = std::max(0.0, deadline - now_s());
        const double share = left / std::max(1, n - i);
        std::string json = measure(ins[i], w.gpu, w.h, w.mods, o.trials,
                                   std::min(deadline, now_s() + share), o.seed);
        w.mods.clear();
        return json;
      },
      [&](int i) { return Json().str("name", ins[i].name); },
      [&](int i) { return ins[i].name; }, [&] { return now_s() >= deadline; });
}

} // namespace pb
