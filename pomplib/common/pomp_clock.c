#include "pomp_clock.h"

#include <time.h>

uint64_t pomp_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pomp_clock_init(struct pomp_clock *c)
{
    c->start_ns = pomp_monotonic_ns();
    c->start_ticks = pomp_now();
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
    enum { MIN_SPAN_NS = 20 * 1000 * 1000 };
    c->end_ticks = pomp_now();
    uint64_t ns, ticks;
    do {
        ns = pomp_monotonic_ns();
        ticks = pomp_now();
    } while (ns - c->start_ns < MIN_SPAN_NS);
    c->ticks_per_ns = (double)(ticks - c->start_ticks) / (double)(ns - c->start_ns);
    if (c->ticks_per_ns <= 0.0)
        c->ticks_per_ns = 1.0;
}
