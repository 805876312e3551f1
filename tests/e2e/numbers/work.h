/* Known work for the programs with known answers: a busy wait of a given
 * wall time, on the thread that calls it. */
#ifndef NUMBERS_WORK_H
#define NUMBERS_WORK_H

#include <errno.h>
#include <time.h>

static inline double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* Works `ms` milliseconds; returns a value so that the loop is kept. */
static inline double work(double ms)
{
    double end = now_ms() + ms, x = 0;
    while (now_ms() < end)
        for (int i = 0; i < 200; i++)
            x += i * 1e-9;
    return x;
}

static inline void spin_ms(double ms)
{
    (void)work(ms);
}

/* Sleeps `ms` milliseconds: a known time that another job on the machine
 * does not stretch (the thread is off the processor, as while waiting). */
static inline void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) == -1 && errno == EINTR) /* a sampling signal: the rest */
        ;
}

#endif
