/* gmem preemptive priority scheduler (libgmemrt), C API, version 1.
 *
 * Included by gmem.h; may be included on its own. Design and guarantees:
 * docs/PREEMPTION_DESIGN.md, section "Scheduler".
 *
 * When the scheduler is active, every kernel launch gets a priority level:
 * its stream's (gmemSchedSetStreamPriority), else the process's
 * (gmemSchedSetProcessPriority, GMEM_PRIORITY). A launch at a level above
 * another level's work suppresses that work at once: launches of the lower
 * level that have not started are held back on the GPU, and running ones
 * that were launched as their preemptible clone (built by the gmem compiler
 * pass) are asked to stop at their next checkpoint. When the urgent work has
 * completed, the stopped launches are relaunched (finished thread blocks are
 * skipped) and everything after them in their streams continues in order.
 *
 * The scheduler is active when GMEM_SCHED=1, when GMEM_PRIORITY is set, or
 * once a program calls gmemSchedEnable(1), gmemSchedSetProcessPriority or
 * gmemSchedSetStreamPriority; GMEM_SCHED=0 (or GMEM_DISABLE=1) keeps it off
 * whatever the program asks. Inactive, launches pass exactly as without it.
 *
 * Environment:
 *   GMEM_SCHED=1|0              activate / forbid the scheduler
 *   GMEM_PRIORITY=realtime|best-effort|<0..15>   the process's priority
 *                               (also activates the scheduler)
 *   GMEM_SCHED_MAX_HOLD_MS=N    longest time a level stays suppressed before it
 *                               is resumed anyway (priority inversion through
 *                               dependencies the scheduler cannot see); default 50
 *   GMEM_SCHED_RESUME_US=N      resume lower levels only after the urgent work
 *                               has been idle this long (default 100: a chain
 *                               of urgent kernels leaves short idle gaps)
 *   GMEM_SCHED_POLICY=strict|fair   the policy at start (default strict; see
 *                               GMEM_SCHED_POLICY_FAIR_SHARE below)
 *   GMEM_SCHED_SHARE=N          fair share: percent of its time every level below
 *                               real time keeps unsuppressed (1..90, default 25)
 *   GMEM_SCHED_SHARE_WINDOW_MS=N  fair share's window (default 20)
 *   GMEM_SCHED_SHARE_SLICE_US=N  fair share: how long a starved level then runs
 *                               beside the levels above it (default 2000)
 *   GMEM_SCHED_POLL_US=N        how often the monitor thread looks at urgent work
 *                               and preempted launches while any exist (default 20;
 *                               4x that while nothing is suppressed; none at all
 *                               while urgent launches keep coming within the linger)
 *   GMEM_SCHED_DRAIN_SAMPLE=N   time the drain of one preemption in N (default 8:
 *                               the timing costs the urgent launch a driver call)
 *   GMEM_SCHED_MAX_SLOTS=N      preemptible launches in flight per context
 *                               (control blocks); beyond, launches are held
 *                               back but not preemptible (default 1024)
 *   GMEM_PREEMPT_LIGHT=0        never use the light twins of persistent clones
 *                               (see gmemSchedGetCloneStats); default 1
 *   GMEM_PREEMPT_LIGHT_US=X     a launch shape runs light when one virtual CTA
 *                               takes at most X microseconds (default 3.0)
 *   GMEM_PREEMPT_ALT=0          never use the alternate full forms of persistent
 *                               clones (see gmemSchedGetCloneStats); default 1
 *   GMEM_PREEMPT_FREE=0         never use the barrier-free forms of persistent
 *                               clones (see gmemSchedGetCloneStats); default 1
 *   GMEM_SCHED_L2=persist       the largest allocation that top-priority launches on a
 *                               stream only read persists in L2 (stream access policy
 *                               window; the context sets aside the device's maximum
 *                               persisting L2 once). Off by default: it changes L2 for
 *                               the whole context. Those launches are then evaluated.
 *   GMEM_LOG=sched              one line per scheduling event on stderr
 *
 * Every function is thread-safe. Streams are CUstream or cudaStream_t values
 * (NULL is the default stream); priorities of streams are keyed by that value.
 */
#ifndef GMEM_GMEM_SCHED_H
#define GMEM_GMEM_SCHED_H

#include <stdint.h>

#include "gmem.h" /* GMEM_API, GMEM_SUCCESS, GMEM_ERROR_* */

#ifdef __cplusplus
extern "C" {
#endif

/* Priority levels: larger is more urgent. Real-time work is never held back
 * or preempted; best-effort work yields to every other level; the numeric
 * levels 1..14 lie between (strictly ordered). */
#define GMEM_PRIORITY_BEST_EFFORT 0
#define GMEM_PRIORITY_REALTIME 15
#define GMEM_PRIORITY_LEVELS 16
#define GMEM_PRIORITY_DEFAULT (-1) /* a stream follows the process priority */

#define GMEM_ERROR_SCHED_NOT_SUPPORTED 16 /* a policy that is not implemented yet */

/* Scheduling policies (gmemSchedSetPolicy, GMEM_SCHED_POLICY=strict|fair).
 * Strict priority: a level runs only while every level above it is idle.
 * Fair share: strict, except that every level below real time keeps
 * GMEM_SCHED_SHARE percent (default 25) of useful time over an exponentially
 * weighted window of GMEM_SCHED_SHARE_WINDOW_MS (default 20); the thread
 * block a stop cuts (and an idempotent victim runs again) counts as time
 * suppressed. A level that has had less gets a slice of
 * GMEM_SCHED_SHARE_SLICE_US (default 2000) in which it runs beside the
 * levels above it (their kernels wait for its thread blocks meanwhile) and
 * arrivals leave it alone; then it is suppressed again, and the levels above
 * run alone for slice x (1 - share) / share before its next slice.
 * Deadlines are reserved (the policy interface admits them). */
#define GMEM_SCHED_POLICY_STRICT 0
#define GMEM_SCHED_POLICY_FAIR_SHARE 1
#define GMEM_SCHED_POLICY_DEADLINE 2

typedef struct gmemSchedStats {
  uint64_t launches;        /* launches seen while the scheduler was active */
  uint64_t passed_through;  /* ... passed untouched: stream capture, cooperative,
                               legacy default stream, scheduler unavailable */
  uint64_t urgent;          /* ... at a level that suppressed lower levels */
  uint64_t gated;           /* ... enqueued behind their level's gate */
  uint64_t preemptible;     /* ... of those, launched as their preemptible clone */
  uint64_t suppressions;    /* times a level was suppressed (gate closed) */
  uint64_t preemptions;     /* running launches asked to stop */
  uint64_t preemptions_loop;/* ... of those, also at loop checkpoints (idempotent) */
  uint64_t relaunches;      /* clones relaunched to finish preempted launches */
  uint64_t forced_resumes;  /* levels resumed after GMEM_SCHED_MAX_HOLD_MS */
  uint64_t clone_failures;  /* clone launches that failed (the original ran) */
  uint64_t drain_samples;   /* preemptions whose drain was timed on the GPU
                               (one in GMEM_SCHED_DRAIN_SAMPLE): */
  uint64_t drain_ns_p50;    /*   time from the stop request landing to the */
  uint64_t drain_ns_p99;    /*   victim's last thread block leaving (the last */
  uint64_t drain_ns_max;    /*   4096 samples) */
  uint64_t drain_ns_mean;
  int32_t active;           /* 1 while the scheduler is active */
  int32_t policy;           /* GMEM_SCHED_POLICY_* */
} gmemSchedStats;

/* Preemptible clones of persistent kernels (the clone loops over the grid's
 * thread blocks on a resident grid). When the compiler also emitted a light
 * twin (no checkpoints inside loops: it stops only between thread blocks, so
 * it runs at full speed but stops only as fast as one thread block runs),
 * each launch shape (grid, block, shared memory, argument values) is timed
 * on the full clone first; shapes whose thread blocks take at most
 * GMEM_PREEMPT_LIGHT_US then run the light twin, re-timed now and then.
 * When it also emitted an alternate full form (same checkpoints and stops as
 * the full clone, its loop state in shared memory instead of registers, so
 * another occupancy), a shape that stays on a full form times one launch of
 * each and keeps the alternate form only when it is more than 2% faster;
 * the other forms are timed again every 1024 launches. A barrier-free form
 * (each thread runs the thread blocks on its own; a stop reruns some, so
 * only launches proved idempotent ever run it) takes part in the same
 * comparison: the faster of the alternate and free forms, when more than 2%
 * faster than the full clone.
 *
 * Extensible: the caller sets size to sizeof(gmemSchedCloneStats) as it
 * knows it; only the fields that fit are written (size is left as is). */
typedef struct gmemSchedCloneStats {
  uint32_t size;              /* set by the caller: bytes of *out (>= 8) */
  uint32_t reserved;
  uint64_t full_launches;     /* persistent clone launches made with the full clone */
  uint64_t light_launches;    /* ... with the light twin */
  uint64_t timed_launches;    /* ... of those, timed for the choice */
  uint64_t switched_to_light; /* launch shapes moved to the light twin */
  uint64_t switched_to_full;  /* launch shapes moved (back) to the full clone */
  uint64_t alt_launches;      /* persistent clone launches made with the alternate
                                 full form (not in full_launches) */
  uint64_t switched_to_alt;   /* launch shapes moved to the alternate full form */
  /* Appended later (a caller built before them passes a smaller size and
     never sees them written): */
  uint64_t free_launches;     /* persistent clone launches made with the
                                 barrier-free form (not in full_launches) */
  uint64_t switched_to_free;  /* launch shapes moved to the barrier-free form */
  uint64_t capped_launches;   /* launches of kernels with a clone run as compiled
                                 (not preemptible once started) because every
                                 form cost more than GMEM_PREEMPT_MAX_OVERHEAD,
                                 or to time the kernel for that cap */
  uint64_t ungated_launches;  /* clone launches put on their stream without a
                                 wait on their level's gate: a stop request
                                 finds them or a launch in front of them
                                 (GMEM_SCHED_GATE=always: none) */
  uint64_t short_launches;    /* launches of kernels with a clone run as
                                 compiled because the kernel takes at most
                                 GMEM_PREEMPT_SHORT_US (not in
                                 capped_launches) */
  uint64_t short_ungated_launches; /* ... of them without a wait on their
                                 level's gate */
  uint64_t idle_timing_skips; /* retired, always 0: such timings are latched
                                 now (latched_timings) */
  uint64_t latched_timings;   /* timed launches (clone forms or the kernel
                                 as compiled) put on an idle stream behind a
                                 latch that opens once the launch is on the
                                 stream (else the time would hold the host's
                                 launch call); GMEM_PREEMPT_LATCH=0: none */
  uint64_t latch_watchdog_opens; /* ... of them, latches a watchdog opened
                                 after 2 ms shut (the launching thread stalled
                                 in its launch call); their times are
                                 dropped */
  uint64_t first_launch_drains; /* first launches of a function in a context,
                                 and code loads, that waited for suppressed
                                 and preempted work to resume and finish
                                 (the driver may make them wait for every
                                 stream: docs/RUNTIME.md, "First launches") */
  uint64_t first_launch_stops_skipped; /* urgent launches that stopped
                                 nothing: their function's first launch, or
                                 made while another thread's first launch
                                 or code load waited for quiet */
  uint64_t share_resumes;     /* fair share: starved levels let run again
                                 while levels above them had work */
  uint64_t share_arrivals_spared; /* fair share: arrivals above such a level
                                 during its slice that left it running
                                 (strict priority would have suppressed it) */
  uint64_t share_ends;        /* fair share: slices over while levels above
                                 had work, the level stopped again by the
                                 scheduler */
  uint64_t scale_probes;      /* launches stopped once they ran to measure a
                                 longer loop segment's stops (a candidate
                                 segment scale timed faster; docs/
                                 PREEMPTION_DESIGN.md, "Segment scale") */
  uint64_t scale_raised;      /* launch shapes whose segment scale went up
                                 (faster, and every probe stopped in time) */
} gmemSchedCloneStats;

/* Activate (1) or deactivate (0) the scheduler. Deactivating resumes all
 * suppressed work; later launches pass untouched. GMEM_SUCCESS, or
 * GMEM_ERROR_DISABLED under GMEM_SCHED=0 / GMEM_DISABLE=1. */
GMEM_API int gmemSchedEnable(int on);

/* 1 while active, else 0. */
GMEM_API int gmemSchedIsActive(void);

/* The process's priority (GMEM_PRIORITY_*, or 0..15); activates the
 * scheduler. GMEM_SUCCESS, GMEM_ERROR_INVALID_VALUE, GMEM_ERROR_DISABLED. */
GMEM_API int gmemSchedSetProcessPriority(int priority);
GMEM_API int gmemSchedGetProcessPriority(void);

/* A stream's priority; GMEM_PRIORITY_DEFAULT makes it follow the process's.
 * Activates the scheduler. GMEM_SUCCESS, GMEM_ERROR_INVALID_VALUE,
 * GMEM_ERROR_DISABLED. */
GMEM_API int gmemSchedSetStreamPriority(void *stream, int priority);
/* The level a launch on this stream gets now. */
GMEM_API int gmemSchedGetStreamPriority(void *stream);

/* "realtime"/"rt", "best-effort"/"be", or an integer 0..15 -> *out.
 * GMEM_SUCCESS or GMEM_ERROR_INVALID_VALUE. */
GMEM_API int gmemSchedParsePriority(const char *text, int *out);

/* GMEM_SUCCESS for GMEM_SCHED_POLICY_STRICT and _FAIR_SHARE (taking effect
 * at the next decision); GMEM_ERROR_SCHED_NOT_SUPPORTED for
 * GMEM_SCHED_POLICY_DEADLINE; GMEM_ERROR_INVALID_VALUE otherwise. */
GMEM_API int gmemSchedSetPolicy(int policy);

/* Counters since the scheduler started. GMEM_SUCCESS or GMEM_ERROR_INVALID_VALUE. */
GMEM_API int gmemSchedGetStats(gmemSchedStats *out);

/* Counters of the full / alternate / free / light choice since the scheduler started.
 * GMEM_SUCCESS, or GMEM_ERROR_INVALID_VALUE when out is null or
 * out->size < 8. */
GMEM_API int gmemSchedGetCloneStats(gmemSchedCloneStats *out);

/* Resumes every suppressed level now and waits (up to timeout_ms) until no
 * preempted launch is still waiting for its relaunch; for teardown. Returns
 * GMEM_SUCCESS, or GMEM_ERROR_NO_LAUNCH if launches were still pending. */
GMEM_API int gmemSchedFlush(int timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* GMEM_GMEM_SCHED_H */
