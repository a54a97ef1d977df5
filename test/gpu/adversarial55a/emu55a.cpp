// Host emulation for adversarial round 55a (lattice maps, gl_*.cu). Copied
// from ../adversarial54/emu_alias.cpp and extended: a thread step loads a
// list of words (ld) and then stores from them (st); steps are grouped in
// barrier phases (a kernel's `for (r < rounds) { if (t == r) ...;
// __syncthreads(); }` puts thread r's step in phase r). Schedules:
//   fwd      blocks in order, steps in thread order, each load-then-store
//   rev      blocks and threads reversed
//   lock     warps in order; in a warp every lane loads, then every lane
//            stores (a converged warp on the GPU)
//   lockrev  lock with warps (and blocks) reversed
//   cut      fwd, block 0 stopped at the end of phase 0 (the loop's
//            barrier, where gmem places a checkpoint) and the launch run
//            again from the start; compared with one fwd run. For
//            one-phase kernels block 0 runs half its threads
//            (informational: a stop inside a CTA).
// Each launch is run twice per schedule and the memories compared.
// Build: clang++-19 -O1 -std=c++17 emu55a.cpp -o /tmp/emu55a && /tmp/emu55a
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using Mem = std::vector<std::vector<double>>;
using Vals = std::vector<double>;
struct Thread {
  int block, warp, phase;
  std::function<Vals(const Mem &)> ld;
  std::function<void(Mem &, const Vals &)> st;
};
struct Launch {
  std::vector<Thread> threads;
  int phases = 1;
};

static void runWarpLock(Mem &m, const std::vector<const Thread *> &ts, bool revWarps) {
  std::vector<int> warps;
  for (auto *t : ts)
    if (std::find(warps.begin(), warps.end(), t->warp) == warps.end()) warps.push_back(t->warp);
  if (revWarps) std::reverse(warps.begin(), warps.end());
  for (int w : warps) {
    std::vector<const Thread *> lanes;
    for (auto *t : ts)
      if (t->warp == w) lanes.push_back(t);
    std::vector<Vals> v;
    for (auto *t : lanes) v.push_back(t->ld(m));
    for (size_t k = 0; k < lanes.size(); ++k) lanes[k]->st(m, v[k]);
  }
}
static void run(const Launch &L, Mem &m, const std::string &S, int cut = -1) {
  std::vector<int> blocks;
  for (auto &t : L.threads)
    if (std::find(blocks.begin(), blocks.end(), t.block) == blocks.end()) blocks.push_back(t.block);
  const bool rev = S == "rev" || S == "lockrev";
  if (rev) std::reverse(blocks.begin(), blocks.end());
  for (int b : blocks)
    for (int p = 0; p < L.phases; ++p) {
      std::vector<const Thread *> ts;
      for (auto &t : L.threads)
        if (t.block == b && t.phase == p) ts.push_back(&t);
      if (cut != -1 && b == 0) {
        if (p > 0) break;
        if (cut >= 0) ts.resize(std::min<size_t>(ts.size(), cut));
      }
      if (S == "rev") std::reverse(ts.begin(), ts.end());
      if (S == "lock" || S == "lockrev") runWarpLock(m, ts, S == "lockrev");
      else
        for (auto *t : ts) t->st(m, t->ld(m));
    }
}
static int diff(const Mem &a, const Mem &b, std::string &ex) {
  int n = 0;
  for (size_t k = 0; k < a.size(); ++k)
    for (size_t e = 0; e < a[k].size(); ++e)
      if (!(a[k][e] == b[k][e]) && !(std::isnan(a[k][e]) && std::isnan(b[k][e]))) {
        if (!n) ex = "buf" + std::to_string(k) + "[" + std::to_string(e) + "] " +
                     std::to_string(a[k][e]) + " then " + std::to_string(b[k][e]);
        ++n;
      }
  return n;
}

struct Kernel {
  std::string name;
  std::function<Mem()> init;
  std::function<Launch(int OUT)> make; // OUT: buffer stored to (in place: the read one)
  std::function<Mem()> initOop;        // out of place instance, or null
  int oopOut = -1;
};
static int64_t I(double d) { return int64_t(d); }
static Vals fill(int n, double v) { return Vals(n, v); }
static Vals iota(int n) { Vals v(n); for (int i = 0; i < n; ++i) v[i] = i; return v; }
using Map = std::function<bool(double x, double &out)>; // guard + map; false: no store

// One step per thread: thread t of the block (warp t/32 unless given) in
// phase ph(t) (-1: no step) loads buf[X][elem(t)] and, if the guard holds,
// stores f into buf[OUT][elem(t)].
static Launch phased(int nthreads, int phases, std::function<int(int)> ph,
                     std::function<int(int)> elem, int X, int OUT,
                     std::function<Map(int)> map, std::function<int(int)> warp = nullptr,
                     std::function<int(int)> block = nullptr) {
  Launch L;
  L.phases = phases;
  for (int t = 0; t < nthreads; ++t) {
    int p = ph(t);
    if (p < 0) continue;
    int j = elem(t);
    Map f = map(t);
    L.threads.push_back(Thread{block ? block(t) : 0, warp ? warp(t) : t / 32, p,
                               [=](const Mem &m) { return Vals{m[X][j]}; },
                               [=](Mem &m, const Vals &v) {
                                 double o;
                                 if (f(v[0], o)) m[OUT][j] = o;
                               }});
  }
  return L;
}
static double clampi(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

int main() {
  std::vector<Kernel> ks;
  auto r2 = [](int t) { return t < 2 ? t : -1; };      // thread r acts in round r (rounds = 2)
  auto r3 = [](int t) { return t < 3 ? t : -1; };
  auto e0 = [](int) { return 0; };
  // ---- gl_guarded.cu ----
  auto clampNe = [](int t) { return Map([t](double x, double &o) { if (x == 1) return false; o = clampi(x, 2 * t, t + 1); return true; }); };
  ks.push_back({"gl_clamp_ne (p = 0)", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, clampNe); }});
  ks.push_back({"gl_clamp_ne_table (p = 0, lo = {0,2}, hi = {1,2})", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, clampNe); }});
  auto andorPos = [](int t) { return Map([t](double x, double &o) { if (!(x > 0)) return false; o = double((I(x) & (t ^ 1)) | (t << 1)); return true; }); };
  ks.push_back({"gl_andor_pos (p = 1)", [] { return Mem{fill(1, 1)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, andorPos); }});
  ks.push_back({"gl_fclamp_ne (p = 0.0f)", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, clampNe); }});
  ks.push_back({"gl_clamp_ne_warps (p[32] = 0)", [] { return Mem{fill(32, 0)}; },
                [=](int O) { return phased(64, 2, [](int t) { return t >> 5; }, [](int t) { return t & 31; }, 0, O,
                                           [](int t) { return Map([w = t >> 5](double x, double &o) { if (x == 1) return false; o = clampi(x, 2 * w, w + 1); return true; }); }); }});
  ks.push_back({"gl_clamp_ne_lanes (p = 0, 2 lanes, one phase)", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(2, 1, [](int) { return 0; }, e0, 0, O, clampNe); }});
  ks.push_back({"gl_clamp_ctrl (control, p = 0)", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, [](int t) { return Map([t](double x, double &o) { o = clampi(x, 2 * t, t + 1); return true; }); }); }});
  ks.push_back({"gl_max_lt_ctrl (control, p = 0, rounds 3)", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(32, 3, r3, e0, 0, O, [](int t) { return Map([t](double x, double &o) { if (!(x < 5)) return false; o = std::max(x, 3.0 * t); return true; }); }); }});
  ks.push_back({"gl_clamp_ne_select (p = 0; store always, select)", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, [](int t) { return Map([t](double x, double &o) { o = x != 1 ? clampi(x, 2 * t, t + 1) : x; return true; }); }); }});
  ks.push_back({"gl_clamp_ne_same (control, lo 0 hi 1)", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, [](int) { return Map([](double x, double &o) { if (x == 1) return false; o = clampi(x, 0, 1); return true; }); }); }});
  ks.push_back({"gl_andor_table (p = 1, A = {1,0}, B = {0,2})", [] { return Mem{fill(1, 1)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, andorPos); }});
  ks.push_back({"gl_andor_warps (p[32] = 1)", [] { return Mem{fill(32, 1)}; },
                [=](int O) { return phased(64, 2, [](int t) { return t >> 5; }, [](int t) { return t & 31; }, 0, O,
                                           [=](int t) { return andorPos(t >> 5); }); }});
  ks.push_back({"gl_andor_bit (control, p = 5)", [] { return Mem{fill(1, 5)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, [](int t) { return Map([t](double x, double &o) { if (!(I(x) & 4)) return false; o = double((I(x) & (3 + 4 * t)) | (4 * t)); return true; }); }); }});
  ks.push_back({"gl_andor_lanes (p = 1, 2 lanes, one phase)", [] { return Mem{fill(1, 1)}; },
                [=](int O) { return phased(2, 1, [](int) { return 0; }, e0, 0, O, andorPos); }});
  ks.push_back({"gl_andor_ctrl (control, p = 1)", [] { return Mem{fill(1, 1)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, [](int t) { return Map([t](double x, double &o) { o = double((I(x) & (t ^ 1)) | (t << 1)); return true; }); }); }});
  ks.push_back({"gl_andor_same (control, a 1 b 2)", [] { return Mem{fill(1, 1)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, [](int) { return Map([](double x, double &o) { if (!(x > 0)) return false; o = double((I(x) & 1) | 2); return true; }); }); }});
  // ---- gl_mixed.cu ----
  ks.push_back({"mx_max_or (p = 0, rounds 4)", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(32, 4, [](int t) { return t < 4 ? t : -1; }, e0, 0, O, [](int t) { return Map([t](double x, double &o) { o = (t & 1) ? std::max(x, double(t)) : double(I(x) | t); return true; }); }); }});
  ks.push_back({"mx_or_then_max (p = 0; one thread, two steps)", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(2, 2, [](int s) { return s; }, e0, 0, O, [](int s) { return Map([s](double x, double &o) { o = s == 0 ? double(I(x) | 1) : std::max(x, 2.0); return true; }); }, [](int) { return 0; }); }});
  ks.push_back({"mx_smax_umin (p[2] = 0, 64 threads, one phase)", [] { return Mem{fill(2, 0)}; },
                [=](int O) { return phased(64, 1, [](int) { return 0; }, [](int t) { return t & 1; }, 0, O, [](int t) { return Map([t](double x, double &o) {
                  int32_t a = std::max(int32_t(x), t - 32); uint32_t u = std::min(uint32_t(a), 0x80000000u + t); o = double(int32_t(u)); return true; }); }); }});
  ks.push_back({"mx_shared_operand (p = 0, q = iota)", [] { return Mem{fill(1, 0)}; },
                [=](int O) { return phased(64, 1, [](int) { return 0; }, e0, 0, O, [](int t) { return Map([t](double x, double &o) { o = std::max(x, 3.0 * (t ^ 1)); return true; }); }); }});
  { // mx_self_operand: p[0] = p[0] | p[t + 1], p = iota(32), 31 threads
    Kernel k{"mx_self_operand (p = iota)", [] { return Mem{iota(32)}; }, [](int) {
      Launch L;
      for (int t = 0; t < 31; ++t)
        L.threads.push_back(Thread{0, 0, 0, [t](const Mem &m) { return Vals{m[0][0], m[0][t + 1]}; },
                                   [](Mem &m, const Vals &v) { m[0][0] = double(I(v[0]) | I(v[1])); }});
      return L; }};
    ks.push_back(k);
  }
  auto selAlias = [](int M) {
    return [M](int) {
      Launch L;
      for (int t = 0; t < 32; ++t)
        L.threads.push_back(Thread{0, 0, 0, [t, M](const Mem &m) { return Vals{m[0][t >> 2], m[M][t]}; },
                                   [t](Mem &m, const Vals &v) { m[0][t >> 2] = v[1] != 0 ? t : v[0]; }});
      return L; };
  };
  ks.push_back({"mx_select_alias (x = 0, m = iota apart)", [] { return Mem{fill(32, 0), iota(32)}; }, selAlias(1)});
  ks.push_back({"mx_select_alias (m == x)", [] { return Mem{fill(32, 0)}; }, selAlias(0)});
  ks.push_back({"mx_select_ctrl (control, x[8] = 0, grid 2)", [] { return Mem{fill(8, 0)}; },
                [=](int O) { return phased(128, 1, [](int) { return 0; }, [](int g) { return (g & 63) >> 4; }, 0, O,
                                           [](int g) { return Map([g](double x, double &o) { o = ((g & 63) & 3) == 1 ? double(g >> 6) : x; return true; }); },
                                           [](int g) { return g / 32; }, [](int g) { return g >> 6; }); }});
  ks.push_back({"mx_max_ctrl (control, x[16] = 0, grid 2)", [] { return Mem{fill(16, 0)}; },
                [=](int O) { return phased(128, 1, [](int) { return 0; }, [](int g) { return (g & 63) >> 3; }, 0, O,
                                           [](int g) { return Map([g](double x, double &o) { o = std::max(x, double((g & 63) + (g >> 6))); return true; }); },
                                           [](int g) { return g / 32; }, [](int g) { return g >> 6; }); }});
  ks.push_back({"ao_andor_pos (x = 1; out == x in place; out of place: out = buf1)", [] { return Mem{fill(1, 1)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, andorPos); },
                [] { return Mem{fill(1, 1), fill(1, 0)}; }, 1});
  ks.push_back({"gl_andor_2d (p[32] = 1, block 32x2)", [] { return Mem{fill(32, 1)}; },
                [=](int O) { return phased(64, 2, [](int t) { return t >> 5; }, [](int t) { return t & 31; }, 0, O,
                                           [=](int t) { return andorPos(t >> 5); }); }});
  ks.push_back({"gl_andor_ifelse (p = 1; dbg not modelled: it stores t)", [] { return Mem{fill(1, 1)}; },
                [=](int O) { return phased(32, 2, r2, e0, 0, O, andorPos); }});
  ks.push_back({"gl_andor_ne0 (control, p = 1, rounds 3)", [] { return Mem{fill(1, 1)}; },
                [=](int O) { return phased(32, 3, r3, e0, 0, O, [](int t) { return Map([t](double x, double &o) { if (x == 0) return false; o = double((I(x) & (t == 2 ? 1 : 3)) | (t == 1 ? 2 : 0)); return true; }); }); }});

  const char *scheds[] = {"fwd", "rev", "lock", "lockrev"};
  int bad = 0;
  for (auto &k : ks) {
    std::printf("%s\n", k.name.c_str());
    if (k.initOop) {
      Mem ref = k.initOop();
      run(k.make(k.oopOut), ref, "fwd");
      int races = 0;
      for (const char *s : scheds) {
        Mem m = k.initOop();
        run(k.make(k.oopOut), m, s);
        std::string ex;
        if (int d = diff(ref, m, ex)) { ++races; std::printf("  out of place, %s vs fwd: %d words differ (race) %s\n", s, d, ex.c_str()); }
        Mem m2 = m;
        run(k.make(k.oopOut), m2, s);
        if (int d = diff(m, m2, ex)) std::printf("  out of place, %s run twice: %d differ %s\n", s, d, ex.c_str());
      }
      if (!races) std::printf("  out of place: same output under every schedule (no race)\n");
    }
    int kb = 0;
    for (const char *s : scheds) {
      Mem m1 = k.init();
      run(k.make(0), m1, s);
      Mem m2 = m1;
      run(k.make(0), m2, s);
      std::string ex;
      int d = diff(m1, m2, ex);
      std::printf("  %-7s run twice: %3d words differ%s%s\n", s, d, d ? "  e.g. " : "", ex.c_str());
      kb += d != 0;
    }
    Launch L = k.make(0);
    int cut = L.phases > 1 ? -2 : int(std::count_if(L.threads.begin(), L.threads.end(), [](const Thread &t) { return t.block == 0; }) / 2);
    Mem once = k.init(), c = k.init();
    run(L, once, "fwd");
    run(L, c, "fwd", cut);
    run(L, c, "fwd");
    std::string ex;
    int d = diff(once, c, ex);
    std::printf("  cut%s then rerun: %3d words differ from one run%s%s\n",
                cut == -2 ? " at the loop barrier," : " (inside block 0, informational),", d, d ? "  e.g. " : "", ex.c_str());
    bad += kb != 0;
  }
  std::printf("%d kernels with a schedule whose run twice differs\n", bad);
  return 0;
}
