// Host emulation of the kernels random_kernels.py writes: the
// same source compiled as C++ runs every thread of a launch one after the
// other and logs the bytes each access touches (elements of float, double,
// short or unsigned char). Without barriers, warp
// collectives or data-dependent control flow, the set of touched elements
// does not depend on the order threads run in, so this set is what the
// device touches (less loads the compiler forwards from the thread's own
// stores, see gm_read). The run is also one legal schedule, so a launch
// whose second run changes memory is not idempotent.
//
// Kernels with atomics, __shared__ arrays, barriers or shuffles
// (random_sync.py) use the accessors of emu_sync.h; with barriers or
// shuffles a block's threads run as coroutines in barrier phases there.
// Exits go through std::_Exit: no static destructor may free the stack of
// the coroutine that exits.
//
// Undefined behaviour (signed overflow, bad shifts, division by zero) traps
// (clang -fsanitize=...,-fsanitize-trap=all): the driver skips such
// launches, since the compiled kernel need not do what the source says there.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

struct gm_dim3 {
  unsigned x = 1, y = 1, z = 1;
};
static gm_dim3 threadIdx, blockIdx, blockDim, gridDim;

#define __global__
#define __device__
#define __restrict__

// Pointers point into the middle of a window of GM_BYTES bytes; an access
// outside it is outside the allocation (undefined: the launch is skipped,
// exit code 4).
constexpr long long GM_BYTES = 1 << 23, GM_HALF = GM_BYTES / 2;
constexpr int GM_NPTR = 3;
static unsigned char *gm_base[GM_NPTR];  // each parameter's allocation (b may share o's)
static unsigned char *gm_param[GM_NPTR]; // each parameter's value
static long long gm_ticks;
constexpr long long GM_TICK_LIMIT = 1 << 22; // loop trips over the whole launch

struct gm_access {
  int ptr;
  char kind;    // 'R' or 'W'
  long long lo; // bytes from the parameter
  long long hi;
  bool dead = false; // a read the compiler may drop (see gm_write)
  bool operator<(const gm_access &o) const {
    return std::tie(ptr, kind, lo, hi) < std::tie(o.ptr, o.kind, o.lo, o.hi);
  }
};
static std::vector<gm_access> gm_log;
static std::set<std::pair<int, long long>> gm_thread_writes; // this thread's stores so far
// Reads of this thread's read-modify-writes whose store a later plain store
// to the element may still make dead (and the read with it): log positions.
static std::map<std::pair<int, long long>, size_t> gm_rmw_reads;
static bool gm_logging = true;

// GM_RACES set: note which thread reads and writes every byte of the first
// run; a byte written by one thread and read or written by another (global
// memory, no atomics; barriers not considered) makes the launch's result
// depend on the order threads run in, and gm_main prints "races yes"
// (test/fuzz/preempt_fuzz.py leaves such launches out).
struct gm_owner {
  long long w = -1, r = -1; // a writer and a reader (thread ids), -1: none
  bool readers = false;     // read by more than one thread
};
static const bool gm_track_races = std::getenv("GM_RACES") != nullptr;
static std::unordered_map<const unsigned char *, gm_owner> gm_owners;
static bool gm_raced = false;

static long long gm_tid();

static void gm_note(const unsigned char *p, long long size, bool write) {
  if (!gm_track_races || !gm_logging || gm_raced)
    return;
  const long long t = gm_tid();
  for (long long i = 0; i < size; ++i) {
    gm_owner &e = gm_owners[p + i];
    if ((e.w >= 0 && e.w != t) || (write && ((e.r >= 0 && e.r != t) || e.readers)))
      gm_raced = true;
    if (write)
      e.w = t;
    else if (e.r < 0)
      e.r = t;
    else if (e.r != t)
      e.readers = true;
  }
}

// Accessors get the parameter's name (o, a or b: b may equal o when the
// launch aliases them) and value, and the element offset.
static int gm_which(const char *name, const void *p) {
  int k = name[0] == 'o' ? 0 : name[0] == 'a' ? 1 : 2;
  if (name[1] || p != gm_param[k]) {
    std::fprintf(stderr, "emu_shim: an access not through a pointer parameter\n");
    std::_Exit(3);
  }
  return k;
}

// Byte offset of element i of p, inside the window: [off, off + size) for
// an access, off alone (one past the end allowed) for a row pointer.
template <class T> static long long gm_bytes(int k, long long i, long long size) {
  long long off = i * (long long)sizeof(T);
  long long at = (gm_param[k] - gm_base[k]) + off;
  if (at < 0 || at + size > GM_BYTES)
    std::_Exit(4);
  return off;
}

// A row pointer p + o outside the allocation is undefined already.
template <class T> static long long gm_row(const char *name, const T *p, long long o) {
  gm_bytes<T>(gm_which(name, p), o, 0);
  return o;
}

template <class T> static T gm_read(const char *name, const T *p, long long i) {
  int k = gm_which(name, p);
  long long off = gm_bytes<T>(k, i, sizeof(T));
  // A load of an element this thread stored before may be forwarded from
  // the store by the compiler: the device need not read it.
  if (gm_logging && !gm_thread_writes.count({k, off}))
    gm_log.push_back({k, 'R', off, off + (long long)sizeof(T)});
  gm_rmw_reads.erase({k, off}); // the stored value is read: that store is live
  gm_note(gm_param[k] + off, sizeof(T), /*write=*/false);
  T v;
  std::memcpy(&v, gm_param[k] + off, sizeof(T));
  return v;
}

template <class T, class V>
static void gm_write(const char *name, const T *p, long long i, V v, bool plain = true) {
  int k = gm_which(name, p);
  long long off = gm_bytes<T>(k, i, sizeof(T));
  T t = (T)v; // the conversion of C's assignment (a float out of an integer's range traps)
  if (gm_logging) {
    gm_log.push_back({k, 'W', off, off + (long long)sizeof(T)});
    gm_thread_writes.insert({k, off});
    // A read-modify-write this store overwrites unread was dead code: the
    // compiler may drop its store and then its load.
    auto It = gm_rmw_reads.find({k, off});
    if (plain && It != gm_rmw_reads.end()) {
      gm_log[It->second].dead = true;
      gm_rmw_reads.erase(It);
    }
  }
  gm_note(gm_param[k] + off, sizeof(T), /*write=*/true);
  std::memcpy(gm_param[k] + off, &t, sizeof(T));
}

template <class T, class V> static void gm_rmw(const char *name, T *p, long long i, V v) {
  int k = gm_which(name, p);
  long long off = gm_bytes<T>(k, i, sizeof(T));
  size_t before = gm_log.size();
  T x = gm_read(name, p, i);
  gm_write(name, p, i, x + v, /*plain=*/false);
  if (gm_logging && gm_log.size() == before + 2) // the read was logged
    gm_rmw_reads[{k, off}] = before;
}

#define GM_LD(p, i) gm_read(#p, (p), (long long)(i))
#define GM_LD2(p, o, i) gm_read(#p, (p), gm_row(#p, (p), (long long)(o)) + (long long)(i))
#define GM_ST(p, i, v) gm_write(#p, (p), (long long)(i), (v))
#define GM_ST2(p, o, i, v) gm_write(#p, (p), gm_row(#p, (p), (long long)(o)) + (long long)(i), (v))
#define GM_LDG(p, i) gm_read(#p, (p), (long long)(i))
#define GM_LDX(p, i) gm_read(#p, (p), (long long)(i))
// Pointer walks: the host keeps the element offset of q from p.
#define GM_PDECL(T, q, p, o) long long q = gm_row(#p, (p), (long long)(o))
#define GM_PLD(p, q, i) gm_read(#p, (p), (q) + (long long)(i))
#define GM_PST(p, q, i, v) gm_write(#p, (p), (q) + (long long)(i), (v))
#define GM_PADV(p, q, d) ((q) = gm_row(#p, (p), (q) + (long long)(d)))
#define GM_RMW(p, i, v) gm_rmw(#p, (p), (long long)(i), (v))
#define GM_TICK()                                                                                  \
  do {                                                                                             \
    if (++gm_ticks > GM_TICK_LIMIT)                                                                \
      std::_Exit(5);                                                                                \
  } while (0)

struct gm_shape {
  int rows;
  int cols;
  long long stride;
};
// Kernels take their own element types: random_kernels.py writes a wrapper
// of this type for each.
typedef void (*gm_kernel)(void *, const void *, void *, int, int, unsigned, int, gm_shape);

#include "emu_sync.h" // atomics, __shared__, barriers and shuffles

static long long gm_tid() {
  long long block = ((long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  long long thread = ((long long)threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return block * ((long long)blockDim.x * blockDim.y * blockDim.z) + thread;
}

// fibers: the kernel has barriers or shuffles, and a block runs in their
// phases (emu_sync.h); else each thread runs to its end in turn.
static void gm_launch(gm_kernel k, void *o, const void *a, void *b, int n, int m, unsigned u, int s,
                      gm_shape d, bool fibers) {
  gm_call_now = {k, o, a, b, n, m, u, s, d};
  gm_syncs = 0;
  for (blockIdx.z = 0; blockIdx.z < gridDim.z; ++blockIdx.z)
    for (blockIdx.y = 0; blockIdx.y < gridDim.y; ++blockIdx.y)
      for (blockIdx.x = 0; blockIdx.x < gridDim.x; ++blockIdx.x)
        if (fibers)
          gm_block_fibers();
        else
        for (threadIdx.z = 0; threadIdx.z < blockDim.z; ++threadIdx.z)
          for (threadIdx.y = 0; threadIdx.y < blockDim.y; ++threadIdx.y)
            for (threadIdx.x = 0; threadIdx.x < blockDim.x; ++threadIdx.x) {
              gm_thread_writes.clear();
              gm_rmw_reads.clear();
              k(o, a, b, n, m, u, s, d);
            }
}

// usage: EMU KERNEL GX GY BX BY N M U S ROWS COLS STRIDE ALIAS
// (ALIAS: "-" for b in an allocation of its own, else b = o + ALIAS bytes)
// prints "R|W PTR LO HI" byte intervals of the first run, then
// "idempotent yes|no" (a second run left memory as the first did or not).
static int gm_main(int argc, char **argv, const gm_kernel *kernels, int count,
                   const bool *fibers = nullptr) {
  if (argc != 14) {
    std::fprintf(stderr, "usage: %s KERNEL GX GY BX BY N M U S ROWS COLS STRIDE ALIAS\n", argv[0]);
    return 2;
  }
  int ki = std::atoi(argv[1]);
  if (ki < 0 || ki >= count)
    return 2;
  gridDim.x = std::atoi(argv[2]), gridDim.y = std::atoi(argv[3]);
  blockDim.x = std::atoi(argv[4]), blockDim.y = std::atoi(argv[5]);
  int n = std::atoi(argv[6]), m = std::atoi(argv[7]), s = std::atoi(argv[9]);
  unsigned u = (unsigned)std::strtoul(argv[8], nullptr, 10);
  gm_shape d{std::atoi(argv[10]), std::atoi(argv[11]), std::atoll(argv[12])};
  // o and b hold 0x3f bytes (small values in every element type, so no
  // read-modify-write meets a NaN that would hide its change); a holds
  // floats from 0 to 25 (loaded indices).
  std::vector<unsigned char> mem[GM_NPTR];
  for (int k = 0; k < GM_NPTR; ++k) {
    mem[k].assign(GM_BYTES, 0x3f);
    if (k == 1)
      for (long long e = 0; e < GM_BYTES / 4; ++e) {
        float v = (float)((e * 7 + 13) % 101) * 0.25f;
        std::memcpy(&mem[k][4 * e], &v, 4);
      }
    gm_base[k] = mem[k].data();
  }
  for (int k = 0; k < GM_NPTR; ++k)
    gm_param[k] = gm_base[k] + GM_HALF;
  if (std::strcmp(argv[13], "-") != 0) {
    gm_base[2] = gm_base[0];
    gm_param[2] = gm_param[0] + std::atoll(argv[13]);
  }
  void *o = gm_param[0], *b = gm_param[2];
  const void *a = gm_param[1];
  bool fib = fibers && fibers[ki];
  gm_launch(kernels[ki], o, a, b, n, m, u, s, d, fib);
  std::vector<unsigned char> first[GM_NPTR];
  for (int k = 0; k < GM_NPTR; ++k)
    first[k] = mem[k];
  gm_logging = false;
  gm_ticks = 0;
  gm_launch(kernels[ki], o, a, b, n, m, u, s, d, fib);
  bool same = true;
  for (int k = 0; k < GM_NPTR; ++k)
    same &= first[k] == mem[k];
  gm_log.erase(std::remove_if(gm_log.begin(), gm_log.end(), [](const gm_access &x) { return x.dead; }),
               gm_log.end());
  std::sort(gm_log.begin(), gm_log.end());
  for (size_t i = 0; i < gm_log.size();) {
    long long lo = gm_log[i].lo, hi = gm_log[i].hi;
    size_t j = i + 1;
    while (j < gm_log.size() && gm_log[j].ptr == gm_log[i].ptr && gm_log[j].kind == gm_log[i].kind &&
           gm_log[j].lo <= hi)
      hi = std::max(hi, gm_log[j++].hi);
    std::printf("%c %d %lld %lld\n", gm_log[i].kind, gm_log[i].ptr, lo, hi);
    i = j;
  }
  std::printf("idempotent %s\n", same ? "yes" : "no");
  if (gm_track_races)
    std::printf("races %s\n", gm_raced ? "yes" : "no");
  return 0;
}
