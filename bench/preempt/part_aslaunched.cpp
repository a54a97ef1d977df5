// Part 5: the overhead as libgmemrt launches, not as part 2 predicts it.
//
// Run under LD_PRELOAD=libgmemrt.so with GMEM_SCHED=1 (bench/preempt/
// aslaunched_on_device.sh). Per instance of the overhead manifest the
// original kernel is launched with cuLaunchKernel, alternately
//  * on the legacy default stream, which libgmemrt passes through untouched
//    (the kernel as compiled: the baseline), and
//  * on the harness's best-effort stream, where the scheduler picks the form
//    by its own timings (CloneChoice.h) and gates it, as any program's
//    launch: the control block reset, the gate wait and the form together
//    are what the program pays;
// each launch timed alone with events recorded by this program around its
// cuLaunchKernel, the two kinds side by side in one process, in three ways:
//  * sync: the stream is idle when the launch is made, so the time also
//    holds the host's work on the launch path (libgmemrt's decision and
//    driver calls): what a program that waits for each kernel sees;
//  * queued: behind a 100 us delay kernel on the same stream, so the host's
//    work is done before the kernel could start: the GPU-side cost alone,
//    what a program that runs ahead of the GPU (most do) sees;
//  * chain: eight launches back to back behind the delay kernel, timed
//    together: what lies between a stream's kernels counts too (gate
//    waits, which short launches take once per budget of work);
//  * queued with ops: the kernel as compiled on the legacy stream, queued,
//    followed by the stream operations libgmemrt puts behind a clone (an
//    event without timing, a wait for a zero device word, another such
//    event): what those operations alone cost this kernel's launch, so that
//    the scheduled launch's excess splits into operations and form.
// A manifest line's vary=I:N gives scalar parameter I a new value on every
// launch (Instance::vary_arg), as a program passing a step counter does;
// vary_grid=N a new grid_x (Instance::vary_grid), as a request's size.
// The first
// kWarmup launches of each kind are left out (the scheduler's form
// comparisons run then); reported: medians and P99 of both, their ratio,
// and how many of the kernel's scheduled launches ran each form
// (gmemSchedGetCloneStats deltas around each of them, found with dlsym), so
// a cap's effect (GMEM_PREEMPT_MAX_OVERHEAD) shows as capped launches.
#include "parts.h"

#include "gmem/gmem_sched.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pb {

namespace {

// (48: libgmemrt's segment scale takes up to 4 timed launches and 3 stop
// probes per step after the form and spread are decided.)
constexpr int kWarmup = 48;
constexpr int kChain = 8; // launches per chain (variants 4 and 5)

using CloneStatsFn = int (*)(gmemSchedCloneStats *);

/// What the "queued with ops" launch puts behind the kernel: PB_OPS, a
/// sequence of 'e' (an event without timing), 'w' (a wait for a zero
/// device word) and 'h' (a write of a word in mapped host memory, ~1.3 us
/// more of the stream than an event on the H200: bench/preempt/results/
/// session47); libgmemrt's is "ewe" (drain event, hold wait, done event).
/// Other forms of the wait: 'g' (>= 0), 'q' (64-bit), 'b' (in a
/// cuStreamBatchMemOp). Read once per run.
const char *ops_sequence() {
  static const char *const seq = [] {
    const char *v = getenv("PB_OPS");
    if (!v || !*v)
      return "ewe";
    if (strspn(v, "ewgqbh") != strlen(v)) {
      fprintf(stderr, "aslaunched: PB_OPS=%s: want letters e, w, g, q, b, h only; using ewe\n", v);
      return "ewe";
    }
    return v;
  }();
  return seq;
}

bool clone_stats(CloneStatsFn f, gmemSchedCloneStats &s) {
  s = gmemSchedCloneStats();
  s.size = sizeof s;
  return f && f(&s) == 0;
}

std::string measure(const Instance &in, Gpu &gpu, const Helpers &h,
                    std::map<std::string, std::unique_ptr<Module>> &mods, CloneStatsFn stats) {
  Json j;
  j.str("name", in.name).str("symbol", in.sym).str("pred", in.pred)
      .integer("ctas", (long long)in.ctas());
  if (in.vary_arg >= 0)
    j.integer("vary_arg", in.vary_arg)
        .integer("vary_count", in.vary_down ? -(long long)in.vary_count : (long long)in.vary_count);
  if (in.vary_grid)
    j.integer("vary_grid", in.vary_grid);
  if (!in.error.empty())
    return j.str("error", "manifest: " + in.error).text();
  auto &mod = mods[in.ptx];
  if (!mod) {
    mod.reset(new Module());
    mod->load(in.ptx);
  }
  CUfunction f = mod->fn(in.sym);
  Launch L;
  L.setup(in, h, gpu.lo);
  CU(cuCtxSynchronize());
  CUevent e0, e1;
  CU(cuEventCreate(&e0, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&e1, CU_EVENT_DEFAULT));
  bool counting = false;
  uint64_t forms[7] = {};
  uint64_t gates[2] = {}; // ungated and timed clone launches
  CUdeviceptr scratch = 0, zero_word = 0, zero_word64 = 0;
  CU(cuMemAlloc(&scratch, 4));
  CU(cuMemAlloc(&zero_word, 4));
  CU(cuMemsetD32(zero_word, 0, 1));
  CU(cuMemAlloc(&zero_word64, 8));
  CU(cuMemsetD32(zero_word64, 0, 2));
  // 'h': a counter in mapped pinned memory, as libgmemrt's done counters.
  void *host_word = nullptr;
  CUdeviceptr host_word_dev = 0;
  uint32_t host_seq = 0;
  CU(cuMemHostAlloc(&host_word, 4, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
  CU(cuMemHostGetDevicePointer(&host_word_dev, host_word, 0));
  const char *ops_seq = ops_sequence();
  j.str("ops", ops_seq);
  CUevent ops_drain, ops_done; // no timing, as libgmemrt's
  CU(cuEventCreate(&ops_drain, CU_EVENT_DISABLE_TIMING));
  CU(cuEventCreate(&ops_done, CU_EVENT_DISABLE_TIMING));
  unsigned step = 0;
  // PB_FLUSH_START=1: a stream query right after the start mark, so that
  // the driver submits the mark before the launch call in both kinds of
  // launch (diagnostics: does a driver call inside libgmemrt's hook submit
  // the mark early, so that the hook's host time shows in the sync column
  // while the plain launch call's does not?).
  static const bool flush_start = [] {
    const char *v = getenv("PB_FLUSH_START");
    return v && *v == '1';
  }();
  double host_ms = 0; // the last run's host time, mark to synchronised end
  double call_us = 0; // the last run's launch calls (all of a chain), host time
  auto run = [&](CUstream s, bool queued = false, int chain = 1, bool ops = false) {
    if (queued) {
      unsigned value = 0;
      // A chain's launches must all be on the stream before it starts
      // (a scheduled clone launch takes ~12 us of host time).
      // PB_QUEUE_DELAY_US (diagnostics): another delay for single launches.
      static const unsigned long long single_ns = [] {
        const char *v = getenv("PB_QUEUE_DELAY_US");
        return v && *v ? strtoull(v, nullptr, 10) * 1000ull : 100000ull;
      }();
      unsigned long long delay_ns = chain > 1 ? 400000 : single_ns;
      void *args[] = {&scratch, &value, &delay_ns};
      CU(cuLaunchKernel(h.trigger, 1, 1, 1, 1, 1, 1, 0, s, args, nullptr));
    }
    const double h0 = now_s();
    call_us = 0;
    CU(cuEventRecord(e0, s));
    if (flush_start)
      (void)cuStreamQuery(s);
    // Forms counted around the kernel's own launch only (the delay kernel
    // is scheduled too).
    gmemSchedCloneStats b, a;
    const bool count = counting && clone_stats(stats, b);
    // A manifest's vary= and vary_grid=: a new value or grid every launch.
    for (int c = 0; c < chain; ++c) {
      const unsigned k = step++;
      L.vary(in, k);
      const double c0 = now_s();
      launch(f, in, in.grid_x(k), L.params(false), s);
      call_us += (now_s() - c0) * 1e6;
      for (const char *o = ops ? ops_seq : ""; *o; ++o) {
        if (*o == 'w')
          CU(cuStreamWaitValue32(s, zero_word, 0, CU_STREAM_WAIT_VALUE_EQ));
        else if (*o == 'g')
          CU(cuStreamWaitValue32(s, zero_word, 0, CU_STREAM_WAIT_VALUE_GEQ));
        else if (*o == 'q')
          CU(cuStreamWaitValue64(s, zero_word64, 0, CU_STREAM_WAIT_VALUE_EQ));
        else if (*o == 'h')
          CU(cuStreamWriteValue32(s, host_word_dev, ++host_seq, CU_STREAM_WRITE_VALUE_DEFAULT));
        else if (*o == 'b') {
          CUstreamBatchMemOpParams bp = {};
          bp.waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
          bp.waitValue.address = zero_word;
          bp.waitValue.value = 0;
          bp.waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
          CU(cuStreamBatchMemOp(s, 1, &bp, 0));
        } else
          CU(cuEventRecord(o == ops_seq ? ops_drain : ops_done, s));
      }
    }
    if (count && clone_stats(stats, a)) {
      forms[0] += a.full_launches - b.full_launches;
      forms[1] += a.light_launches - b.light_launches;
      forms[2] += a.alt_launches - b.alt_launches;
      forms[3] += a.free_launches - b.free_launches;
      forms[4] += a.capped_launches - b.capped_launches;
      forms[5] += a.short_launches - b.short_launches;
      forms[6] += a.scale_probes - b.scale_probes;
      gates[0] += a.ungated_launches - b.ungated_launches;
      gates[1] += a.timed_launches - b.timed_launches;
    }
    CU(cuEventRecord(e1, s));
    CU(cuEventSynchronize(e1));
    host_ms = (now_s() - h0) * 1e3;
    float ms = 0;
    CU(cuEventElapsedTime(&ms, e0, e1));
    return (double)ms / chain;
  };
  CUstream plain = nullptr, sched = gpu.lo; // legacy: passed through
  double first = run(plain);
  // Rounds: as many as fit in ~0.6 s, 61 to 201 (twenty launches each,
  // two chains among them; the chooser re-times a form every 64th launch,
  // which the median must outvote).
  const int rounds = (int)std::clamp(0.6 / std::max(2e-2 * first + 1e-3, 1e-6), 61.0, 201.0);
  // Segment scale steps over the whole instance (warm-up included): the
  // runtime raises a shape's scale one step at a time.
  gmemSchedCloneStats w0, w1;
  const bool whole = clone_stats(stats, w0);
  for (int r = 0; r < kWarmup; ++r) {
    run(plain);
    run(sched);
  }
  counting = stats != nullptr;
  // 0 plain sync, 1 scheduled sync, 2 plain queued, 3 scheduled queued,
  // 4 plain chain, 5 scheduled chain; the order rotates every round. A
  // chain is kChain launches back to back behind the delay kernel, timed
  // together (per launch): a program that queues a stream of kernels pays
  // what lies between them too (gate waits, holds), and short launches'
  // gates come once per budget of work, not per launch.
  // 6 plain queued with the clone's stream operations after the kernel.
  // 7 plain sync with the clone's stream operations after the kernel.
  std::vector<double> t[8];
  std::vector<double> host[2]; // variants 0 and 1: what the host waited
  std::vector<double> call[4]; // variants 0-3: the launch call's host time
  // PB_VARIANTS=digits (diagnostics): run only these variants (the
  // others report null), e.g. "01" for the sync pair alone, so that a
  // profile of libgmemrt's launch path sees one kind of launch.
  // A launch-profile build of libgmemrt (-DGMEMRT_LAUNCH_PROFILE=ON)
  // keeps one profile per variant.
  static const auto tag = reinterpret_cast<void (*)(unsigned)>(dlsym(RTLD_DEFAULT, "gmemProfileTag"));
  static const std::string only = [] {
    const char *v = getenv("PB_VARIANTS");
    return std::string(v ? v : "");
  }();
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < 8; ++k) {
      const int v = (r + k) % 8;
      if (!only.empty() && only.find(char('0' + v)) == std::string::npos)
        continue;
      if (tag)
        tag(unsigned(v));
      if (v == 6)
        t[v].push_back(run(plain, true, 1, true));
      else if (v == 7)
        t[v].push_back(run(plain, false, 1, true));
      else
        t[v].push_back(run(v & 1 ? sched : plain, v >= 2, v >= 4 ? kChain : 1));
      if (v < 2)
        host[v].push_back(host_ms);
      if (v < 4)
        call[v].push_back(call_us);
    }
  auto &tp = t[0], &ts = t[1];
  if (counting) {
    Json fj;
    fj.integer("full", (long long)forms[0]).integer("light", (long long)forms[1])
        .integer("alt", (long long)forms[2]).integer("free", (long long)forms[3])
        .integer("capped", (long long)forms[4]).integer("short", (long long)forms[5])
        .integer("scale_probes", (long long)forms[6]);
    j.raw("forms", fj.text());
    j.integer("ungated", (long long)gates[0]).integer("timed", (long long)gates[1]);
  }
  if (whole && clone_stats(stats, w1))
    j.raw("scale", Json().integer("probes", (long long)(w1.scale_probes - w0.scale_probes))
                       .integer("raised", (long long)(w1.scale_raised - w0.scale_raised))
                       .text());
  const double mp = percentile(tp, 50), ms = percentile(ts, 50);
  j.integer("rounds", rounds).num("orig_ms", mp).num("gmem_ms", ms)
      .num("orig_p99_ms", percentile(tp, 99)).num("gmem_p99_ms", percentile(ts, 99))
      .num("overhead", ms / mp - 1.0);
  // The same sync launches by the host's clock: from before the start
  // mark to the end mark's synchronisation returning, as a program that
  // waits for each kernel sees them (the GPU events start at whatever
  // moment the driver submits the mark).
  const double hp = percentile(host[0], 50), hs = percentile(host[1], 50);
  j.num("orig_host_ms", hp).num("gmem_host_ms", hs)
      .num("orig_host_p99_ms", percentile(host[0], 99)).num("gmem_host_p99_ms", percentile(host[1], 99))
      .num("overhead_host", hs / hp - 1.0);
  // How long the launch call itself held the host (libgmemrt's hook with
  // the driver's call in it), sync and queued.
  j.num("orig_call_us", percentile(call[0], 50)).num("gmem_call_us", percentile(call[1], 50))
      .num("orig_call_p99_us", percentile(call[0], 99)).num("gmem_call_p99_us", percentile(call[1], 99))
      .num("orig_queued_call_us", percentile(call[2], 50))
      .num("gmem_queued_call_us", percentile(call[3], 50))
      .num("gmem_queued_call_p99_us", percentile(call[3], 99));
  const double qp = percentile(t[2], 50), qs = percentile(t[3], 50);
  j.num("orig_queued_ms", qp).num("gmem_queued_ms", qs)
      .num("orig_queued_p99_ms", percentile(t[2], 99)).num("gmem_queued_p99_ms", percentile(t[3], 99))
      .num("overhead_queued", qs / qp - 1.0);
  const double qo = percentile(t[6], 50);
  j.num("orig_ops_queued_ms", qo).num("orig_ops_queued_p99_ms", percentile(t[6], 99))
      .num("ops_queued", qo / qp - 1.0);
  const double so = percentile(t[7], 50);
  j.num("orig_ops_sync_ms", so).num("ops_sync", so / mp - 1.0);
  const double cp = percentile(t[4], 50), cs = percentile(t[5], 50);
  j.integer("chain", kChain).num("orig_chain_ms", cp).num("gmem_chain_ms", cs)
      .num("orig_chain_p99_ms", percentile(t[4], 99)).num("gmem_chain_p99_ms", percentile(t[5], 99))
      .num("overhead_chain", cs / cp - 1.0);
  cuMemFree(scratch);
  cuMemFree(zero_word);
  cuMemFree(zero_word64);
  cuCtxSynchronize();
  cuMemFreeHost(host_word);
  cuEventDestroy(ops_drain);
  cuEventDestroy(ops_done);
  cuEventDestroy(e0);
  cuEventDestroy(e1);
  return j.text();
}

} // namespace

int run_aslaunched(const PartOptions &o) {
  std::vector<Instance> ins;
  if (!load_manifest("aslaunched", o.manifest, ins))
    return 2;
  auto stats = reinterpret_cast<CloneStatsFn>(dlsym(RTLD_DEFAULT, "gmemSchedGetCloneStats"));
  if (!stats)
    fprintf(stderr, "aslaunched: libgmemrt is not loaded (LD_PRELOAD): both kinds of launch "
                    "run the kernel as compiled\n");
  const int n = (int)ins.size();
  const double deadline = now_s() + o.budget_s;
  printf("aslaunched: %d instances from %s, budget %.0f s, libgmemrt %s\n", n,
         o.manifest.c_str(), o.budget_s, stats ? "loaded" : "NOT loaded");
  return run_part(
      o, "aslaunched", n, 40.0,
      [&](int i, Worker &w) {
        std::string json = measure(ins[i], w.gpu, w.h, w.mods, stats);
        w.mods.clear(); // one module at a time: big instances need the memory
        return json;
      },
      [&](int i) { return Json().str("name", ins[i].name); },
      [&](int i) { return ins[i].name; }, [&] { return now_s() >= deadline; });
}

} // namespace pb
