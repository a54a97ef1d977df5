// Host emulation for adversarial round 55c (oi_own.cu, mx_inter.cu), after
// ../adversarial55b/emu_gm.cpp. A thread is a list of phases (barrier
// phases, or loop trips ending at a back-edge checkpoint); each phase is a
// load step and a store step on the thread's registers. Schedules:
//   fwd, rev         blocks and threads in order / reversed, each thread
//                    load-then-store
//   lock, lockrev    per warp: every lane loads, then every lane stores
//   cut P            block 0 stopped after phase P (every P before its last;
//                    P = -1: halfway through phase 0's threads), alone or
//                    after all other blocks completed; then the whole
//                    launch run again (fwd), compared with one fwd run
// Each launch is run twice per schedule and the memories compared.
// Build: clang++-19 -O1 -std=c++17 emu55c.cpp -o /tmp/emu55c && /tmp/emu55c
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using Mem = std::vector<std::vector<int64_t>>;
struct State { int64_t r[8] = {0}; };
struct Step {
  std::function<void(const Mem &, State &)> ld;
  std::function<void(Mem &, State &)> st;
};
struct Thread { int block, warp; std::vector<Step> phases; };
using Launch = std::vector<Thread>;

// cutPhase: -2 none; -1 halfway in phase 0; >= 0 stop block 0 after that phase.
// others: in a cut run, whether the other blocks run (completely).
static void run(const Launch &L, Mem &m, const std::string &S, int cutPhase = -2, bool others = false) {
  std::vector<State> st(L.size());
  std::vector<int> blocks;
  for (auto &t : L) if (std::find(blocks.begin(), blocks.end(), t.block) == blocks.end()) blocks.push_back(t.block);
  std::sort(blocks.begin(), blocks.end());
  const bool rev = S == "rev" || S == "lockrev";
  if (rev) std::reverse(blocks.begin(), blocks.end());
  size_t P = 0;
  for (auto &t : L) P = std::max(P, t.phases.size());
  for (int b : blocks) {
    if (cutPhase > -2 && b != 0 && !others) continue;
    for (size_t p = 0; p < P; ++p) {
      std::vector<size_t> ts;
      for (size_t k = 0; k < L.size(); ++k)
        if (L[k].block == b && p < L[k].phases.size()) ts.push_back(k);
      if (cutPhase > -2 && b == 0) {
        if (cutPhase == -1) { if (p > 0) break; ts.resize(ts.size() / 2); }
        else if ((int)p > cutPhase) break;
      }
      if (S == "rev") std::reverse(ts.begin(), ts.end());
      if (S == "lock" || S == "lockrev") {
        std::vector<int> warps;
        for (auto k : ts) if (std::find(warps.begin(), warps.end(), L[k].warp) == warps.end()) warps.push_back(L[k].warp);
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
}
static int diff(const Mem &a, const Mem &b, std::string &ex) {
  int n = 0;
  for (size_t k = 0; k < a.size(); ++k)
    for (size_t e = 0; e < a[k].size(); ++e)
      if (a[k][e] != b[k][e]) {
        if (!n) { char buf[160]; std::snprintf(buf, sizeof buf, "buf%zu[%zu] %lld then %lld", k, e, (long long)a[k][e], (long long)b[k][e]); ex = buf; }
        ++n;
      }
  return n;
}
static unsigned seed = 12345;
static std::vector<int64_t> randint(int n, int lo, int hi) { // [lo, hi)
  std::vector<int64_t> v(n);
  for (auto &e : v) { seed = seed * 1103515245u + 12345u; e = lo + int((seed >> 8) % unsigned(hi - lo)); }
  return v;
}
static std::vector<int64_t> fill(int n, int64_t c) { return std::vector<int64_t>(n, c); }
static std::vector<int64_t> iota(int n) { std::vector<int64_t> v(n); for (int i = 0; i < n; ++i) v[i] = i; return v; }
static int32_t I(int64_t v) { return int32_t(uint32_t(uint64_t(v))); }

static Step nop() { return {[](const Mem &, State &) {}, [](Mem &, State &) {}}; }
// A 1-phase-per-thread launch: body(tid, block, thread) gives the step.
static Launch flat(int grid, int block, std::function<std::vector<Step>(int gtid, int b, int t)> body) {
  Launch L;
  for (int b = 0; b < grid; ++b)
    for (int t = 0; t < block; ++t) L.push_back({b, (b * block + t) / 32, body(b * block + t, b, t)});
  return L;
}
// Keyed map x == key ? key + 1 : x on element e of buffer 0, key = buf 1 [ki].
static Step keyed(int e, int ki) {
  return {[=](const Mem &m, State &s) { s.r[0] = m[0][e]; s.r[1] = m[1][ki]; },
          [=](Mem &m, State &s) { m[0][e] = I(s.r[0]) == I(s.r[1]) ? I(s.r[1]) + 1 : I(s.r[0]); }};
}
// rows of a 2-D block (bx, by) act in rounds: phase r for row r.
static Launch rows(int bx, int by, int rounds, std::function<Step(int x, int y)> f, std::function<bool(int x, int y, int r)> acts = nullptr) {
  Launch L;
  for (int y = 0; y < by; ++y)
    for (int x = 0; x < bx; ++x) {
      Thread t{0, (y * bx + x) / 32, {}};
      for (int r = 0; r < rounds; ++r) t.phases.push_back((acts ? acts(x, y, r) : y == r) ? f(x, y) : nop());
      L.push_back(t);
    }
  return L;
}
static Step unary(int buf, int e, std::function<bool(int64_t, int64_t &)> f) {
  return {[=](const Mem &m, State &s) { s.r[0] = m[buf][e]; },
          [=](Mem &m, State &s) { int64_t o; if (f(s.r[0], o)) m[buf][e] = o; }};
}

struct Kernel { std::string name; std::function<Mem()> init; std::function<Launch()> make; const char *gmem; };

int main() {
  std::vector<Kernel> ks;
  auto K = [&](std::string nm, const char *gmem, std::function<Mem()> init, std::function<Launch()> mk) { ks.push_back({nm, init, mk, gmem}); };
  // ---- oi_own.cu
  K("oi_rows block=2,2 m=iota", "yes", [] { return Mem{fill(3, 0), iota(2)}; },
    [] { return rows(2, 2, 2, [](int x, int y) { return keyed(y + x, x); }); });
  K("oi_loop n=2", "yes", [] { return Mem{fill(3, 0), iota(2)}; }, [] {
    Thread t{0, 0, {}};
    for (int s = 0; s < 2; ++s) for (int j = 1; j >= 0; --j) t.phases.push_back(keyed(s + j, j));
    return Launch{t}; });
  K("oi_bytes block=2,2", "yes", [] { return Mem{fill(3, 0), iota(2)}; },
    [] { return rows(2, 2, 2, [](int x, int y) { return keyed(y + x, x); }); });
  K("oi_seq", "no", [] { return Mem{fill(3, 0), iota(2)}; },
    [] { return Launch{{0, 0, {keyed(1, 1), keyed(1, 0)}}}; });
  K("oi_guard block=2,2", "no", [] { return Mem{fill(3, 0), iota(2)}; },
    [] { return rows(2, 2, 2, [](int x, int y) { return keyed(y + x, x); }); });
  K("oi_blocks grid=2 block=2 (CTAs race on p[1])", "yes", [] { return Mem{fill(3, 0), iota(2)}; },
    [] { return flat(2, 2, [](int, int b, int t) { return std::vector<Step>{keyed(b + t, t)}; }); });
  K("oi_ctrl block=2,2", "yes", [] { return Mem{fill(3, 0), iota(2)}; },
    [] { return rows(2, 2, 2, [](int x, int) { return keyed(x, x); }); });
  K("oi_lda lda=1 from=iota to={5,5}", "no", [] { return Mem{fill(4, 0), iota(2)}; }, [] {
    return rows(2, 2, 2, [](int x, int y) { return Step{[=](const Mem &m, State &s) { s.r[0] = m[0][y + x]; },
      [=](Mem &m, State &s) { m[0][y + x] = I(s.r[0]) == x ? 5 : s.r[0]; }}; }); });
  K("oi_lda2 lda=1", "yes", [] { return Mem{fill(4, 0), iota(2)}; },
    [] { return rows(2, 2, 2, [](int x, int y) { return keyed(y * 1 + x, x); }); });
  K("oi_lda2 lda=2", "yes", [] { return Mem{fill(4, 0), iota(2)}; },
    [] { return rows(2, 2, 2, [](int x, int y) { return keyed(y * 2 + x, x); }); });
  K("oi_segments", "no", [] { return Mem{fill(3, 0), iota(2)}; }, [] {
    // thread t on v + start[1 - t] = v + (1 - t), own index t; key = iota; thread 1 first
    return rows(2, 1, 2, [](int t, int) { return keyed((1 - t) + t, t); },
                [](int x, int, int r) { return x == 1 - r; }); });
  // ---- mx_inter.cu
  auto one = [](int grid, int block, std::function<Step(int)> f) {
    return [=] { return flat(grid, block, [=](int g, int, int) { return std::vector<Step>{f(g)}; }); }; };
  K("lv_trunc k=256", "no", [] { return Mem{fill(64, 0)}; }, one(1, 64, [](int i) { return unary(0, i, [](int64_t x, int64_t &o) { o = I(x + 1); return true; }); }));
  K("lv_trunc k=1", "yes", [] { return Mem{fill(64, 0)}; }, one(1, 64, [](int i) { return unary(0, i, [](int64_t x, int64_t &o) { o = std::max<int64_t>(x, 3); return true; }); }));
  K("lv_wide k=2^32", "no", [] { return Mem{fill(64, 0)}; }, one(1, 64, [](int i) { return unary(0, i, [](int64_t x, int64_t &o) { o = I(x + 1); return true; }); }));
  K("lv_guard mode=1", "yes", [] { return Mem{randint(64, 0, 3)}; }, one(1, 64, [](int i) { return unary(0, i, [](int64_t x, int64_t &o) { if (x == 0) { o = 1; return true; } return false; }); }));
  K("lv_guard mode=0", "no", [] { return Mem{randint(64, 0, 3)}; }, one(1, 64, [](int i) { return unary(0, i, [](int64_t x, int64_t &o) { if (x == 1) { o = 2; return true; } if (x == 0) { o = 1; return true; } return false; }); }));
  // al_keep_shift: p[i] = m[i] == 0 ? 0 : p[i], m = p + off (one buffer of 65)
  for (int off : {1, 0})
    K("al_keep_shift m=p+" + std::to_string(4 * off), "no", [] { return Mem{fill(65, 1)}; }, one(1, 64, [off](int i) {
      return Step{[=](const Mem &m, State &s) { s.r[0] = m[0][i + off]; s.r[1] = m[0][i]; },
                  [=](Mem &m, State &s) { m[0][i] = s.r[0] == 0 ? 0 : s.r[1]; }}; }));
  for (int off : {0, 1})
    K("al_guard out=x+" + std::to_string(4 * off), "no", [] { return Mem{randint(65, 0, 3)}; }, one(1, 64, [off](int i) {
      return Step{[=](const Mem &m, State &s) { s.r[0] = m[0][i]; },
                  [=](Mem &m, State &s) { if (s.r[0] == 0 || s.r[0] == 2) m[0][i + off] = 1; }}; }));
  K("sp_phi_rounds block=4", "yes", [] { return Mem{fill(1, 0)}; }, [] {
    return rows(4, 1, 4, [](int t, int) { return Step{[=](const Mem &m, State &s) { s.r[0] = (t & 1) ? t + 7 : m[0][0]; },
      [=](Mem &m, State &s) { m[0][0] = s.r[0]; }}; }, [](int x, int, int r) { return x == r; }); });
  // loops: grid=2 block=64, n=8 trips with a barrier each (phases)
  auto loop = [](std::function<int64_t(int64_t, int64_t)> f) {
    return [f] { return flat(2, 64, [f](int i, int, int) {
      std::vector<Step> ph;
      for (int k = 0; k < 8; ++k)
        ph.push_back({[=](const Mem &m, State &s) { s.r[0] = m[0][i]; s.r[1] = m[1][k]; },
                      [=](Mem &m, State &s) { m[0][i] = f(s.r[0], s.r[1] - 0 * k + 0) ; }});
      return ph; }); }; };
  K("lp_maxes", "no", [] { return Mem{randint(128, 0, 9), randint(8, 0, 9)}; }, [] {
    return flat(2, 64, [](int i, int, int) { std::vector<Step> ph;
      for (int k = 0; k < 8; ++k) ph.push_back({[=](const Mem &m, State &s) { s.r[0] = m[0][i]; s.r[1] = m[1][k] - k; },
                                                [=](Mem &m, State &s) { m[0][i] = std::max(s.r[0], s.r[1]); }});
      return ph; }); });
  K("lp_clamp", "no", [] { return Mem{randint(128, 0, 9), randint(8, 0, 9)}; },
    loop([](int64_t x, int64_t a) { return std::min(std::max(x, a - 3), a + 3); }));
  K("lp_bits", "no", [] { return Mem{randint(128, 0, 16), randint(8, 0, 16)}; },
    loop([](int64_t x, int64_t a) { return (x & a) | (a >> 2); }));
  K("lp_key", "no", [] { return Mem{fill(32, 0), iota(4)}; }, [] {
    return flat(1, 32, [](int i, int, int) { std::vector<Step> ph;
      for (int k = 1; k >= 0; --k) ph.push_back({[=](const Mem &m, State &s) { s.r[0] = m[0][i]; s.r[1] = m[1][k]; },
        [=](Mem &m, State &s) { m[0][i] = s.r[0] == s.r[1] ? s.r[1] + 1 : s.r[0]; }});
      return ph; }); });
  K("nw_u8 k=300", "yes", [] { return Mem{randint(64, 0, 255)}; }, one(1, 64, [](int i) { return unary(0, i, [](int64_t v, int64_t &o) { o = v > 300 ? v : (300 & 255); return true; }); }));
  // shorts of an i32 buffer of values 0..99: low halves 0..99, high halves 0
  auto shorts = [] { auto w = randint(32, 0, 100); std::vector<int64_t> s(64); for (int k = 0; k < 32; ++k) { s[2 * k] = w[k]; s[2 * k + 1] = 0; } return Mem{s}; };
  K("nw_i16 lo=-5 hi=40", "no", shorts, one(1, 64, [](int i) { return unary(0, i, [](int64_t v, int64_t &o) { o = std::min<int64_t>(std::max<int64_t>(v, -5), 40); return true; }); }));
  K("nw_i16_add", "yes", shorts, one(1, 64, [](int i) { return unary(0, i, [](int64_t v, int64_t &o) { if (v < 0) { o = int16_t(uint16_t(v + 32768)); return true; } return false; }); }));
  K("nw_u8_wrap", "yes", [] { return Mem{randint(64, 250, 256)}; }, one(1, 64, [](int i) { return unary(0, i, [](int64_t v, int64_t &o) { if (v > 250) { o = uint8_t(v + 5 > 255 ? 0 : 255); return true; } return false; }); }));
  K("st_field", "no", [] { return Mem{randint(128, 0, 9)}; }, one(1, 64, [](int i) {
    return Step{[=](const Mem &m, State &s) { s.r[0] = m[0][2 * i]; s.r[1] = m[0][2 * i + 1]; }, [=](Mem &m, State &s) { m[0][2 * i] = std::max(s.r[0], s.r[1]); }}; }));
  K("st_field2", "no", [] { return Mem{randint(130, -3, 9)}; }, one(1, 64, [](int i) {
    return Step{[=](const Mem &m, State &s) { s.r[0] = m[0][2 * i]; s.r[1] = m[0][2 * i + 3]; s.r[2] = m[0][2 * i + 1]; },
                [=](Mem &m, State &s) { m[0][2 * i] = std::max(s.r[0], s.r[1]); if (s.r[2] < 0) m[0][2 * i + 1] = 0; }}; }));
  K("vec_int2", "yes", [] { return Mem{randint(128, -9, 9)}; }, one(1, 64, [](int i) {
    return Step{[=](const Mem &m, State &s) { s.r[0] = m[0][2 * i]; s.r[1] = m[0][2 * i + 1]; },
                [=](Mem &m, State &s) { m[0][2 * i] = std::max<int64_t>(s.r[0], 0); m[0][2 * i + 1] = std::min<int64_t>(s.r[1], 0); }}; }));
  K("int_wrap", "no", [] { return Mem{randint(64, 0, 9)}; }, one(1, 64, [](int i) { return unary(0, i, [](int64_t v, int64_t &o) {
    uint32_t x = uint32_t(v); if (x + 1u < 5u) { o = 0x7fffffff; return true; } if (x == 0x7fffffffu) { o = -1; return true; } return false; }); }));
  K("two_pairs", "no", [] { return Mem{randint(64, 0, 9)}; }, [] { return flat(1, 64, [](int i, int, int) {
    return std::vector<Step>{unary(0, i, [](int64_t v, int64_t &o) { o = std::max<int64_t>(v, 3); return true; }),
                             unary(0, i, [](int64_t v, int64_t &o) { o = std::min<int64_t>(v, 6); return true; })}; }); });
  K("vol_clamp", "no", [] { return Mem{randint(64, 0, 9)}; }, one(1, 64, [](int i) { return unary(0, i, [](int64_t v, int64_t &o) { o = std::min<int64_t>(v, 4); return true; }); }));
  K("cm_gather", "yes", [] { return Mem{randint(64, 0, 8), randint(8, 0, 8), randint(64, 0, 8)}; }, one(1, 64, [](int i) {
    return Step{[=](const Mem &m, State &s) { s.r[0] = m[0][i]; s.r[1] = m[1][m[2][i]]; }, [=](Mem &m, State &s) { m[0][i] = std::max(s.r[0], s.r[1]); }}; }));

  const char *scheds[] = {"fwd", "rev", "lock", "lockrev"};
  int unsound = 0, yes = 0, miss = 0;
  for (auto &k : ks) {
    std::printf("%s  [gmem %s]\n", k.name.c_str(), k.gmem);
    int kb = 0;
    for (const char *s : scheds) {
      seed = 12345; Mem m1 = k.init();
      run(k.make(), m1, s);
      Mem m2 = m1;
      run(k.make(), m2, s);
      std::string ex;
      int d = diff(m1, m2, ex);
      std::printf("  %-7s run twice: %4d words differ%s%s\n", s, d, d ? "  e.g. " : "", ex.c_str());
      kb += d != 0;
    }
    Launch L = k.make();
    size_t P = 0;
    for (auto &t : L) P = std::max(P, t.phases.size());
    for (int cp = -1; cp + 1 < (int)P || cp == -1; ++cp)
      for (bool others : {false, true}) {
        seed = 12345; Mem once = k.init();
        seed = 12345; Mem cut = k.init();
        run(L, once, "fwd");
        run(L, cut, "fwd", cp, others);
        run(L, cut, "fwd");
        std::string ex;
        int d = diff(once, cut, ex);
        if (d) std::printf("  cut %d%s then rerun: %4d words differ from one run  e.g. %s\n", cp, others ? "+others" : "", d, ex.c_str());
        kb += d != 0;
      }
    const bool y = std::string(k.gmem) == "yes";
    std::printf("  => %s%s\n", kb ? "NOT idempotent" : "idempotent",
                y && kb ? "   ** UNSOUND (gmem yes) **" : !y && !kb ? "   (miss)" : "");
    yes += y; unsound += y && kb; miss += !y && !kb;
  }
  std::printf("%zu instances, %d gmem yes, %d unsound, %d misses\n", ks.size(), yes, unsound, miss);
  return 0;
}
