/* The program of make bench's sampling figures: a compute-bound OpenMP kernel
 * (no waits to speak of, no memory traffic), timed in chunks of a few parallel
 * loops each, so that the cost of POMP_SAMPLING's signals, unwinds and fork
 * records shows as a longer chunk.
 *
 *   compute CHUNKS SECTION COLUMN REP [wall|cpu]
 *
 * Prints two make bench records (bench/summarize.c) for the fastest chunk:
 *   SECTION  wall time per chunk             COLUMN  REP  MS
 *   SECTION  CPU time of the loops per chunk  COLUMN  REP  MS
 * The fastest of the chunks: a chunk during which another process took a CPU
 * from one of the threads says nothing about sampling, which costs the same
 * in every chunk. The CPU time is what the threads spent in their share of the
 * loops (the handler's and the kernel's time for a signal included), summed
 * over the threads; unlike the wall time it does not grow when the threads
 * wait for a CPU on a busy machine.
 *
 * With wall or cpu, every thread gets a 1 ms timer of that clock whose SIGPROF
 * handler only counts: what the kernel's timer signals cost on their own, the
 * floor under any sampler that takes its samples this way. */
#define _GNU_SOURCE /* gettid, SIGEV_THREAD_ID */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <omp.h>

enum { REGIONS_PER_CHUNK = 8, ITERATIONS = 1 << 16, TRIPS = 64 };

/* A dependent chain of multiply-adds: the CPU's floating-point latency, nothing else. */
__attribute__((noinline)) static double chain(long i)
{
    double x = (double)i * 1e-9;
    for (int k = 0; k < TRIPS; k++)
        x = x * 0.9999999 + 1e-7;
    return x;
}

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One parallel loop; adds the threads' CPU time in it to *cpu. */
__attribute__((noinline)) static double region(double *cpu)
{
    double sum = 0, spent = 0;
#pragma omp parallel reduction(+ : sum, spent)
    {
        double start = thread_cpu_seconds();
#pragma omp for schedule(static) nowait
        for (long i = 0; i < ITERATIONS; i++)
            sum += chain(i);
        spent += thread_cpu_seconds() - start;
    }
    *cpu += spent;
    return sum;
}

struct chunk_time {
    double wall, cpu;
};

static struct chunk_time chunk(double *sum)
{
    struct chunk_time t = {0, 0};
    double start = omp_get_wtime();
    for (int r = 0; r < REGIONS_PER_CHUNK; r++)
        *sum += region(&t.cpu);
    t.wall = omp_get_wtime() - start;
    return t;
}

static volatile sig_atomic_t signals_taken;

static void count_signal(int sig)
{
    (void)sig;
    signals_taken = signals_taken + 1;
}

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* Every OpenMP thread: a timer of the clock that signals the thread itself
 * every millisecond, as POMP_SAMPLING's timers do. */
static int start_timers(clockid_t clock)
{
    struct sigaction sa = {0};
    sa.sa_handler = count_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, NULL) != 0)
        return -1;
    int failed = 0;
#pragma omp parallel reduction(+ : failed)
    {
        struct sigevent sev = {0};
        sev.sigev_notify = SIGEV_THREAD_ID;
        sev.sigev_signo = SIGPROF;
        sev.sigev_notify_thread_id = gettid();
        timer_t timer;
        struct itimerspec its = {{0, 1000000}, {0, 1000000}};
        failed += timer_create(clock, &sev, &timer) != 0 || timer_settime(timer, 0, &its, NULL) != 0;
    }
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    int chunks = argc == 5 || argc == 6 ? atoi(argv[1]) : 0;
    const char *timers = argc == 6 ? argv[5] : NULL;
    if (chunks < 1 || (timers && strcmp(timers, "wall") != 0 && strcmp(timers, "cpu") != 0)) {
        fprintf(stderr, "usage: %s CHUNKS SECTION COLUMN REP [wall|cpu] (CHUNKS a positive number)\n",
                argv[0]);
        return 2;
    }
    if (timers && start_timers(strcmp(timers, "wall") == 0 ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID)) {
        fprintf(stderr, "%s: cannot start the %s timers\n", argv[0], timers);
        return 1;
    }
    double sum = 0;
    chunk(&sum); /* warm-up: threads, pages, the sampler's first unwinds */
    struct chunk_time best = {INFINITY, INFINITY};
    for (int c = 0; c < chunks; c++) {
        struct chunk_time t = chunk(&sum);
        best.wall = fmin(best.wall, t.wall);
        best.cpu = fmin(best.cpu, t.cpu);
    }
    if (!(sum > 0) || !isfinite(sum)) {
        fprintf(stderr, "%s: the kernel's sum is %g, expected a positive number\n", argv[0], sum);
        return 1;
    }
    if (timers && signals_taken == 0) {
        fprintf(stderr, "%s: the %s timers sent no signal\n", argv[0], timers);
        return 1;
    }
    printf("%s\twall time per chunk\t%s\t%s\t%.3f\n", argv[2], argv[3], argv[4], best.wall * 1e3);
    printf("%s\tCPU time of the loops per chunk\t%s\t%s\t%.3f\n", argv[2], argv[3], argv[4],
           best.cpu * 1e3);
    return 0;
}
