/* gmem runtime (libgmemrt) public C API, version 1.
 *
 * libgmemrt sits between a program and the CUDA driver. At every kernel launch
 * it looks up the kernel's gmem descriptor (embedded by the gmem compiler
 * pass as the device global __gmem_desc_<mangled name>), evaluates the
 * descriptor for this launch's grid, block, arguments and allocations, and
 * records the concrete byte ranges each pointer argument may read and write
 * and whether this launch instance is idempotent. Launches themselves are
 * never changed: same arguments, same result code.
 *
 * Ways in (docs/RUNTIME.md):
 *   LD_PRELOAD=libgmemrt.so ./program          no rebuild
 *   link with -Wl,--no-as-needed -lgmemrt      before -lcudart / -lcuda
 *
 * Environment:
 *   GMEM_DISABLE=1              pass every call straight through, record nothing
 *   GMEM_LOG=launches[,descriptors,errors]   or a number (GMEM_LOG_* mask);
 *                               default "errors"
 *   GMEM_VERIFY=1               also run the reference evaluator
 *                               (gmem::checkInstance) at every launch and
 *                               report any disagreement (slow; for tests)
 *   GMEM_EVAL=reference         use the reference evaluator instead of the
 *                               compiled one (slow; for tests)
 *
 * Every function is thread-safe. The API is C and stable within a major
 * GMEM_API_VERSION; structures only grow at their end within a version.
 */
#ifndef GMEM_GMEM_H
#define GMEM_GMEM_H

#include <stdint.h>

#include "descriptor_abi.h" /* gmem_idempotence_class (GMEM_CLASS_*) */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define GMEM_API __attribute__((visibility("default")))
#else
#define GMEM_API
#endif

#define GMEM_API_VERSION 1

/* Return codes. */
#define GMEM_SUCCESS 0
#define GMEM_ERROR_NO_LAUNCH 1     /* this thread has made no recorded launch */
#define GMEM_ERROR_INVALID_VALUE 2 /* NULL output or negative count */
#define GMEM_ERROR_DISABLED 3      /* GMEM_DISABLE=1: nothing is recorded */
#define GMEM_ERROR_DRIVER 4        /* the CUDA driver refused the request */
#define GMEM_ERROR_OUT_OF_MEMORY 5

/* Pointer arguments described per launch (a kernel may have more; see
 * gmemLaunchInfo.num_ptr_args). */
#define GMEM_MAX_PTR_ARGS 16
#define GMEM_REASON_MAX 256

/* gmemLaunchInfo.kernel_class: one of gmem_idempotence_class
 * (include/gmem/descriptor_abi.h: 0 idempotent, 1 conditional,
 * 2 non-idempotent, 3 unknown), or GMEM_CLASS_NONE for a launch of a kernel
 * without a (valid) descriptor. It is the kernel's class over all launches:
 * a launch whose scalar arguments meet a launch variant's guard (`beta ==
 * 0`) is decided with the variant, so a non-idempotent kernel's launch may
 * still be idempotent (gmemLaunchInfo.idempotent, regions and reason are
 * the variant's). */
#define GMEM_CLASS_NONE (-1)

/* Owners of accesses and conflicts: a parameter index (0 <= i < 2^20), a
 * pointer held in a by-value struct/functor parameter (GMEM_OWNER_FIELD(f),
 * f = position among the descriptor's pointer fields), a module global
 * (GMEM_OWNER_GLOBAL(g), g = position among the descriptor's globals), or
 * memory the analysis cannot attribute to any of them. */
#define GMEM_OWNER_UNKNOWN_MEMORY (-2147483647 - 1)
#define GMEM_OWNER_GLOBAL(g) (-1 - (int32_t)(g))
#define GMEM_OWNER_FIELD_BASE (1 << 20)
#define GMEM_OWNER_FIELD(f) (GMEM_OWNER_FIELD_BASE + (int32_t)(f))

/* gmemLaunchInfo.api: the entry point that launched. */
#define GMEM_API_DRIVER 1  /* cuLaunchKernel, cuLaunchKernelEx, cuLaunchCooperativeKernel */
#define GMEM_API_RUNTIME 2 /* cudaLaunchKernel, cudaLaunchKernelExC */

/* gmemArgAccess.flags */
#define GMEM_ARG_HAS_ALLOC 0x1      /* the pointer lies in a known allocation */
#define GMEM_ARG_READS 0x2          /* reads at this launch (read_* valid) */
#define GMEM_ARG_WRITES 0x4         /* writes at this launch (write_* valid) */
#define GMEM_ARG_READ_ANYTHING 0x8  /* may read any global memory */
#define GMEM_ARG_WRITE_ANYTHING 0x10
#define GMEM_ARG_READ_EXACT 0x20    /* read region evaluated bounded (checks held) */
#define GMEM_ARG_WRITE_EXACT 0x40
#define GMEM_ARG_WIDENED 0x80       /* a region was widened at this launch */

/* What one pointer argument may access at one launch: a pointer parameter,
 * or a pointer held in a by-value struct/functor parameter. Ranges are
 * absolute device addresses, half-open. When an argument reads (writes)
 * several disjoint ranges, read_lo/read_hi is their hull and read_count
 * their number. "Anything" is reported as [0, UINT64_MAX). */
typedef struct gmemArgAccess {
  int32_t param_index;   /* position among the kernel's parameters */
  int32_t field_offset;  /* -1: the parameter itself; else byte offset of the
                            pointer inside by-value parameter param_index */
  int32_t owner;         /* as in conflicts: param_index or GMEM_OWNER_FIELD(f) */
  uint32_t flags;        /* GMEM_ARG_* */
  uint64_t pointer;      /* the argument's value */
  uint64_t alloc_base;   /* allocation containing pointer (GMEM_ARG_HAS_ALLOC) */
  uint64_t alloc_size;
  uint64_t read_lo, read_hi;
  uint64_t write_lo, write_hi;
  uint32_t read_count, write_count;
} gmemArgAccess;

typedef struct gmemLaunchInfo {
  uint64_t sequence;         /* process-wide launch number, from 1 */
  const char *kernel_symbol; /* mangled name; valid for the life of the process */
  const char *kernel_name;   /* plain name (descriptor) or the symbol */
  int32_t instrumented;      /* 1: a valid descriptor was evaluated */
  int32_t kernel_class;      /* gmem_idempotence_class or GMEM_CLASS_NONE */
  int32_t idempotent;        /* 1: this launch instance is idempotent */
  int32_t launch_result;     /* CUresult / cudaError_t the launch returned */
  uint32_t api;              /* GMEM_API_DRIVER or GMEM_API_RUNTIME */
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shared_mem_bytes;
  uint64_t stream;           /* CUstream / cudaStream_t value */
  int32_t has_conflict;      /* 1: conflict_* valid (then idempotent == 0) */
  int32_t conflict_read;     /* owner read (see GMEM_OWNER_*) */
  int32_t conflict_write;    /* owner written */
  uint64_t conflict_lo;      /* overlapping bytes, half-open, absolute */
  uint64_t conflict_hi;
  int32_t num_ptr_args;      /* pointer parameters + pointer fields of the kernel */
  int32_t num_ptr_args_recorded; /* min(num_ptr_args, GMEM_MAX_PTR_ARGS) */
  gmemArgAccess ptr_args[GMEM_MAX_PTR_ARGS];
  char reason[GMEM_REASON_MAX]; /* why (not) idempotent, or why uninstrumented */
} gmemLaunchInfo;

/* Counters since the start of the process (all launches, all threads). */
typedef struct gmemStats {
  uint64_t launches;              /* launches seen (instrumented or not) */
  uint64_t instrumented;          /* ... with a valid descriptor */
  uint64_t idempotent;            /* ... decided idempotent */
  uint64_t kernels_resolved;      /* distinct kernel handles looked up */
  uint64_t bad_descriptors;       /* kernels whose descriptor was rejected */
  uint64_t alloc_cache_misses;    /* pointer lookups that missed the per-thread cache */
  uint64_t alloc_driver_queries;  /* ... that also missed the process-wide map (driver asked) */
  uint64_t alloc_invalidations;   /* frees/allocations that invalidated the cache */
  uint64_t verify_mismatches;     /* GMEM_VERIFY disagreements (should be 0) */
} gmemStats;

/* "libgmemrt X.Y.Z (descriptor ABI N, API N)". */
GMEM_API const char *gmemVersion(void);

/* This thread's last launch. GMEM_SUCCESS or GMEM_ERROR_*. */
GMEM_API int gmemGetLastLaunchInfo(gmemLaunchInfo *out);

/* Up to max of the most recent launches of the process (a bounded ring of
 * the last 512), oldest first. Returns how many were written (>= 0), or
 * -GMEM_ERROR_INVALID_VALUE. */
GMEM_API int gmemGetRecentLaunches(gmemLaunchInfo *out, int max);

#define GMEM_LOG_ERRORS 0x1      /* bad descriptors and internal errors (default) */
#define GMEM_LOG_LAUNCHES 0x2    /* one line per launch */
#define GMEM_LOG_DESCRIPTORS 0x4 /* one line per kernel resolved */
#define GMEM_LOG_DRIVER 0x8      /* each cuGetProcAddress lookup (wrapped or not) */
#define GMEM_LOG_MEMORY 0x10     /* per launch: what the memory side moved and why */
/* Sets the log mask (stderr); returns the previous one. */
GMEM_API int gmemSetLogging(int mask);

/* 1 when launches are being examined (GMEM_DISABLE unset), else 0. */
GMEM_API int gmemIsEnabled(void);

/* Process-wide counters. GMEM_SUCCESS or GMEM_ERROR_INVALID_VALUE. */
GMEM_API int gmemGetStats(gmemStats *out);

/* --- Managed memory: prefetch, budget, hints, pool (docs/RUNTIME.md) -------
 *
 * At every launch of an instrumented kernel, libgmemrt prefetches the
 * launch's read and write ranges that lie in managed memory to the launch's
 * device, on a copy stream the launch stream then waits for, skipping what it
 * made resident before (GMEM_PREFETCH=0 turns this off). Regions the analysis
 * could not bound are left to demand paging unless GMEM_PREFETCH_UNBOUNDED=whole
 * or a GMEM_HINT_PREFETCH hint covers them. GMEM_DEVICE_BUDGET=<bytes>[KMG]
 * keeps the managed bytes libgmemrt counts as resident under a budget,
 * evicting to the host what no queued launch touches first. */

/* Hints for gmemAdvise, in the spirit of GMEM's hmadvise. */
#define GMEM_HINT_PREFETCH 1    /* move the range to the device now; unbounded
                                   accesses to it prefetch it whole */
#define GMEM_HINT_RANDOM 2      /* accessed sparsely: never prefetch it, let
                                   demand paging bring what is touched */
#define GMEM_HINT_DROP 3        /* contents no longer needed (lazy free):
                                   discard without write-back where the driver
                                   can, else evict to the host */
#define GMEM_HINT_PIN 4         /* keep resident on the device, never evict */
#define GMEM_HINT_UNPIN 5
#define GMEM_HINT_READ_MOSTLY 6 /* cuMemAdvise read-mostly (duplicated copies) */
#define GMEM_HINT_NORMAL 7      /* forget RANDOM / PREFETCH / READ_MOSTLY */

/* Applies a hint to [ptr, ptr+bytes) of managed memory (stream-ordered
 * actions go on libgmemrt's copy stream of the current context).
 * GMEM_SUCCESS, GMEM_ERROR_INVALID_VALUE (null, not managed, unknown hint),
 * or GMEM_ERROR_DRIVER. Works also under GMEM_DISABLE=1. */
GMEM_API int gmemAdvise(const void *ptr, uint64_t bytes, int hint);

/* A pool of managed memory: blocks are 2 MiB-aligned and padded to 2 MiB,
 * so two allocations never share a migration block, and freed blocks are
 * reused without a driver call (cuMemFree of managed memory synchronises
 * the device). Usable from any thread. gmemFreeManaged takes only pointers
 * gmemMallocManaged returned. */
GMEM_API int gmemMallocManaged(void **ptr, uint64_t bytes);
GMEM_API int gmemFreeManaged(void *ptr);

typedef struct gmemMemoryStats {
  uint64_t budget_bytes;          /* GMEM_DEVICE_BUDGET, 0: none */
  uint64_t resident_bytes;        /* managed bytes counted as on the device now */
  uint64_t peak_resident_bytes;
  uint64_t prefetched_bytes;      /* moved to the device by prefetches */
  uint64_t prefetch_ops;          /* cuMemPrefetchAsync calls to the device */
  uint64_t evicted_bytes;         /* moved to the host (or discarded) to keep the budget */
  uint64_t evict_ops;
  uint64_t skipped_resident_bytes; /* needed by launches, already resident: not moved */
  uint64_t unbounded_fallbacks;   /* launch arguments left to demand paging */
  uint64_t remote_bytes;          /* mapped remotely (did not fit the budget) */
  uint64_t launches_prefetched;   /* launches that waited for a prefetch */
  uint64_t capture_skips;         /* launches in stream capture: nothing moved */
  uint64_t pool_bytes;            /* managed bytes the pool holds (used + free) */
  uint64_t pool_used_bytes;
} gmemMemoryStats;

GMEM_API int gmemGetMemoryStats(gmemMemoryStats *out);

/* "idempotent", "conditional", "non-idempotent", "unknown", "none". */
GMEM_API const char *gmemClassName(int kernel_class);

#ifdef __cplusplus
}
#endif

#include "gmem_sched.h" /* the preemptive scheduler's API */
#endif /* GMEM_GMEM_H */
