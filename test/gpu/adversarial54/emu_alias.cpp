// Host emulation for adversarial round 54 (alias pairs, al_*.cu).
// Each kernel is modelled per thread as a load step and a store step
// (`v = ld(mem); st(mem, v)`), grouped in barrier phases. A launch runs
// under several schedules:
//   fwd      blocks in order, threads in order, each thread load-then-store
//   rev      blocks and threads reversed
//   lock     warps in order; in a warp every lane loads, then every lane
//            stores (what a converged warp does on the GPU)
//   lockrev  lock with warps (and blocks) reversed
//   cut      fwd, but block 0 is stopped halfway through its first phase
//            and the launch is then run again from the start on that
//            memory (a preempted launch restarted), compared with one
//            uninterrupted fwd run
// cut is a real stop only where gmem reports a loop checkpoint
// (sw_pingpong: block 0 stopped at it after round 0, cut=-2); elsewhere
// ("between CTAs") it is informational.
// For each schedule the launch is run twice (on the in-place instance,
// the GMEM-RUN line with ptr:0+0, or the instance itself for the
// al_select_swap.cu kernels) and the memories compared; the
// out-of-place instance is run under every schedule and the outputs
// compared between schedules (equal: the kernel has no race out of place).
// Build: clang++-19 -O1 -std=c++17 emu_alias.cpp -o emu_alias && ./emu_alias
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using Mem = std::vector<std::vector<double>>; // buffers by index
struct Thread {
  int block, warp, phase;
  std::function<double(const Mem &)> ld;       // the load (and the map)
  std::function<void(Mem &, double)> st;       // the guarded store
};
struct Launch {
  std::vector<Thread> threads;
  int phases = 1;
  bool barrier = false; // __syncthreads() between each thread's load and store
};

static void runPhaseSeq(Mem &m, std::vector<const Thread *> ts) {
  for (auto *t : ts)
    t->st(m, t->ld(m));
}
static void runPhaseLock(Mem &m, const std::vector<const Thread *> &ts, bool revWarps) {
  std::vector<int> warps;
  for (auto *t : ts)
    if (warps.empty() || warps.back() != t->warp) warps.push_back(t->warp);
  if (revWarps) std::reverse(warps.begin(), warps.end());
  for (int w : warps) {
    std::vector<const Thread *> lanes;
    for (auto *t : ts)
      if (t->warp == w) lanes.push_back(t);
    std::vector<double> v;
    for (auto *t : lanes) v.push_back(t->ld(m));
    for (size_t k = 0; k < lanes.size(); ++k) lanes[k]->st(m, v[k]);
  }
}
// Runs launch L on m under schedule S; cutBlock0 >= 0: block 0 runs only
// that many threads of phase 0 and then stops (no later phases); -2: block
// 0 runs all of phase 0 and stops there (a loop checkpoint between phases).
static void run(const Launch &L, Mem &m, const std::string &S, int cutBlock0 = -1) {
  std::vector<int> blocks;
  for (auto &t : L.threads)
    if (blocks.empty() || blocks.back() != t.block) blocks.push_back(t.block);
  const bool rev = S == "rev" || S == "lockrev";
  if (rev) std::reverse(blocks.begin(), blocks.end());
  for (int b : blocks)
    for (int p = 0; p < L.phases; ++p) {
      std::vector<const Thread *> ts;
      for (auto &t : L.threads)
        if (t.block == b && t.phase == p) ts.push_back(&t);
      if (cutBlock0 != -1 && b == 0) {
        if (p > 0) break;
        if (cutBlock0 >= 0) ts.resize(std::min<size_t>(ts.size(), cutBlock0));
      }
      if (S == "rev") std::reverse(ts.begin(), ts.end());
      if (L.barrier) { // every load of the block, then every store
        std::vector<double> v;
        for (auto *t : ts) v.push_back(t->ld(m));
        for (size_t k = 0; k < ts.size(); ++k) ts[k]->st(m, v[k]);
      } else if (S == "lock" || S == "lockrev") runPhaseLock(m, ts, S == "lockrev");
      else runPhaseSeq(m, ts);
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

// A kernel: builds the launch for buffers (X, OUT) given as buffer indices.
struct Kernel {
  const char *name;
  std::function<Mem()> init;                 // in-place memory
  std::function<Launch(int X, int OUT)> make;
  int half;                                  // cut point for block 0
  std::function<Mem()> initOop;              // out of place: X then OUT
};

static std::vector<double> iota(int n, double d = 0) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = i + d;
  return v;
}

// `if (x[j] == key) out[j] = val` per thread.
static Thread keyed(int block, int warp, int phase, int X, int OUT, int j, double key, double val) {
  return Thread{block, warp, phase, [=](const Mem &m) { return m[X][j]; },
                [=](Mem &m, double v) {
                  if (v == key) m[OUT][j] = val;
                }};
}

int main() {
  std::vector<Kernel> ks;
  // ct_pair_key / ct_inplace_pair_key: grid=2 block=256 n=512, x iota(256).
  auto pairKey = [](int X, int OUT) {
    Launch L;
    for (int i = 0; i < 512; ++i) {
      int j = i >> 1, key = i - j;
      L.threads.push_back(keyed(i / 256, i / 32, 0, X, OUT, j, key, key + 1));
    }
    return L;
  };
  ks.push_back({"ct_pair_key (x == out) / ct_inplace_pair_key", [] { return Mem{iota(256)}; },
                [&](int X, int O) { return pairKey(X, O); }, 128,
                [] { return Mem{iota(256), std::vector<double>(256, 0)}; }});
  // ct_warp_word / ct_inplace_warp_word: block=256, x[8] zero.
  auto warpWord = [](int X, int OUT) {
    Launch L;
    for (int t = 0; t < 256; ++t)
      L.threads.push_back(keyed(0, t >> 5, 0, X, OUT, t >> 5, t & 31, (t & 31) + 1));
    return L;
  };
  ks.push_back({"ct_warp_word (x == out) / ct_inplace_warp_word", [] { return Mem{std::vector<double>(8, 0)}; },
                warpWord, 128, [] { return Mem{std::vector<double>(8, 0), std::vector<double>(8, 0)}; }});
  // ct_phased: block=256, x iota(128); odd threads phase 0, even phase 1.
  auto phased = [](int X, int OUT) {
    Launch L;
    L.phases = 2;
    for (int i = 0; i < 256; ++i) {
      int j = i >> 1;
      L.threads.push_back(keyed(0, i >> 5, (i & 1) ? 0 : 1, X, OUT, j, i - j, i - j + 1));
    }
    return L;
  };
  ks.push_back({"ct_phased (x == out)", [] { return Mem{iota(128)}; }, phased, 64,
                [] { return Mem{iota(128), std::vector<double>(128, 0)}; }});
  // ct_table_relabel m=1 / ct_inplace_table: block=64, from = iota, to = iota + 1.
  auto table = [](int X, int OUT) {
    Launch L;
    for (int i = 0; i < 64; ++i)
      L.threads.push_back(keyed(0, i >> 5, 0, X, OUT, 0, i, i + 1));
    return L;
  };
  ks.push_back({"ct_table_relabel m=1 (x == out) / ct_inplace_table", [] { return Mem{std::vector<double>(64, 0)}; },
                table, 32, [] { return Mem{std::vector<double>(64, 0), std::vector<double>(64, 0)}; }});
  // ct_2d_key: block=32x4 (warp = threadIdx.y), x[32] zero.
  auto twoD = [](int X, int OUT) {
    Launch L;
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 32; ++x) L.threads.push_back(keyed(0, y, 0, X, OUT, x, y, y + 1));
    return L;
  };
  ks.push_back({"ct_2d_key (x == out)", [] { return Mem{std::vector<double>(32, 0)}; }, twoD, 64,
                [] { return Mem{std::vector<double>(32, 0), std::vector<double>(32, 0)}; }});
  // ct_float_key: block=256, x[128] zero, key = i & 1.
  auto fkey = [](int X, int OUT) {
    Launch L;
    for (int i = 0; i < 256; ++i)
      L.threads.push_back(keyed(0, i >> 5, 0, X, OUT, i >> 1, i & 1, (i & 1) + 1.0));
    return L;
  };
  ks.push_back({"ct_float_key (x == out)", [] { return Mem{std::vector<double>(128, 0)}; }, fkey, 128,
                [] { return Mem{std::vector<double>(128, 0), std::vector<double>(128, 0)}; }});
  // Controls. ct_same_map: x randint(0,10) with 7s; one map for all threads.
  auto sameMap = [](int X, int OUT) {
    Launch L;
    for (int i = 0; i < 512; ++i) L.threads.push_back(keyed(i / 256, i / 32, 0, X, OUT, i >> 1, 7, 9));
    return L;
  };
  auto rnd = [] {
    std::vector<double> v(256);
    unsigned s = 12345;
    for (auto &e : v) e = (s = s * 1103515245u + 12345u) >> 16 & 7 ? double((s >> 8) % 10) : 7;
    return v;
  };
  ks.push_back({"ct_same_map (control)", [=] { return Mem{rnd()}; }, sameMap, 128,
                [=] { return Mem{rnd(), std::vector<double>(256, 0)}; }});
  // ct_own_key: thread i maps i -> i + 1 at its own element; x iota(512).
  auto ownKey = [](int X, int OUT) {
    Launch L;
    for (int i = 0; i < 512; ++i) L.threads.push_back(keyed(i / 256, i / 32, 0, X, OUT, i, i, i + 1));
    return L;
  };
  ks.push_back({"ct_own_key (control)", [] { return Mem{iota(512)}; }, ownKey, 128,
                [] { return Mem{iota(512), std::vector<double>(512, 0)}; }});

  // al_select_swap.cu: x = buffer 0, y = buffer 1 (the instance itself:
  // two apart buffers). Thread i, j = i >> 1: p = (i & 1) ? y : x, q = the
  // other; v = p[j]; [barrier;] q[j] = map(v).
  auto rnd2 = [](int n, unsigned seed) {
    std::vector<double> v(n);
    for (auto &e : v) {
      seed = seed * 1103515245u + 12345u;
      e = double(int((seed >> 8) % 2000) - 1000) / 1000.0; // [-1, 1)
    }
    return v;
  };
  auto swap = [](int n, bool bar, std::function<double(double)> f) {
    return [=](int, int) {
      Launch L;
      L.barrier = bar;
      for (int i = 0; i < n; ++i) {
        int j = i >> 1, P = (i & 1) ? 1 : 0, Q = 1 - P;
        L.threads.push_back(Thread{i / 256, i / 32, 0, [=](const Mem &m) { return m[P][j]; },
                                   [=](Mem &m, double v) { m[Q][j] = f(v); }});
      }
      return L;
    };
  };
  auto relu = [](double v) { return std::max(v, 0.0); };
  ks.push_back({"sw_swap_bar grid=1 block=256 (x, y apart)", [=] { return Mem{rnd2(128, 1), rnd2(128, 2)}; },
                swap(256, true, relu), 128, nullptr});
  ks.push_back({"sw_swap_warp grid=2 block=256 n=512 (x, y apart)", [=] { return Mem{rnd2(256, 3), rnd2(256, 4)}; },
                swap(512, false, relu), 128, nullptr});
  ks.push_back({"sw_swap_copy grid=1 block=256 (x iota, y zero)", [=] { return Mem{iota(128), std::vector<double>(128, 0)}; },
                swap(256, true, [](double v) { return v; }), 128, nullptr});
  ks.push_back({"sw_swap_mask grid=1 block=256 (x, y in [0,100))",
                [=] { auto a = rnd2(128, 5), b = rnd2(128, 6);
                      for (auto &e : a) e = std::floor((e + 1) * 50); for (auto &e : b) e = std::floor((e + 1) * 50);
                      return Mem{a, b}; },
                swap(256, true, [](double v) { return double(int(v) & 0x7f); }), 128, nullptr});
  // sw_pingpong K=1 is sw_swap_bar; K=2: two swaps, each value back home.
  auto pingpong = [=](int K) {
    return [=](int, int) {
      Launch L;
      L.barrier = true;
      L.phases = K;
      for (int k = 0; k < K; ++k)
        for (int i = 0; i < 256; ++i) {
          int j = i >> 1, P = ((i & 1) ^ (k & 1)) ? 1 : 0, Q = 1 - P;
          L.threads.push_back(Thread{0, i / 32, k, [=](const Mem &m) { return m[P][j]; },
                                     [=](Mem &m, double v) { m[Q][j] = std::max(v, 0.0); }});
        }
      return L;
    };
  };
  ks.push_back({"sw_pingpong K=1", [=] { return Mem{rnd2(128, 7), rnd2(128, 8)}; }, pingpong(1), -2, nullptr});
  ks.push_back({"sw_pingpong K=2 (run twice agrees; a stop at the loop checkpoint does not)", [=] { return Mem{rnd2(128, 7), rnd2(128, 8)}; },
                pingpong(2), -2, nullptr});

  const char *scheds[] = {"fwd", "rev", "lock", "lockrev"};
  int bad = 0;
  for (auto &k : ks) {
    std::printf("%s\n", k.name);
    // Out of place: the same output under every schedule?
    if (k.initOop) {
    Mem ref = k.initOop();
    run(k.make(0, 1), ref, "fwd");
    for (const char *s : scheds) {
      Mem m = k.initOop();
      run(k.make(0, 1), m, s);
      std::string ex;
      int d = diff(ref, m, ex);
      if (d) std::printf("  out of place, %s vs fwd: %d words differ (race) %s\n", s, d, ex.c_str());
    }
    }
    // In place: run twice per schedule.
    for (const char *s : scheds) {
      Mem m1 = k.init();
      run(k.make(0, 0), m1, s);
      Mem m2 = m1;
      run(k.make(0, 0), m2, s);
      std::string ex;
      int d = diff(m1, m2, ex);
      std::printf("  %-7s run twice: %3d words differ%s%s\n", s, d, d ? "  e.g. " : "",
                  ex.c_str());
      bad += d != 0;
    }
    Mem once = k.init(), cut = k.init();
    run(k.make(0, 0), once, "fwd");
    run(k.make(0, 0), cut, "fwd", k.half);
    run(k.make(0, 0), cut, "fwd");
    std::string ex;
    int d = diff(once, cut, ex);
    std::printf("  cut     then rerun: %3d words differ from one run%s%s\n", d,
                d ? "  e.g. " : "", ex.c_str());
  }
  std::printf("%d (kernel, schedule) pairs not idempotent\n", bad);
  return 0;
}
