// Part 2: steady-state cost of the clone (request 0) against the original.
//
// Per instance (bench/preempt/overhead_sizes.txt: corpus kernels at sizes
// where one launch runs about a millisecond): the original, the full clone
// and, where there are, its light twin (no loop checkpoints), its
// alternate full form (loop state in shared memory) and its barrier-free
// form (every thread loops over the virtual CTAs on its own; timed for every
// instance that has one, since a run at request 0 is exact, but chosen only
// for idempotent launches) run back to back on one
// stream, the order rotating every round, each launch timed
// alone with events; a control block is reset before every clone launch,
// outside the timed interval. Clones are launched as the runtime would (ABI
// version 2): persistent ones (info flag bit 4) with grid (P, 1, 1), else
// with the user's grid. Rounds: as many as fit in ~0.3 s (5 to 41).
// Reported: medians, their ratios, the ratio of the minima, the full
// clone's time per virtual CTA and which clone the runtime's rule picks
// (`chosen`, `overhead_chosen`; `pred`, the launch's idempotence as the
// runtime's instance check finds it, is part of that rule), then that clone
// on kSpread x its resident CTAs in rounds of its own (`spread_*`), taken
// into `overhead_chosen` where over 2% faster, as libgmemrt does.
#include "parts.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <unistd.h>
#include <memory>

namespace pb {

namespace {

/// One launch of clone c (its control block reset first, outside the timed
/// span), timed with events e0/e1 on s; ms.
double timed_clone_launch(CloneLaunch &c, Launch &L, CUstream s, CUevent e0, CUevent e1) {
  L.set_ctl(c.ctl.ptr);
  c.ctl.reset(s);
  CU(cuEventRecord(e0, s));
  c.launch(L.params(true), s);
  CU(cuEventRecord(e1, s));
  CU(cuStreamSynchronize(s));
  float ms = 0;
  CU(cuEventElapsedTime(&ms, e0, e1));
  return (double)ms;
}

/// Diagnostic (`PB_SPREAD_ALL=1`): every form the instance has at kSpread x
/// its resident CTAs, in rounds of their own with the original, so a form's
/// body cost can be told from its static virtual-CTA order (a grid of
/// total CTAs or more runs one virtual CTA per CTA, dispatched by the
/// hardware as the original's). Adds `sall_<form>_ms`, `sall_<form>_P` and
/// `sall_<form>_overhead`, `sall_orig_ms`.
template <class RunOrig>
void spread_all(const Instance &in, Gpu &gpu, Module &mod, Launch &L, Json &j, RunOrig &run_orig,
                int rounds, std::initializer_list<std::pair<Form, bool>> forms) {
  std::vector<std::unique_ptr<CloneLaunch>> cls;
  std::vector<const char *> labels;
  for (auto [f, present] : forms) {
    if (!present)
      continue;
    auto c = std::make_unique<CloneLaunch>();
    c->spread = kSpread;
    Json scratch; // open_form describes itself; only our keys go into j
    if (!c->open_form(mod, in, gpu.sms, scratch, f).empty() || !c->P)
      continue;
    labels.push_back(form_name(f));
    cls.push_back(std::move(c));
  }
  if (cls.empty())
    return;
  CUstream s = gpu.lo;
  CUevent e0, e1;
  CU(cuEventCreate(&e0, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&e1, CU_EVENT_DEFAULT));
  auto run_c = [&](CloneLaunch &c) { return timed_clone_launch(c, L, s, e0, e1); };
  const int kinds = 1 + (int)cls.size();
  for (auto &c : cls)
    run_c(*c); // warm-up
  std::vector<std::vector<double>> t(kinds);
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < kinds; ++k) {
      int kind = (r + k) % kinds;
      t[kind].push_back(kind == 0 ? run_orig(0) : run_c(*cls[kind - 1]));
    }
  const double mo = percentile(t[0], 50);
  j.num("sall_orig_ms", mo);
  for (size_t i = 0; i < cls.size(); ++i) {
    const std::string p = std::string("sall_") + labels[i];
    const double m = percentile(t[i + 1], 50);
    j.integer(p + "_P", cls[i]->P).num(p + "_ms", m).num(p + "_overhead", m / mo - 1.0)
        .boolean(p + "_all_done", cls[i]->ctl.all_done());
  }
  cuEventDestroy(e0);
  cuEventDestroy(e1);
}

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
  CUstream s = gpu.lo;
  Launch L;
  L.setup(in, h, s);
  j.integer("bytes", (long long)L.total_bytes());
  // The light twin (no loop checkpoints), the alternate full form and the
  // barrier-free form, where the full clone has them. The barrier-free form
  // exists also for kernels without loop checkpoints (then without twins).
  CloneLaunch lite, alt, fre;
  bool has_light = cl.info.has_light() && lite.open_form(*mod, in, gpu.sms, j, Form::Light).empty();
  bool has_alt = cl.info.has_alt() &&
                 alt.open_form(*mod, in, gpu.sms, j, Form::Alt).empty();
  bool has_free = cl.info.has_free() && fre.open_form(*mod, in, gpu.sms, j, Form::Free).empty();
  CUevent e0, e1;
  CU(cuEventCreate(&e0, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&e1, CU_EVENT_DEFAULT));
  // kind 0: original, 1: full clone, 2: light twin, 3: alternate form,
  // 4: barrier-free form (request 0 only here: exact for any launch).
  auto run = [&](int kind) {
    CloneLaunch &c = kind == 4 ? fre : kind == 3 ? alt : kind == 2 ? lite : cl;
    if (kind) {
      L.set_ctl(c.ctl.ptr);
      c.ctl.reset(s);
    }
    CU(cuEventRecord(e0, s));
    if (kind)
      c.launch(L.params(true), s);
    else
      launch(orig, in, L.params(false), s);
    CU(cuEventRecord(e1, s));
    CU(cuStreamSynchronize(s));
    float ms = 0;
    CU(cuEventElapsedTime(&ms, e0, e1));
    return (double)ms;
  };
  std::vector<int> active = {0, 1};
  if (has_light)
    active.push_back(2);
  if (has_alt)
    active.push_back(3);
  if (has_free)
    active.push_back(4);
  const int kinds = (int)active.size();
  for (int k : active)
    run(k); // warm-up: caches, clocks, lazy loading
  // As libgmemrt: a batched clone's check interval from a timing of the
  // full clone with none (K = 1), then every clone launch with it.
  unsigned batch = 0;
  if (cl.persistent && cl.P && (cl.info.flags & kFlagBatched)) {
    double t1 = run(1);
    batch = batch_for(cl.vcta_us(t1));
    L.set_batch(batch);
  }
  j.integer("batch_k", batch);
  double first = run(0);
  int rounds = (int)std::clamp(0.3 / std::max(1e-3 * kinds * first, 1e-6), 5.0, 41.0);
  std::vector<double> t[5];
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < kinds; ++k) { // the order rotates every round
      int kind = active[(r + k) % kinds];
      t[kind].push_back(run(kind));
    }
  // Every clone launch above ran with request 0: all its (virtual) CTAs must
  // be done, else the clone skipped work and its time means nothing.
  j.boolean("clone_all_done", cl.ctl.all_done());
  auto &to = t[0], &tc = t[1];
  double mo = percentile(to, 50), mc = percentile(tc, 50);
  double lo = *std::min_element(to.begin(), to.end()), lc = *std::min_element(tc.begin(), tc.end());
  j.integer("rounds", rounds).num("orig_ms", mo).num("clone_ms", mc)
      .num("overhead", mc / mo - 1.0).num("overhead_min", lc / lo - 1.0)
      .num("orig_p10_ms", percentile(to, 10)).num("orig_p90_ms", percentile(to, 90))
      .num("clone_p10_ms", percentile(tc, 10)).num("clone_p90_ms", percentile(tc, 90));
  // What libgmemrt would launch (Scheduler.cpp, runtime/src/CloneChoice):
  // the light twin for a launch that stops only between virtual CTAs in
  // every form (not found idempotent: request 1 arms no loop checkpoint; or
  // a kernel without loop checkpoints) unless its timing is slower than the
  // shape's own form, and for an idempotent one when a virtual CTA of the
  // full clone takes at most kLightMaxUs, since the twin can only stop
  // between virtual CTAs. The manifest's pred= is gmem-analyze's instance
  // check of this very launch (stage.py).
  j.str("pred", in.pred.empty() ? "none" : in.pred);
  const bool idempotent = in.pred == "idempotent";
  // SchedClone.cpp's LightOk (CloneChoice's LightOkMinTauUs below).
  const bool loops = (cl.info.flags & kFlagLoops) && !(cl.info.flags & kFlagEntryOnly);
  bool light_ok = !idempotent || !loops;
  double chosen = mc / mo - 1.0;
  std::string picked = "full";
  if (cl.persistent && cl.P) {
    double tau_us = cl.vcta_us(mc);
    j.num("vcta_us", tau_us);
    double ml = has_light ? percentile(t[2], 50) : 0;
    double ma = has_alt ? percentile(t[3], 50) : 0;
    double mf = has_free ? percentile(t[4], 50) : 0;
    if (has_light)
      j.boolean("light_all_done", lite.ctl.all_done()).num("light_ms", ml)
          .num("overhead_light", ml / mo - 1.0)
          .num("light_p90_ms", percentile(t[2], 90));
    if (has_alt)
      j.boolean("alt_all_done", alt.ctl.all_done()).num("alt_ms", ma)
          .num("overhead_alt", ma / mo - 1.0).num("alt_p90_ms", percentile(t[3], 90));
    if (has_free)
      j.boolean("free_all_done", fre.ctl.all_done()).num("free_ms", mf)
          .num("overhead_free", mf / mo - 1.0).num("free_p90_ms", percentile(t[4], 90));
    if (has_light || has_alt || has_free) {
      // A full-form launch: libgmemrt times the forms per launch shape and
      // keeps the fastest, a form other than the full clone only when it
      // runs more than 2% faster than it; the barrier-free form only for a
      // launch found idempotent (a relaunch re-runs virtual CTAs some of its
      // threads had finished). The light twin where tau is short (kernels
      // with loop checkpoints: without, the twin is the main clone plus the
      // late read, SchedClone.cpp); and for a launch that stops only between
      // virtual CTAs anyway (light_ok) where it is within 2% of that form's
      // time.
      const char *pick = "full";
      double best = mc;
      if (has_alt && ma < 0.98 * mc && ma < best) {
        pick = "alt";
        best = ma;
      }
      if (has_free && idempotent && mf < 0.98 * mc && mf < best) {
        pick = "free";
        best = mf;
      }
      // Without loop checkpoints the twin is the full clone plus the late
      // read, chosen only where virtual CTAs take it.
      if (!loops && tau_us < kLateReadMinUs)
        light_ok = false;
      // (A twin sent light by tau whose first timing is over 2% slower than
      // the full clone's is dropped for the shape: CloneChoice.cpp.)
      if (has_light && ((idempotent && loops && tau_us <= kLightMaxUs && ml <= 1.02 * mc) ||
                        (light_ok && ml <= 1.02 * best))) {
        pick = "light";
        best = ml;
      }
      j.str("chosen", pick);
      picked = pick;
      chosen = best / mo - 1.0;
    }
    // As libgmemrt (CloneChoice.h, "Spread"): the chosen form once more at
    // kSpread x its resident CTAs, kept when more than 2% faster. Timed in
    // rounds of its own (original, the form, the form spread), so the
    // ratio is side by side too.
    const Form pf = picked == "light" ? Form::Light
                    : picked == "alt" ? Form::Alt
                    : picked == "free" ? Form::Free
                                       : Form::Full;
    CloneLaunch &base = pf == Form::Light ? lite : pf == Form::Alt ? alt : pf == Form::Free ? fre : cl;
    CloneLaunch spr;
    spr.spread = kSpread;
    if (base.P < base.total() && spr.open_form(*mod, in, gpu.sms, j, pf, "spread").empty() &&
        spr.P > base.P) {
      auto run_with = [&](CloneLaunch &c) { return timed_clone_launch(c, L, s, e0, e1); };
      run_with(spr); // warm-up
      std::vector<double> u[3];
      for (int r = 0; r < rounds; ++r)
        for (int k = 0; k < 3; ++k) {
          int kind = (r + k) % 3;
          u[kind].push_back(kind == 0 ? run(0) : run_with(kind == 1 ? base : spr));
        }
      const double o2 = percentile(u[0], 50), b2 = percentile(u[1], 50), s2 = percentile(u[2], 50);
      const bool keep = s2 < 0.98 * b2;
      j.boolean("spread_all_done", spr.ctl.all_done()).num("spread_ms", s2)
          .num("overhead_spread", s2 / o2 - 1.0).num("spread_base_ms", b2)
          .num("spread_ratio", s2 / b2).boolean("spread_kept", keep);
      if (keep)
        chosen = (1.0 + chosen) * (s2 / b2) - 1.0;
    }
    if (getenv("PB_SPREAD_ALL"))
      spread_all(in, gpu, *mod, L, j, run, rounds, {{Form::Full, true}, {Form::Light, has_light},
                                                     {Form::Alt, has_alt},
                                                     {Form::Free, has_free && idempotent}});
  }
  j.num("overhead_chosen", chosen);
  cuEventDestroy(e0);
  cuEventDestroy(e1);
  return j.text();
}

} // namespace

int run_overhead(const PartOptions &o) {
  std::vector<Instance> ins;
  if (!load_manifest("overhead", o.manifest, ins))
    return 2;
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
