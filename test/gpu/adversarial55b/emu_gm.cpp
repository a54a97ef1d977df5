// Host emulation for adversarial round 55b (guarded maps, gm_*.cu), after
// test/gpu/adversarial54/emu_alias.cpp. Each thread runs, per barrier
// phase, a load step and a store step on its own state (State: a few
// registers). Schedules:
//   fwd      blocks in order, threads in order, each thread load-then-store
//   rev      blocks and threads reversed
//   lock     warps in order; in a warp every lane loads, then every lane
//            stores (a converged warp)
//   lockrev  lock with warps and blocks reversed
//   cut      block 0 stopped halfway through its first phase, then the
//            launch run again from the start (compared with one fwd run)
// Each launch is run twice per schedule and the memories compared. The
// maps are written from the kernels' source (C semantics: int wraps as
// unsigned, float compares in float or double as the source says).
// Build: clang++-19 -O1 -std=c++17 emu_gm.cpp -o emu_gm && ./emu_gm
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using Mem = std::vector<std::vector<double>>; // buffers; ints and floats held exactly
struct State { double r[4] = {0, 0, 0, 0}; };
struct Step {
  std::function<void(const Mem &, State &)> ld;
  std::function<void(Mem &, State &)> st;
};
struct Thread { int block, warp; std::vector<Step> phases; };
using Launch = std::vector<Thread>;

static void run(const Launch &L, Mem &m, const std::string &S, int cut = -1) {
  std::vector<State> st(L.size());
  std::vector<int> blocks;
  for (auto &t : L) if (blocks.empty() || blocks.back() != t.block) blocks.push_back(t.block);
  const bool rev = S == "rev" || S == "lockrev";
  if (rev) std::reverse(blocks.begin(), blocks.end());
  size_t P = 0;
  for (auto &t : L) P = std::max(P, t.phases.size());
  for (int b : blocks)
    for (size_t p = 0; p < P; ++p) {
      std::vector<size_t> ts;
      for (size_t k = 0; k < L.size(); ++k)
        if (L[k].block == b && p < L[k].phases.size()) ts.push_back(k);
      if (cut >= 0 && b == 0) {
        if (p > 0) break;
        ts.resize(std::min<size_t>(ts.size(), cut));
      }
      if (S == "rev") std::reverse(ts.begin(), ts.end());
      if (S == "lock" || S == "lockrev") {
        std::vector<int> warps;
        for (auto k : ts) if (warps.empty() || warps.back() != L[k].warp) warps.push_back(L[k].warp);
        if (S == "lockrev") std::reverse(warps.begin(), warps.end());
        for (int w : warps) {
          for (auto k : ts) if (L[k].warp == w) L[k].phases[p].ld(m, st[k]);
          for (auto k : ts) if (L[k].warp == w) L[k].phases[p].st(m, st[k]);
        }
      } else {
        for (auto k : ts) { L[k].phases[p].ld(m, st[k]); L[k].phases[p].st(m, st[k]); }
      }
    }
}
static int diff(const Mem &a, const Mem &b, std::string &ex, int scratch = 0) {
  int n = 0;
  for (size_t k = 0; k + scratch < a.size(); ++k)
    for (size_t e = 0; e < a[k].size(); ++e)
      if (!(a[k][e] == b[k][e]) && !(std::isnan(a[k][e]) && std::isnan(b[k][e]))) {
        if (!n) { char buf[160]; std::snprintf(buf, sizeof buf, "buf%zu[%zu] %.9g then %.9g", k, e, a[k][e], b[k][e]); ex = buf; }
        ++n;
      }
  return n;
}
static unsigned seed = 12345;
static std::vector<double> randint(int n, int lo, int hi) { // [lo, hi)
  std::vector<double> v(n);
  for (auto &e : v) { seed = seed * 1103515245u + 12345u; e = lo + int((seed >> 8) % unsigned(hi - lo)); }
  return v;
}
static std::vector<double> randf(int n) { // [-2, 2) floats, with -0.0 and 0.1f, 1.0f, 0.5f sprinkled
  std::vector<double> v(n);
  int k = 0;
  for (auto &e : v) {
    seed = seed * 1103515245u + 12345u;
    float f = float(int((seed >> 8) % 4000) - 2000) / 1000.f;
    switch (k++ % 16) { case 3: f = -0.f; break; case 5: f = 0.1f; break; case 7: f = 1.f; break; case 9: f = 0.5f; break; case 11: f = NAN; break; }
    e = f;
  }
  return v;
}
static std::vector<double> zero(int n) { return std::vector<double>(n, 0); }
static int32_t I(double d) { return int32_t(int64_t(d)); }
static float F(double d) { return float(d); }

// One word per thread: x = v[j]; if (map decides) v[j] = value.
// map(x, &out) returns true when it stores out.
using Map = std::function<bool(double, double &)>;
static Launch ownMap(int grid, int block, int n, Map f, std::function<int(int)> word = nullptr, int buf = 0) {
  Launch L;
  for (int i = 0; i < grid * block; ++i) {
    Thread t{i / block, i / 32, {}};
    if (i < n) {
      int j = word ? word(i) : i;
      t.phases.push_back({[=](const Mem &m, State &s) { s.r[0] = m[buf][j]; },
                          [=](Mem &m, State &s) { double o; if (f(s.r[0], o)) m[buf][j] = o; }});
    }
    L.push_back(t);
  }
  return L;
}

struct Kernel { const char *name; std::function<Mem()> init; std::function<Launch()> make; int half; int scratch = 0; };
// scratch: the last buffers are shared memory (per launch: cleared before a run, not compared)
static void clearScratch(Mem &m, int n) { for (int k = 0; k < n; ++k) std::fill(m[m.size() - 1 - k].begin(), m[m.size() - 1 - k].end(), 0); }

// The loop of the stale_* kernels: two (or more) trips of a step.
static double trips(double y, int k, std::function<double(double)> g) { for (int t = 0; t < k; ++t) y = g(y); return y; }

int main() {
  std::vector<Kernel> ks;
  auto K = [&](const char *nm, std::function<Mem()> init, std::function<Launch()> mk, int half = 128) {
    ks.push_back({nm, init, mk, half});
  };
  // ---- gm_loops.cu (grid=4 block=256 n=1024)
  K("stale_toggle", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 2)) return false;
      o = trips(I(x) == 1 ? 0 : 1, 2, [](double y) { return double(5 - I(y)); }); return true; }); });
  K("stale_control", [] { return Mem{randint(1024, -3, 3)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 0)) return false;
      o = trips(-7, 2, [](double y) { return double(I(y) + 7); }); return true; }); });
  K("stale_chain", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 25 && I(x) >= 0)) return false;
      o = trips(I(x) == 0 ? 0 : 100, 2, [](double y) { return double(I(y) + 10); }); return true; }); });
  K("stale_float", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(F(x) < 2.f)) return false;
      o = trips(F(x) == 1.f ? 0.f : 3.f, 2, [](double y) { return F(y) == 0.f ? 4.0 : 0.0; }); return true; }); });
  K("stale_three", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 2)) return false;
      o = trips(I(x) == 1 ? 0 : 1, 3, [](double y) { return double(5 - I(y)); }); return true; }); });
  K("stale_four", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 2)) return false;
      o = trips(I(x) == 1 ? 0 : 1, 4, [](double y) { return double(5 - I(y)); }); return true; }); });
  K("stale_dowhile", [] { return Mem{randint(1024, -3, 3)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 0)) return false;
      // do { y = 3 - y; more = !more; } while (!more): two trips
      o = trips(I(x) == -1 ? 3 : -2, 2, [](double y) { return double(3 - I(y)); }); return true; }); });
  K("stale_exit", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 2)) return false;
      double y = trips(I(x) == 1 ? 2 : 0, 2, [](double y) { return double(5 - I(y)); });
      if (I(y) == 2) { o = 9; return true; } return false; }); });
  K("stale_exit2", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 2)) return false;
      double y = trips(I(x) == 1 ? 3 : 0, 2, [](double y) { return double(5 - I(y)); });
      if (I(y) == 0) { o = 1; return true; } return false; }); });
  K("stale_exit_swap", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 2)) return false;
      double y = trips(I(x) == 0 ? 0 : 3, 2, [](double y) { return double(5 - I(y)); });
      if (I(y) == 0) { o = 1; return true; } if (I(y) == 3) { o = 0; return true; } return false; }); });
  K("counted_toggle", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 2)) return false;
      o = trips(I(x) == 1 ? 0 : 1, 2, [](double y) { return double(5 - I(y)); }); return true; }); });
  K("stale_arg c=5", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 2)) return false;
      o = trips(I(x) == 1 ? 0 : 1, 2, [](double y) { return double(5 - I(y)); }); return true; }); });
  K("stale_grid_stride grid=2 block=128 n=1024", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    Launch L;
    Map f = [](double x, double &o) {
      if (!(I(x) < 2)) return false;
      o = trips(I(x) == 1 ? 0 : 1, 2, [](double y) { return double(5 - I(y)); }); return true; };
    for (int t = 0; t < 256; ++t) {
      Thread th{t / 128, t / 32, {}};
      for (int i = t; i < 1024; i += 256)
        th.phases.push_back({[=](const Mem &m, State &s) { s.r[0] = m[0][i]; },
                             [=](Mem &m, State &s) { double o; if (f(s.r[0], o)) m[0][i] = o; }});
      L.push_back(th);
    }
    return L; }, 64);
  K("counted_four", [] { return Mem{randint(1024, 0, 2)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 2)) return false;
      o = trips(I(x) == 1 ? 0 : 1, 4, [](double y) { return double(5 - I(y)); }); return true; }); });
  K("counted_state", [] { return Mem{randint(1024, -3, 10)}; }, [] {
    return ownMap(4, 256, 1024, [](double x, double &o) {
      if (!(I(x) < 10)) return false;
      o = trips(I(x) < 0 ? 0 : 9, 2, [](double y) { return I(y) == 0 ? 7.0 : 0.0; }); return true; }); });
  // ---- gm_shapes.cu (grid=1 block=256 n=256 unless said)
  auto own = [](Map f) { return [f] { return ownMap(1, 256, 256, f); }; };
  auto rf = [] { return Mem{randf(256)}; };
  auto ri = [](int lo, int hi) { return [=] { return Mem{randint(256, lo, hi)}; }; };
  K("negzero", rf, own([](double x, double &o) {
    if (F(x) < 0.f) { o = -0.0; return true; } if (F(x) > 1.f) { o = 0.0; return true; } return false; }));
  K("unordered_moves", rf, own([](double x, double &o) {
    if (!(F(x) >= 0.f)) { o = 1.0; return true; } if (F(x) > 0.5f) { o = 0.5; return true; } return false; }));
  K("sign_unsigned", ri(-300, 300), own([](double x, double &o) {
    if (I(x) < 0) { o = 300; return true; } if (uint32_t(I(x)) > 255u) { o = -1; return true; } return false; }));
  K("trunc_guard", ri(0, 256), own([](double x, double &o) {
    if (int8_t(I(x)) < 0) { o = 200; return true; } if (I(x) > 1000) { o = 0; return true; } return false; }));
  K("trunc_swap", ri(0, 300), own([](double x, double &o) {
    if (int8_t(I(x)) < 0) { o = 256; return true; } if (I(x) > 255) { o = 128; return true; } return false; }));
  K("wrap_guard", ri(-300, 300), own([](double x, double &o) {
    uint32_t u = uint32_t(I(x)) + 100u;
    if (int32_t(u) < 50) { o = 2147483647; return true; } if (I(x) > 1000) { o = 7; return true; } return false; }));
  K("switch_moves", ri(0, 3), own([](double x, double &o) {
    switch (I(x)) { case 0: o = 1; return true; case 1: o = 2; return true; case 7: o = 9; return true; } return false; }));
  K("switch_fixed", ri(0, 8), own([](double x, double &o) {
    switch (I(x)) { case 0: case 1: o = 5; return true; case 7: o = 9; return true; } return false; }));
  K("goto_arms", ri(-300, 300), own([](double x, double &o) {
    if (I(x) == 1000) return false; if (I(x) < 0) { o = 0; return true; } if (I(x) > 255) { o = 255; return true; } return false; }));
  K("volatile_second", ri(-300, 300), own([](double x, double &o) { // the second load reads the same word, unchanged
    if (I(x) < 0) { o = 0; return true; } if (I(x) > 255) { o = 255; return true; } return false; }));
  K("bits_swap", rf, own([](double x, double &o) {
    float f = F(x); int32_t b; std::memcpy(&b, &f, 4);
    if (b < 0) { o = 1.0; return true; } if (b > 0x3f000000) { o = -2.0; return true; } return false; }));
  K("fpext_guard", rf, own([](double x, double &o) {
    if (double(F(x)) > 0.1) { o = double(0.1f); return true; } if (F(x) < -1.f) { o = -1.0; return true; } return false; }));
  K("fpext_swap", rf, own([](double x, double &o) {
    if (F(x) == 0.1f) { o = double(0.2f); return true; } if (double(F(x)) > 0.1) { o = double(0.1f); return true; } return false; }));
  auto clamp = [](double x, double &o) {
    if (I(x) < 0) { o = 0; return true; } if (I(x) > 255) { o = 255; return true; } return false; };
  K("shared_word grid=2 n=512", [] { return Mem{randint(256, -300, 300)}; },
    [=] { return ownMap(2, 256, 512, clamp, [](int i) { return i >> 1; }); });
  K("twice_loop (k = 0, 128: words i, i+128)", ri(-300, 300), [=] {
    Launch L;
    for (int i = 0; i < 256; ++i) {
      Thread t{0, i / 32, {}};
      for (int k = 0; k < 256; k += 128) { int j = (i + k) & 255;
        t.phases.push_back({[=](const Mem &m, State &s) { s.r[0] = m[0][j]; },
                            [=](Mem &m, State &s) { double o; if (clamp(s.r[0], o)) m[0][j] = o; }}); }
      L.push_back(t);
    }
    return L; }); // (trips as phases: a finer interleaving than the GPU's, no barrier in truth)
  K("stride_parity block=128 n=256", [] { return Mem{randint(128, 0, 3)}; }, [] {
    Launch L;
    for (int i = 0; i < 128; ++i) {
      Thread t{0, i / 32, {}};
      for (int k = i; k < 256; k += 128) { int j = k & 127, key = k >> 7;
        t.phases.push_back({[=](const Mem &m, State &s) { s.r[0] = m[0][j]; },
                            [=](Mem &m, State &s) { if (I(s.r[0]) == key) m[0][j] = key + 1; }}); }
      L.push_back(t);
    }
    return L; });
  K("narrow_store", ri(-300, 300), own([](double x, double &o) { // low byte cleared
    if (I(x) < 0) { o = double(int32_t(uint32_t(I(x)) & 0xffffff00u)); return true; }
    if (I(x) > 255) { o = 255; return true; } return false; }));
  // Two buffers: v then out.
  K("arm_flag", [] { return Mem{randint(256, -300, 300), zero(256)}; }, [] {
    Launch L;
    for (int i = 0; i < 256; ++i)
      L.push_back({0, i / 32, {{[=](const Mem &m, State &s) { s.r[0] = m[0][i]; },
        [=](Mem &m, State &s) { int x = I(s.r[0]); if (x < 0) { m[0][i] = 0; m[1][i] = 1; } else if (x > 255) m[0][i] = 255; }}}});
    return L; });
  K("escape_after", [] { return Mem{randint(256, -300, 300), zero(256)}; }, [] {
    Launch L;
    for (int i = 0; i < 256; ++i)
      L.push_back({0, i / 32, {{[=](const Mem &m, State &s) { s.r[0] = m[0][i]; },
        [=](Mem &m, State &s) { int x = I(s.r[0]); if (x < 0) m[0][i] = 0; else if (x > 255) m[0][i] = 255; m[1][i] = x < 0; }}}});
    return L; });
  K("escape_addr", [] { return Mem{randint(256, -300, 300), zero(256)}; }, [] {
    Launch L;
    for (int i = 0; i < 256; ++i)
      L.push_back({0, i / 32, {{[=](const Mem &m, State &s) { s.r[0] = m[0][i]; },
        [=](Mem &m, State &s) { int x = I(s.r[0]); if (x < 0) m[0][i] = 0; else if (x > 255) m[0][i] = 255; m[1][i] = x > 100 ? 1 : 2; }}}});
    return L; });
  // smem_guard / shfl_guard: buffer 1 is the shared copy (written before read).
  auto neighbourGuard = [](int (*nb)(int)) {
    return [=] {
      Launch L;
      for (int i = 0; i < 256; ++i)
        L.push_back({0, i / 32, {{[=](const Mem &m, State &s) { s.r[0] = m[0][i]; }, [=](Mem &m, State &s) { m[1][i] = s.r[0]; }},
                                 {[=](const Mem &m, State &s) { s.r[1] = m[1][nb(i)]; },
                                  [=](Mem &m, State &s) { if (I(s.r[1]) < 0) m[0][i] = 0; else if (I(s.r[0]) > 1) m[0][i] = 1; }}}});
      return L; };
  };
  K("smem_guard", [] { return Mem{randint(256, -3, 3), zero(256)}; }, neighbourGuard([](int i) { return (i + 255) & 255; }));
  ks.back().scratch = 1;
  K("shfl_guard", [] { return Mem{randint(256, -3, 3), zero(256)}; }, neighbourGuard([](int i) { return (i & ~31) | ((i + 1) & 31); }));
  ks.back().scratch = 1;
  // ---- gm_compose.cu
  auto twoPhase = [](std::function<int(int)> word, std::function<bool(int)> first, std::function<bool(int)> second,
                     Map f, Map g) {
    return [=] {
      Launch L;
      for (int i = 0; i < 256; ++i) {
        int j = word(i); bool a = first(i), b = second(i);
        L.push_back({0, i / 32, {{[=](const Mem &m, State &s) { s.r[0] = m[0][j]; },
                                  [=](Mem &m, State &s) { double o; if (a && f(s.r[0], o)) m[0][j] = o; }},
                                 {[=](const Mem &m, State &s) { s.r[0] = m[0][j]; },
                                  [=](Mem &m, State &s) { double o; if (b && g(s.r[0], o)) m[0][j] = o; }}}});
      }
      return L; };
  };
  Map m12 = [](double x, double &o) { if (I(x) == 1) { o = 2; return true; } if (I(x) > 100) { o = 100; return true; } return false; };
  Map m01 = [](double x, double &o) { if (I(x) == 0) { o = 1; return true; } if (I(x) < -100) { o = -100; return true; } return false; };
  auto id = [](int i) { return i; };
  auto all = [](int) { return true; };
  K("two_maps_bar", ri(0, 3), twoPhase(id, all, all, m12, m01));
  K("two_maps_bar1", ri(0, 3), twoPhase(id, all, all, m12, m01));
  K("shared_phased", [] { return Mem{zero(128)}; }, twoPhase([](int i) { return i >> 1; }, [](int i) { return !(i & 1); },
                                                           [](int i) { return bool(i & 1); }, m12, m01));
  Map cl = [](double x, double &o) { if (I(x) < 10) { o = 10; return true; } if (I(x) > 100) { o = 100; return true; } return false; };
  K("shared_phased_same", [] { return Mem{randint(128, 0, 256)}; }, twoPhase([](int i) { return i >> 1; }, [](int i) { return !(i & 1); },
                                                                        [](int i) { return bool(i & 1); }, cl, cl));
  K("read_then_map", [] { return Mem{randint(256, -300, 300), zero(256)}; }, [=] {
    Launch L;
    for (int i = 0; i < 256; ++i)
      L.push_back({0, i / 32, {{[=](const Mem &m, State &s) { s.r[0] = m[0][i ^ 1]; }, [=](Mem &m, State &s) { m[1][i] = s.r[0]; }},
                               {[=](const Mem &m, State &s) { s.r[0] = m[0][i]; }, [=](Mem &m, State &s) { double o; if (clamp(s.r[0], o)) m[0][i] = o; }}}});
    return L; });
  K("map_then_read", [] { return Mem{randint(256, -300, 300), zero(256)}; }, [=] {
    Launch L;
    for (int i = 0; i < 256; ++i)
      L.push_back({0, i / 32, {{[=](const Mem &m, State &s) { s.r[0] = m[0][i]; }, [=](Mem &m, State &s) { double o; if (clamp(s.r[0], o)) m[0][i] = o; }},
                               {[=](const Mem &m, State &s) { s.r[0] = m[0][i ^ 1]; }, [=](Mem &m, State &s) { m[1][i] = s.r[0]; }}}});
    return L; });
  K("shift_maps block=255", [] { return Mem{zero(256)}; }, [] {
    Launch L;
    Map a = [](double x, double &o) { if (I(x) == 0) { o = 1; return true; } if (I(x) < 0) { o = 7; return true; } return false; };
    Map b = [](double x, double &o) { if (I(x) == 1) { o = 2; return true; } if (I(x) > 1000) { o = 1000; return true; } return false; };
    for (int i = 0; i < 255; ++i)
      L.push_back({0, i / 32, {{[=](const Mem &m, State &s) { s.r[0] = m[0][i]; }, [=](Mem &m, State &s) { double o; if (a(s.r[0], o)) m[0][i] = o; }},
                               {[=](const Mem &m, State &s) { s.r[0] = m[0][i + 1]; }, [=](Mem &m, State &s) { double o; if (i + 1 < 256 && b(s.r[0], o)) m[0][i + 1] = o; }}}});
    return L; });

  const char *scheds[] = {"fwd", "rev", "lock", "lockrev"};
  int bad = 0;
  for (auto &k : ks) {
    std::printf("%s\n", k.name);
    int kb = 0;
    for (const char *s : scheds) {
      seed = 12345; Mem m1 = k.init();
      run(k.make(), m1, s);
      Mem m2 = m1;
      clearScratch(m2, k.scratch);
      run(k.make(), m2, s);
      std::string ex;
      int d = diff(m1, m2, ex, k.scratch);
      std::printf("  %-7s run twice: %4d words differ%s%s\n", s, d, d ? "  e.g. " : "", ex.c_str());
      kb += d != 0;
    }
    seed = 12345; Mem once = k.init();
    seed = 12345; Mem cut = k.init();
    run(k.make(), once, "fwd");
    run(k.make(), cut, "fwd", k.half);
    clearScratch(cut, k.scratch);
    run(k.make(), cut, "fwd");
    std::string ex;
    int d = diff(once, cut, ex, k.scratch);
    std::printf("  cut     then rerun: %4d words differ from one run%s%s\n", d, d ? "  e.g. " : "", ex.c_str());
    kb += d != 0;
    std::printf("  => %s\n", kb ? "NOT idempotent" : "idempotent");
    bad += kb != 0;
  }
  std::printf("%d of %zu kernels not idempotent\n", bad, ks.size());
  return 0;
}
