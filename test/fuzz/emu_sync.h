// Host emulation of the synchronizing parts of the kernels random_sync.py
// writes (included by emu_shim.h): global atomics, __shared__ arrays,
// __syncthreads() and full-warp shuffles.
//
// * Atomics run in place, one thread after the other (a legal order of
//   them); each logs a read and a write of its element. The value they
//   return depends on the order, which is fine: the host run is one legal
//   schedule of the launch, and what it touches the device may touch.
// * A kernel with barriers or shuffles runs each thread of a block as a
//   coroutine (ucontext fiber). The scheduler resumes every runnable thread
//   of the block in turn until it finishes or waits: at __syncthreads() for
//   the whole block, at a shuffle for the 32 lanes of its warp. A warp whose
//   live lanes all wait at a shuffle goes on first; when every thread of
//   the block waits at the barrier, the block goes on (next "epoch"). A
//   barrier or shuffle some thread of the block (warp) has left or never
//   reaches is undefined: exit 6, the launch is skipped.
// * __shared__ arrays are made fresh for each block. Every element records
//   which thread wrote (read, updated atomically) it in which epoch: a read
//   of an element never written in the block, or two threads touching one
//   element in one epoch with a write among them (a data race, whose outcome
//   the host order would fix), exits 7. The generator avoids both by
//   construction; the checks keep it honest.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <ucontext.h>

// Global atomics.
enum { GM_ADD, GM_SUB, GM_MAX, GM_MIN, GM_EXCH, GM_CAS, GM_AND, GM_OR, GM_XOR, GM_INC, GM_DEC };
template <class T> struct gm_id { using type = T; };

template <class T>
static T gm_atomic(const char *name, T *p, long long i, int op, typename gm_id<T>::type v,
                   typename gm_id<T>::type cmp = T()) {
  int k = gm_which(name, p);
  long long off = gm_bytes<T>(k, i, sizeof(T));
  if (gm_logging) {
    gm_log.push_back({k, 'R', off, off + (long long)sizeof(T)});
    gm_log.push_back({k, 'W', off, off + (long long)sizeof(T)});
    // A later plain load reads what the atomic left: not forwardable.
    gm_thread_writes.erase({k, off});
  }
  gm_rmw_reads.erase({k, off}); // the atomic reads the element: earlier stores are live
  T x, y;
  std::memcpy(&x, gm_param[k] + off, sizeof(T));
  if constexpr (std::is_integral<T>::value) {
    using U = typename std::make_unsigned<T>::type; // atomics wrap
    switch (op) {
    case GM_ADD: y = (T)((U)x + (U)v); break;
    case GM_SUB: y = (T)((U)x - (U)v); break;
    case GM_MAX: y = std::max(x, v); break;
    case GM_MIN: y = std::min(x, v); break;
    case GM_EXCH: y = v; break;
    case GM_CAS: y = x == cmp ? v : x; break;
    case GM_INC: y = x >= v ? 0 : x + 1; break;           // atomicInc (unsigned)
    case GM_DEC: y = x == 0 || x > v ? v : x - 1; break;  // atomicDec (unsigned)
    case GM_AND: y = x & v; break;
    case GM_OR: y = x | v; break;
    default: y = x ^ v; break;
    }
  } else {
    y = op == GM_EXCH ? v : x + v;
  }
  std::memcpy(gm_param[k] + off, &y, sizeof(T));
  return x;
}

#define GM_AADD(p, i, v) gm_atomic(#p, (p), (long long)(i), GM_ADD, (v))
#define GM_ASUB(p, i, v) gm_atomic(#p, (p), (long long)(i), GM_SUB, (v))
#define GM_AMAX(p, i, v) gm_atomic(#p, (p), (long long)(i), GM_MAX, (v))
#define GM_AMIN(p, i, v) gm_atomic(#p, (p), (long long)(i), GM_MIN, (v))
#define GM_AEXCH(p, i, v) gm_atomic(#p, (p), (long long)(i), GM_EXCH, (v))
#define GM_AAND(p, i, v) gm_atomic(#p, (p), (long long)(i), GM_AND, (v))
#define GM_AOR(p, i, v) gm_atomic(#p, (p), (long long)(i), GM_OR, (v))
#define GM_AXOR(p, i, v) gm_atomic(#p, (p), (long long)(i), GM_XOR, (v))
#define GM_AINC(p, i, v) gm_atomic(#p, (p), (long long)(i), GM_INC, (v))
#define GM_ADEC(p, i, v) gm_atomic(#p, (p), (long long)(i), GM_DEC, (v))
#define GM_ACAS(p, i, c, v) gm_atomic(#p, (p), (long long)(i), GM_CAS, (v), (c))
// Scoped atomics (atomicAdd_block, ..._system) do the same on the host.
#define GM_AADD_block GM_AADD
#define GM_AADD_system GM_AADD
#define GM_ASUB_block GM_ASUB
#define GM_ASUB_system GM_ASUB
#define GM_AMAX_block GM_AMAX
#define GM_AMAX_system GM_AMAX
#define GM_AMIN_block GM_AMIN
#define GM_AMIN_system GM_AMIN
#define GM_AEXCH_block GM_AEXCH
#define GM_AEXCH_system GM_AEXCH
#define GM_AAND_block GM_AAND
#define GM_AAND_system GM_AAND
#define GM_AOR_block GM_AOR
#define GM_AOR_system GM_AOR
#define GM_AXOR_block GM_AXOR
#define GM_AXOR_system GM_AXOR
#define GM_AINC_block GM_AINC
#define GM_AINC_system GM_AINC
#define GM_ADEC_block GM_ADEC
#define GM_ADEC_system GM_ADEC
#define GM_ACAS_block GM_ACAS
#define GM_ACAS_system GM_ACAS

// Fibers.
enum { GM_RUN, GM_AT_SYNC, GM_AT_WARP, GM_DONE };
struct gm_fiber {
  ucontext_t ctx;
  gm_dim3 idx;
  int lin = 0, state = GM_DONE;
  std::set<std::pair<int, long long>> writes;          // gm_thread_writes while parked
  std::map<std::pair<int, long long>, size_t> rmw;     // gm_rmw_reads while parked
};
static ucontext_t gm_sched_ctx;
static gm_fiber *gm_cur;   // the running fiber (null: no fibers)
static long long gm_epoch; // barriers the block has passed
static long long gm_syncs; // barriers and shuffles over the launch
constexpr long long GM_SYNC_LIMIT = 1 << 15;
constexpr size_t GM_STACK = 256 << 10;

static void gm_yield(int state) {
  if (!gm_cur) {
    std::fprintf(stderr, "emu_shim: a barrier in a kernel run without fibers\n");
    std::_Exit(3);
  }
  gm_cur->state = state;
  swapcontext(&gm_cur->ctx, &gm_sched_ctx);
}
#define GM_SYNC() gm_yield(GM_AT_SYNC)

static int gm_me() { return gm_cur ? gm_cur->lin : 0; }

// Shuffles: a lane puts its value in its slot, the warp meets, each lane
// takes its source lane's value, and the warp meets again before a slot
// can be reused.
static unsigned long long gm_wslot[1024];
static int gm_nthreads;
template <class T> static T gm_shfl(T v, int src) {
  int me = gm_me(), base = me & ~31;
  if (base + 32 > gm_nthreads) // a full mask names lanes that do not exist
    std::_Exit(6);
  std::memcpy(&gm_wslot[me], &v, sizeof(T));
  gm_yield(GM_AT_WARP);
  T r;
  std::memcpy(&r, &gm_wslot[base + src], sizeof(T));
  gm_yield(GM_AT_WARP);
  return r;
}
static int gm_lane() { return gm_me() & 31; }
#define GM_SHFL_XOR(v, k) gm_shfl((v), gm_lane() ^ (k))
#define GM_SHFL_DOWN(v, k) gm_shfl((v), gm_lane() + (k) < 32 ? gm_lane() + (k) : gm_lane())

// __shared__ arrays: one per name and block.
struct gm_scell {
  int writer = -1, reader = -1, atom = -1; // thread, or -2 for several
  long long wep = -1, rep = -1, aep = -1;
  bool init = false;
};
static void gm_race() { std::_Exit(7); }
template <class T> struct gm_sarr {
  std::vector<T> v;
  std::vector<gm_scell> c;
  gm_scell &cell(long long i) {
    if (i < 0 || i >= (long long)v.size())
      std::_Exit(4);
    return c[i];
  }
  static void mark(int &who, long long &ep, int me) {
    who = ep == gm_epoch && who != me ? -2 : me;
    ep = gm_epoch;
  }
  T ld(long long i) {
    gm_scell &e = cell(i);
    int me = gm_me();
    if (!e.init || (e.wep == gm_epoch && e.writer != me) || (e.aep == gm_epoch && e.atom != me))
      gm_race();
    mark(e.reader, e.rep, me);
    return v[i];
  }
  template <class V> void st(long long i, V x) {
    gm_scell &e = cell(i);
    int me = gm_me();
    if ((e.wep == gm_epoch && e.writer != me) || (e.rep == gm_epoch && e.reader != me) ||
        (e.aep == gm_epoch && e.atom != me))
      gm_race();
    mark(e.writer, e.wep, me);
    e.init = true;
    v[i] = (T)x;
  }
  T add(long long i, T x) { // atomicAdd: races only with plain accesses
    gm_scell &e = cell(i);
    int me = gm_me();
    if (!e.init || (e.wep == gm_epoch && e.writer != me) || (e.rep == gm_epoch && e.reader != me))
      gm_race();
    mark(e.atom, e.aep, me);
    T old = v[i];
    if constexpr (std::is_integral<T>::value)
      v[i] = (T)((unsigned long long)old + (unsigned long long)x);
    else
      v[i] = old + x;
    return old;
  }
};
static std::map<std::string, std::shared_ptr<void>> gm_sblock;
template <class T> static gm_sarr<T> &gm_shared(const char *name, int n) {
  std::shared_ptr<void> &p = gm_sblock[name];
  if (!p) {
    auto a = std::make_shared<gm_sarr<T>>();
    a->v.assign(n, T());
    a->c.assign(n, gm_scell());
    p = a;
  }
  return *static_cast<gm_sarr<T> *>(p.get());
}
#define GM_SHARED(T, s, N) gm_sarr<T> &s = gm_shared<T>(#s, (N))
#define GM_SLD(s, i) (s).ld((long long)(i))
#define GM_SST(s, i, x) (s).st((long long)(i), (x))
#define GM_SAADD(s, i, x) (s).add((long long)(i), (x))

// The launch a fiber runs (set by gm_launch before the first block).
struct gm_call {
  gm_kernel k;
  void *o;
  const void *a;
  void *b;
  int n, m;
  unsigned u;
  int s;
  gm_shape d;
};
static gm_call gm_call_now;

static void gm_fiber_entry() {
  const gm_call &c = gm_call_now;
  c.k(c.o, c.a, c.b, c.n, c.m, c.u, c.s, c.d);
  gm_cur->state = GM_DONE; // back to gm_sched_ctx through uc_link
}

static void gm_resume(gm_fiber &f) {
  threadIdx = f.idx;
  std::swap(gm_thread_writes, f.writes);
  std::swap(gm_rmw_reads, f.rmw);
  gm_cur = &f;
  f.state = GM_RUN;
  swapcontext(&gm_sched_ctx, &f.ctx);
  gm_cur = nullptr;
  std::swap(gm_thread_writes, f.writes);
  std::swap(gm_rmw_reads, f.rmw);
}

// Runs the current block (blockIdx) in barrier phases.
static void gm_block_fibers() {
  static std::vector<gm_fiber> fibers;
  static std::vector<std::unique_ptr<char[]>> stacks;
  int nt = blockDim.x * blockDim.y * blockDim.z;
  gm_nthreads = nt;
  if (nt > 1024)
    std::_Exit(2);
  fibers.clear();
  fibers.resize(nt);
  while ((int)stacks.size() < nt)
    stacks.emplace_back(new char[GM_STACK]);
  gm_sblock.clear();
  gm_epoch = 0;
  for (int t = 0; t < nt; ++t) {
    gm_fiber &f = fibers[t];
    f.lin = t;
    f.idx.x = t % blockDim.x;
    f.idx.y = t / blockDim.x % blockDim.y;
    f.idx.z = t / (blockDim.x * blockDim.y);
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = stacks[t].get();
    f.ctx.uc_stack.ss_size = GM_STACK;
    f.ctx.uc_link = &gm_sched_ctx;
    makecontext(&f.ctx, gm_fiber_entry, 0);
    f.state = GM_RUN;
  }
  for (;;) {
    for (gm_fiber &f : fibers)
      if (f.state == GM_RUN)
        gm_resume(f);
    int done = 0, sync = 0;
    for (gm_fiber &f : fibers)
      done += f.state == GM_DONE, sync += f.state == GM_AT_SYNC;
    if (done == nt)
      break;
    bool released = false;
    for (int w = 0; w < nt; w += 32) {
      int e = std::min(nt, w + 32), at = 0, gone = 0;
      for (int t = w; t < e; ++t)
        at += fibers[t].state == GM_AT_WARP, gone += fibers[t].state == GM_DONE;
      if (at && gone) // a shuffle with a lane that has left
        std::_Exit(6);
      if (at == e - w) {
        for (int t = w; t < e; ++t)
          fibers[t].state = GM_RUN;
        released = true;
      }
    }
    if (++gm_syncs > GM_SYNC_LIMIT)
      std::_Exit(5);
    if (released)
      continue;
    if (sync != nt) // a barrier some thread left or waits elsewhere for
      std::_Exit(6);
    for (gm_fiber &f : fibers)
      f.state = GM_RUN;
    ++gm_epoch;
  }
}
