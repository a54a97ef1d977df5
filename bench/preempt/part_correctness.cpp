// Part 3: bit-exactness under forced preemption, over the corpus instances.
//
// Per instance: the original kernel runs on deterministic input to give the
// reference (a second run tells whether the kernel is deterministic at all:
// float atomics are not; nor is one whose unpreempted clone differs, see
// order_dependent). Then, per trial, the clone runs on the same input
// and is preempted at a random point with request 2 when gmem-analyze called
// the instance idempotent (manifest pred=idempotent), else 1:
//   pre:    request written before the launch (every CTA skips at entry);
//   host:   cuStreamWriteValue32 on the high-priority stream, a random time
//           after the launch call (0 .. 1.2 x the kernel's run time);
//   device: a one-thread trigger kernel on the high-priority stream writes
//           the request a random %globaltimer delay after it starts.
// If some CTA did not finish (done bitmap; for a persistent clone, tickets
// not taken or listed in redo), the request goes back to 0 and the clone is
// relaunched with the same control block (and the same P); then every
// (virtual) CTA must be done and every buffer must equal the reference, byte
// for byte. Clones are launched per ABI version 2 (CloneLaunch): persistent
// ones with grid (P, 1, 1), the others with the instance's grid.
// Trials cycle over the clone's forms: full, light twin, alternate and, for
// idempotent instances only (request 2), the barrier-free form, whose
// relaunch re-runs virtual CTAs some threads had finished.
#include "parts.h"

#include <algorithm>
#include <cstdio>
#include <unistd.h>
#include <memory>
#include <random>

namespace pb {

namespace {

struct Tally {
  int trials = 0, cut = 0, late = 0, mismatch = 0, incomplete = 0;
  int cut_by[3] = {0, 0, 0}, late_by[3] = {0, 0, 0};
  uint64_t first_bad_offset = ~0ull;
  int first_bad_param = -1;
};

const char *kModes[3] = {"pre", "host", "device"};

std::string run_instance(const Instance &in, Gpu &gpu, const Helpers &h,
                         std::map<std::string, std::unique_ptr<Module>> &mods, int trials,
                         double item_deadline, uint64_t seed) {
  Json j;
  j.str("name", in.name).str("symbol", in.sym).str("pred", in.pred).str("class", in.cls)
      .integer("ctas", (long long)in.ctas());
  if (!in.error.empty())
    return j.str("error", "manifest: " + in.error).text();
  CloneLaunch cl;
  std::string why;
  Module *mod = cl.open(in, gpu.sms, mods, j, &why);
  if (!mod && why.find("(NoClone)") != std::string::npos)
    // What libgmemrt does too: the kernel runs as compiled, not preemptible
    // (grid or cluster sync, or a loop waiting for another CTA's write).
    return j.boolean("not_preemptible", true).str("why", why).text();
  if (!mod)
    return j.str("error", why).text();
  CUfunction orig = mod->fn(in.sym);
  // Trials cycle over the full clone, its light twin (no loop checkpoints),
  // its alternate form (loop state in shared memory) and its barrier-free
  // form where they exist: the runtime launches each of them, so each must
  // be exact. The barrier-free form only for idempotent instances (request
  // 2): the runtime never launches it for any other, nor with request 1.
  uint32_t request = in.pred == "idempotent" ? 2 : 1;
  CloneLaunch lite, alt, fre, spr, seq;
  bool has_light = cl.info.has_light() && lite.open_form(*mod, in, gpu.sms, j, Form::Light).empty();
  bool has_alt = cl.info.has_alt() && alt.open_form(*mod, in, gpu.sms, j, Form::Alt).empty();
  bool has_free = request == 2 && cl.info.has_free() &&
                  fre.open_form(*mod, in, gpu.sms, j, Form::Free).empty();
  // The full clone on kSpread x its resident CTAs (libgmemrt's spread
  // launches), where the grid has more virtual CTAs than resident ones.
  spr.spread = kSpread;
  bool has_spread = cl.persistent && cl.P && cl.P < cl.total() &&
                    spr.open_form(*mod, in, gpu.sms, j, Form::Full, "spread").empty() &&
                    spr.P > cl.P;
  // The full clone on one CTA: every virtual CTA in turn, each seeing all
  // earlier ones' writes. Not a form the runtime launches, but a legal
  // schedule: a kernel whose result depends on the order of its CTAs
  // (SSSP relaxations reading distances others lower) differs here, as it
  // may after any relaunch, and is then not compared (order_dependent).
  seq.max_P = 1;
  bool has_seq = cl.persistent && cl.P > 1 &&
                 seq.open_form(*mod, in, gpu.sms, j, Form::Full, "sequential").empty();
  j.integer("request", request);
  CUstream s = gpu.lo;

  Launch L;
  L.setup(in, h, s);
  // Batched clones run with a check interval of 3 virtual CTAs here (an odd
  // one, so stops also land inside a batch): skipped checks must not lose or
  // repeat work either.
  if (cl.info.flags & kFlagBatched)
    L.set_batch(3);
  j.integer("batch_k", (cl.info.flags & kFlagBatched) ? 3 : 0);
  // Clones with a segment scale run at PB_SEG_SCALE's (segments K << s: a
  // stop inside a longer segment must not lose or repeat work either).
  const bool seg = cl.persistent && (cl.info.flags & kFlagSegScale);
  L.set_seg(seg, seg ? seg_scale_env() : 0);
  j.integer("scale", seg ? seg_scale_env() : 0);
  const auto &bufs = L.bufs();
  const auto &bytes = L.bytes();
  std::vector<CUdeviceptr> pristine(bufs.size(), 0), ref(bufs.size(), 0);
  for (size_t i = 0; i < bufs.size(); ++i)
    if (bufs[i]) {
      CU(cuMemAlloc(&pristine[i], std::max<uint64_t>(bytes[i], 256)));
      CU(cuMemAlloc(&ref[i], std::max<uint64_t>(bytes[i], 256)));
      CU(cuMemcpyDtoDAsync(pristine[i], bufs[i], bytes[i], s));
    }
  auto restore = [&] {
    for (size_t i = 0; i < bufs.size(); ++i)
      if (bufs[i] && bytes[i])
        CU(cuMemcpyDtoDAsync(bufs[i], pristine[i], bytes[i], s));
    mod->restore_globals(s);
  };
  auto diff_vs_ref = [&](int *param, uint64_t *offset) {
    uint64_t total = 0;
    for (size_t i = 0; i < bufs.size(); ++i) {
      if (!bufs[i] || !bytes[i])
        continue;
      uint64_t first = 0, d = device_diff(h, s, bufs[i], ref[i], bytes[i], &first);
      if (d && param && *param < 0) {
        *param = (int)i;
        *offset = first;
      }
      total += d;
    }
    return total;
  };
  CUevent e0, e1;
  CU(cuEventCreate(&e0, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&e1, CU_EVENT_DEFAULT));
  auto timed_original = [&] {
    restore();
    CU(cuEventRecord(e0, s));
    launch(orig, in, L.params(false), s);
    CU(cuEventRecord(e1, s));
    CU(cuStreamSynchronize(s));
    float ms = 0;
    CU(cuEventElapsedTime(&ms, e0, e1));
    return (double)ms;
  };

  double t1 = timed_original();
  for (size_t i = 0; i < bufs.size(); ++i)
    if (bufs[i] && bytes[i])
      CU(cuMemcpyDtoD(ref[i], bufs[i], bytes[i]));
  double t2 = timed_original();
  bool deterministic = diff_vs_ref(nullptr, nullptr) == 0;
  double kernel_us = 1000.0 * std::min(t1, t2);
  j.num("kernel_us", kernel_us).boolean("deterministic", deterministic);

  // The clones, not preempted, must agree with the original.
  bool clone_all_done = true, clone_exact = true, sequential_exact = true;
  for (CloneLaunch *c : {&cl, &lite, &alt, &fre, &spr, &seq}) {
    if ((c == &lite && !has_light) || (c == &alt && !has_alt) || (c == &fre && !has_free) ||
        (c == &spr && !has_spread) || (c == &seq && !has_seq))
      continue;
    restore();
    L.set_ctl(c->ctl.ptr);
    c->ctl.reset(s);
    c->launch(L.params(true), s);
    wait_stream(s, 5.0);
    clone_all_done = clone_all_done && c->ctl.all_done();
    int p = -1;
    uint64_t off = 0;
    bool exact = diff_vs_ref(&p, &off) == 0;
    if (c == &seq)
      sequential_exact = exact;
    else
      clone_exact = clone_exact && exact;
  }
  j.boolean("clone_unpreempted_all_done", clone_all_done)
      .boolean("clone_unpreempted_exact", clone_exact)
      .boolean("sequential_exact", sequential_exact);
  // Two equal runs of the original do not prove its result order-free:
  // 128 CTAs adding floats atomically (reduce_atomic_add) sometimes arrive
  // in the same order twice, and the clone, with other timing, in another.
  // A clone that differs without any preemption from a kernel the analysis
  // calls non-idempotent (atomics, read-modify-write) marks the instance
  // order-dependent: not compared, and listed as such. Anywhere else an
  // unpreempted clone that differs stays a mismatch on every trial.
  // On one CTA in turn, a launch not found idempotent may legitimately
  // differ (a later CTA reads what an earlier one wrote: SSSP, or an output
  // aliasing another CTA's input); an idempotent one never may. Such a
  // launch is order-dependent once the sequential schedule differs, whether
  // or not the clones' own order happened to match the hardware's this time
  // (resample.cu's in-place upsample_nearest2d#2: its unpreempted clones
  // differed in one H200 call and matched in another, and were compared,
  // 16 "mismatches", only when they differed: bench/preempt/results/
  // session39).
  bool order_dependent =
      deterministic && ((!clone_exact && in.cls == "non-idempotent") ||
                        (!sequential_exact && in.pred != "idempotent"));
  bool compared = deterministic && !order_dependent;
  j.boolean("order_dependent", order_dependent).boolean("compared", compared);
  int light_trials = 0, light_cut = 0, light_mismatches = 0;
  int alt_trials = 0, alt_cut = 0, alt_mismatches = 0;
  int free_trials = 0, free_cut = 0, free_mismatches = 0;
  int spread_trials = 0, spread_cut = 0, spread_mismatches = 0;
  // The forms the trials cycle over: 0 full, 1 light, 2 alternate, 3 free,
  // 4 the full clone spread.
  std::vector<int> forms = {0};
  if (has_light)
    forms.push_back(1);
  if (has_alt)
    forms.push_back(2);
  if (has_free)
    forms.push_back(3);
  if (has_spread)
    forms.push_back(4);

  std::mt19937_64 rng(seed ^ buffer_seed(in.name, 99));
  std::uniform_real_distribution<double> U(0.0, 1.0);
  Tally T;
  for (int t = 0; t < trials && now_s() < item_deadline; ++t) {
    double r = U(rng);
    int mode = r < 0.1 ? 0 : r < 0.55 ? 1 : 2;
    double frac = U(rng) * 1.2;
    int form = forms[t % forms.size()];
    bool light = form == 1;
    CloneLaunch &c = form == 1 ? lite : form == 2 ? alt : form == 3 ? fre : form == 4 ? spr : cl;
    Ctl &ctl = c.ctl;
    L.set_ctl(ctl.ptr);
    restore();
    ctl.reset(s);
    if (mode == 0)
      ctl.set_request(s, request);
    if (mode == 2) {
      void *rp = (void *)ctl.ptr;
      unsigned v = request;
      unsigned long long delay_ns = (unsigned long long)(frac * kernel_us * 1000.0);
      void *kp[] = {&rp, &v, &delay_ns};
      CU(cuLaunchKernel(h.trigger, 1, 1, 1, 1, 1, 1, 0, gpu.hi, kp, nullptr));
    }
    c.launch(L.params(true), s);
    if (mode == 1) {
      spin_until(now_s() + frac * kernel_us * 1e-6);
      CU(cuStreamWriteValue32(gpu.hi, ctl.ptr, request, 0));
    }
    wait_stream(s, 5.0);
    wait_stream(gpu.hi, 5.0);
    uint64_t done = ctl.done_count();
    ++T.trials;
    if (done == in.ctas()) {
      ++T.late;
      ++T.late_by[mode];
    } else {
      ++T.cut;
      ++T.cut_by[mode];
      ctl.set_request(s, 0); // only the request: next/redo (or the bitmap) stay
      c.launch(L.params(true), s); // same clone, P and control block
      wait_stream(s, 5.0);
      if (!ctl.all_done())
        ++T.incomplete;
    }
    bool bad = compared && diff_vs_ref(&T.first_bad_param, &T.first_bad_offset);
    if (bad)
      ++T.mismatch;
    if (light) {
      ++light_trials;
      light_cut += done != in.ctas();
      light_mismatches += bad;
    }
    if (form == 2) {
      ++alt_trials;
      alt_cut += done != in.ctas();
      alt_mismatches += bad;
    }
    if (form == 3) {
      ++free_trials;
      free_cut += done != in.ctas();
      free_mismatches += bad;
    }
    if (form == 4) {
      ++spread_trials;
      spread_cut += done != in.ctas();
      spread_mismatches += bad;
    }
  }
  if (has_light)
    j.integer("light_trials", light_trials).integer("light_cut", light_cut)
        .integer("light_mismatches", light_mismatches);
  if (has_alt)
    j.integer("alt_trials", alt_trials).integer("alt_cut", alt_cut)
        .integer("alt_mismatches", alt_mismatches);
  if (has_free)
    j.integer("free_trials", free_trials).integer("free_cut", free_cut)
        .integer("free_mismatches", free_mismatches);
  if (has_spread)
    j.integer("spread_trials", spread_trials).integer("spread_cut", spread_cut)
        .integer("spread_mismatches", spread_mismatches);
  j.integer("trials", T.trials).integer("cut", T.cut).integer("too_late", T.late)
      .integer("mismatches", T.mismatch).integer("relaunch_incomplete", T.incomplete);
  Json by;
  for (int m = 0; m < 3; ++m)
    by.raw(kModes[m], strfmt("[%d, %d]", T.cut_by[m], T.late_by[m]));
  j.raw("cut_late_by_mode", by.text());
  if (T.first_bad_param >= 0)
    j.integer("first_bad_param", T.first_bad_param)
        .integer("first_bad_offset", (long long)T.first_bad_offset);
  for (size_t i = 0; i < bufs.size(); ++i) {
    if (pristine[i])
      cuMemFree(pristine[i]);
    if (ref[i])
      cuMemFree(ref[i]);
  }
  cuEventDestroy(e0);
  cuEventDestroy(e1);
  return j.text();
}

} // namespace

int run_correctness(const PartOptions &o) {
  std::vector<Instance> ins;
  if (!load_manifest("correctness", o.manifest, ins))
    return 2;
  int n = (int)ins.size();
  double deadline = now_s() + o.budget_s;
  printf("correctness: %d instances from %s, %d trials each, budget %.0f s\n", n,
         o.manifest.c_str(), o.trials, o.budget_s);
  return run_part(
      o, "correctness", n, 30.0,
      [&](int i, Worker &w) {
        double left = deadline - now_s();
        double item_deadline = now_s() + std::max(0.05, left / (n - i));
        return run_instance(ins[i], w.gpu, w.h, w.mods, o.trials, item_deadline, o.seed);
      },
      [&](int i) { return Json().str("name", ins[i].name); },
      [&](int i) { return ins[i].name; }, [] { return false; });
}

} // namespace pb
