#include "pomp_clock.h"

#include <time.h>

uint64_t pomp_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One (ticks, ns) pair: the monotonic clock read between two tick reads, the
 * ticks taken as their middle; of a few tries the one with the narrowest
 * bracket, so that a preemption between the reads cannot skew the pair. */
static void read_pair(uint64_t *ticks, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    *ticks = *ns = 0;
    for (int i = 0; i < 5; i++) {
        uint64_t before = pomp_now();
        uint64_t at = pomp_monotonic_ns();
        uint64_t after = pomp_now();
        if (after - before < best) {
            best = after - before;
            *ticks = before + (after - before) / 2;
            *ns = at;
        }
    }
}

void pomp_clock_init(struct pomp_clock *c)
{
    read_pair(&c->start_ticks, &c->start_ns);
    c->end_ticks = c->start_ticks;
    c->ticks_per_ns = 1.0;
#if defined(__x86_64__) || defined(__i386__)
    c->source = "tsc";
#else
    c->source = "clock_gettime";
#endif
}

void pomp_clock_calibrate(struct pomp_clock *c)
{
    /* Each pair is known to within its bracket (tens of ns): over 2 ms the
     * rate is off by less than 1e-4, below the monotonic clock's own slewing
     * (NTP, up to 5e-4). Only a run shorter than that waits, and not longer. */
    enum { MIN_SPAN_NS = 2 * 1000 * 1000 };
    c->end_ticks = pomp_now();
    uint64_t ns = 0, ticks = 0;
    do
        read_pair(&ticks, &ns);
    while (ns - c->start_ns < MIN_SPAN_NS);
    c->ticks_per_ns = (double)(ticks - c->start_ticks) / (double)(ns - c->start_ns);
    if (c->ticks_per_ns <= 0.0)
        c->ticks_per_ns = 1.0;
}
