/* The event clock: a raw, cheap timestamp on the hot path, converted to
 * nanoseconds only after the run (pomp_clock_calibrate). */
#ifndef POMP_CLOCK_H
#define POMP_CLOCK_H

#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
/* x86 machines pomp targets have an invariant TSC (cpuinfo flags constant_tsc and
 * nonstop_tsc): a constant rate that idle states do not stop. */
static inline uint64_t pomp_now(void) { return __rdtsc(); }
/* Makes the next pomp_now() read the clock only once every instruction before
 * it has completed. rdtsc is not ordered with the loads ahead of it: the CPU
 * runs it early, before the load or compare-and-swap that found a lock free
 * has completed, so the time of a lock's acquisition (a critical's begin, a
 * set or successful test lock) could read earlier than its previous holder's
 * release on another CPU, and a trace showed two threads holding one lock at
 * once (up to 9,200 ticks, 3.5 us, on the development machine's KVM guest,
 * in one run in three of tests/e2e/programs/lock_handoff.c). A
 * two-thread ping-pong through one variable read -676 ticks from one CPU to
 * the other without it, at least +52 with it. Costs about 10 ns, spent only
 * on acquisitions while a trace is written (the trace pairs them). */
static inline void pomp_clock_settle(void) { _mm_lfence(); }
#else
#include <time.h>
static inline uint64_t pomp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static inline void pomp_clock_settle(void) {} /* (the C library orders its clock reads) */
#endif

/* A thread's time waiting for a CPU that the kernel does not tell
 * (pomp_thread_cpu_wait_ns, pomp_run_thread.cpu_wait_ns). */
#define POMP_CPU_WAIT_UNKNOWN UINT64_MAX
/* The share of the threads' time in the run spent waiting for a CPU from
 * which the exit summary and pomp-report say so: this machine's quiet runs of
 * two threads on two CPUs waited 1-15 %. */
#define POMP_CPU_WAIT_SAID 0.10

struct pomp_clock {
    uint64_t start_ticks;   /* at library init */
    uint64_t start_ns;      /* CLOCK_MONOTONIC at library init */
    uint64_t end_ticks;     /* when measurement stopped (pomp_clock_calibrate) */
    double ticks_per_ns;    /* set by pomp_clock_calibrate */
    const char *source;     /* "tsc" or "clock_gettime" */
};

/* Records the starting pair of (ticks, monotonic ns). */
void pomp_clock_init(struct pomp_clock *c);
/* Marks the end of measurement, then derives ticks_per_ns from the start pair
 * and now; for runs shorter than 2 ms it waits out the rest, so the ratio is
 * accurate (that wait is not part of the measured duration). */
void pomp_clock_calibrate(struct pomp_clock *c);
/* Converts a tick count (a duration) to nanoseconds. */
static inline double pomp_ticks_to_ns(const struct pomp_clock *c, uint64_t ticks)
{
    return (double)ticks / c->ticks_per_ns;
}
uint64_t pomp_monotonic_ns(void);

#endif
