// Part 2: steady-state cost of the clone (request 0) against the original.
//
// Per instance (bench/preempt/overhead_sizes.txt: corpus kernels at sizes
// where one launch runs about a millisecond): both kernels run back to back
// on one stream, the order alternating every round, each launch timed alone
// with events; the control block is reset before every clone launch, outside
// the timed interval. The clone is launched as the runtime would (ABI
// version 2): a persistent clone (info flag bit 4) with grid (P, 1, 1), else
// with the user's grid; `persistent` and `P` are reported. Rounds: as many
// as fit in ~0.3 s (5 to 41). Reported: medians, their ratio, and the ratio
// of the minima.
#include "parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>
#include <memory>

namespace pb {

namespace {

std::string measure(const Instance &in, Gpu &gpu, const Helpers &h,
                    std::map<std::string, std::unique_ptr<Module>> &mods) {
  Json j;
  j.str("name", in.name).str("symbol", in.sym).integer("ctas", (long long)in.ctas());
  if (!in.error.empty())
    return j.str("error", "manifest: " + in.error).text();
  CloneLaunch cl;
  std::string why;
  Module *mod = cl.open(in, gpu.sms, mods, j, &why);
  if (!mod)
    return j.str("error", why).text();
  CUfunction orig = mod->fn(in.sym);
  Ctl &ctl = cl.ctl;
  CUstream s = gpu.lo;
  Launch L;
  L.setup(in, h, s);
  L.set_ctl(ctl.ptr);
  j.integer("bytes", (long long)L.total_bytes());
  CUevent e0, e1;
  CU(cuEventCreate(&e0, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&e1, CU_EVENT_DEFAULT));
  auto run = [&](bool is_clone) {
    if (is_clone)
      ctl.reset(s);
    CU(cuEventRecord(e0, s));
    if (is_clone)
      cl.launch(L.params(true), s);
    else
      launch(orig, in, L.params(false), s);
    CU(cuEventRecord(e1, s));
    CU(cuStreamSynchronize(s));
    float ms = 0;
    CU(cuEventElapsedTime(&ms, e0, e1));
    return (double)ms;
  };
  run(false); // warm-up: caches, clocks, lazy loading
  run(true);
  double first = run(false);
  int rounds = (int)std::clamp(0.3 / std::max(2e-3 * first, 1e-6), 5.0, 41.0);
  std::vector<double> to, tc;
  for (int r = 0; r < rounds; ++r) {
    bool clone_first = r & 1;
    double a = run(clone_first), b = run(!clone_first);
    (clone_first ? tc : to).push_back(a);
    (clone_first ? to : tc).push_back(b);
  }
  // Every clone launch above ran with request 0: all its (virtual) CTAs must
  // be done, else the clone skipped work and its time means nothing.
  j.boolean("clone_all_done", ctl.all_done());
  double mo = percentile(to, 50), mc = percentile(tc, 50);
  double lo = *std::min_element(to.begin(), to.end()), lc = *std::min_element(tc.begin(), tc.end());
  j.integer("rounds", rounds).num("orig_ms", mo).num("clone_ms", mc)
      .num("overhead", mc / mo - 1.0).num("overhead_min", lc / lo - 1.0)
      .num("orig_p10_ms", percentile(to, 10)).num("orig_p90_ms", percentile(to, 90))
      .num("clone_p10_ms", percentile(tc, 10)).num("clone_p90_ms", percentile(tc, 90));
  cuEventDestroy(e0);
  cuEventDestroy(e1);
  return j.text();
}

} // namespace

int run_overhead(const PartOptions &o) {
  std::vector<Instance> ins;
  std::string err;
  if (!read_manifest(o.manifest, ins, err)) {
    fprintf(stderr, "overhead: %s\n", err.c_str());
    return 2;
  }
  int n = (int)ins.size();
  double deadline = now_s() + o.budget_s;
  printf("overhead: %d instances from %s, budget %.0f s\n", n, o.manifest.c_str(), o.budget_s);
  return run_part(
      o, "overhead", n, 30.0,
      [&](int i, Worker &w) {
        std::string json = measure(ins[i], w.gpu, w.h, w.mods);
        w.mods.clear(); // one module at a time: big instances need the memory
        return json;
      },
      [&](int i) { return Json().str("name", ins[i].name); },
      [&](int i) { return ins[i].name; }, [&] { return now_s() >= deadline; });
}

} // namespace pb
