/* The construct-overhead suite of make bench, in the manner of the EPCC OpenMP
 * micro-benchmarks (written for pomp, not taken from EPCC): each test runs one
 * construct many times around a short calibrated delay, and its overhead is
 * (test time - reference time) / executions, the reference being the same
 * delays without the construct.
 *
 *   constructs --calibrate              prints the delay length (loop trips) for ~100 ns
 *   constructs --list                   prints the test names, one per line
 *   constructs DELAY VARIANT REP [TEST] runs every test (or one) once; prints samples
 *   constructs --run N TEST             runs N executions of TEST, untimed (for callgrind:
 *                                       two counts give the instructions per execution)
 *
 * The same source is compiled plain (libgomp, libomp), through pompcc, and
 * through OPARI2, so every variant runs exactly the same constructs. Each
 * test prints two samples, in the format of bench/summarize.c:
 *
 *   construct <TAB> TEST <TAB> VARIANT <TAB> REP <TAB> overhead-ns
 *   construct-time <TAB> TEST <TAB> VARIANT <TAB> REP <TAB> ns per execution, body included
 *
 * Within one run a test is timed TIMINGS times and the fastest timing is kept,
 * the reference likewise: on a shared 2-vCPU machine a timing during which
 * another process took a CPU from one of the two threads says nothing about
 * the construct. The bench then takes the median over runs. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TIMINGS = 15 };

static long delay_trips;
static volatile long delay_sink;

/* A dependent chain the compiler cannot fold: the body of every construct. */
static __attribute__((noinline)) void delay(void)
{
    long a = 0;
    for (long i = 0; i < delay_trips; i++) {
        a += i;
        __asm__ volatile("" : "+r"(a));
    }
    if (a < 0)
        delay_sink = a;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double fastest(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

/* Times `reps` delays on one thread: the reference of the serialized tests. */
static double reference(long reps)
{
    double t0 = omp_get_wtime();
    for (long j = 0; j < reps; j++)
        delay();
    return omp_get_wtime() - t0;
}

/* Times `reps` delays on every thread at once: the reference of the tests whose
 * delays run in parallel (two vCPUs may not run two delays as fast as one). */
static double reference_parallel(long reps)
{
    double t0 = omp_get_wtime();
#pragma omp parallel
    for (long j = 0; j < reps; j++)
        delay();
    return omp_get_wtime() - t0;
}

static long calibrate(void)
{
    const double target_s = 100e-9;
    delay_trips = 1;
    for (;;) {
        double t[TIMINGS];
        for (int k = 0; k < TIMINGS; k++)
            t[k] = reference(10000) / 10000;
        double per = median(t, TIMINGS);
        if (per >= target_s || delay_trips > (1L << 30))
            return delay_trips;
        delay_trips *= 2;
        if (per * 2 > target_s)
            return (long)((double)delay_trips / 2 * target_s / per);
    }
}

/* ---- the tests: each returns the seconds for `reps` executions ---- */

static double test_parallel(long reps)
{
    double t0 = omp_get_wtime();
    for (long j = 0; j < reps; j++) {
#pragma omp parallel
        delay();
    }
    return omp_get_wtime() - t0;
}

static double test_for(long reps)
{
    int n = omp_get_max_threads();
    double t0 = omp_get_wtime();
#pragma omp parallel
    for (long j = 0; j < reps; j++) {
#pragma omp for
        for (int i = 0; i < n; i++)
            delay();
    }
    return omp_get_wtime() - t0;
}

static double test_parallel_for(long reps)
{
    int n = omp_get_max_threads();
    double t0 = omp_get_wtime();
    for (long j = 0; j < reps; j++) {
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            delay();
    }
    return omp_get_wtime() - t0;
}

static double test_barrier(long reps)
{
    double t0 = omp_get_wtime();
#pragma omp parallel
    for (long j = 0; j < reps; j++) {
        delay();
#pragma omp barrier
    }
    return omp_get_wtime() - t0;
}

static double test_single(long reps)
{
    double t0 = omp_get_wtime();
#pragma omp parallel
    for (long j = 0; j < reps; j++) {
#pragma omp single
        delay();
    }
    return omp_get_wtime() - t0;
}

/* The serialized tests: reps executions in all, shared among the threads. */
static double test_critical(long reps)
{
    double t0 = omp_get_wtime();
#pragma omp parallel
    {
        long mine = reps / omp_get_num_threads();
        for (long j = 0; j < mine; j++) {
#pragma omp critical
            delay();
        }
    }
    return omp_get_wtime() - t0;
}

static double test_lock(long reps)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
    double t0 = omp_get_wtime();
#pragma omp parallel
    {
        long mine = reps / omp_get_num_threads();
        for (long j = 0; j < mine; j++) {
            omp_set_lock(&lock);
            delay();
            omp_unset_lock(&lock);
        }
    }
    double t = omp_get_wtime() - t0;
    omp_destroy_lock(&lock);
    return t;
}

static double atomic_target;

static double test_atomic(long reps)
{
    double t0 = omp_get_wtime();
#pragma omp parallel
    {
        long mine = reps / omp_get_num_threads();
        for (long j = 0; j < mine; j++) {
#pragma omp atomic
            atomic_target += 1.0;
        }
    }
    return omp_get_wtime() - t0;
}

static double test_reduction(long reps)
{
    long sum = 0;
    double t0 = omp_get_wtime();
    for (long j = 0; j < reps; j++) {
#pragma omp parallel reduction(+ : sum)
        {
            delay();
            sum += 1;
        }
    }
    double t = omp_get_wtime() - t0;
    if (sum != reps * omp_get_max_threads())
        fprintf(stderr, "constructs: reduction gave %ld, expected %ld\n", sum,
                reps * omp_get_max_threads());
    return t;
}

static double test_ordered(long reps)
{
    double t0 = omp_get_wtime();
#pragma omp parallel
    {
#pragma omp for ordered schedule(static, 1)
        for (long j = 0; j < reps; j++) {
#pragma omp ordered
            delay();
        }
    }
    return omp_get_wtime() - t0;
}

/* Schedules: one loop of ITERS iterations per thread per execution. */
enum { ITERS = 16 };

static double test_static(long reps)
{
    int n = omp_get_max_threads() * ITERS;
    double t0 = omp_get_wtime();
#pragma omp parallel
    for (long j = 0; j < reps; j++) {
#pragma omp for schedule(static)
        for (int i = 0; i < n; i++)
            delay();
    }
    return omp_get_wtime() - t0;
}

static double test_dynamic(long reps)
{
    int n = omp_get_max_threads() * ITERS;
    double t0 = omp_get_wtime();
#pragma omp parallel
    for (long j = 0; j < reps; j++) {
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < n; i++)
            delay();
    }
    return omp_get_wtime() - t0;
}

static double test_guided(long reps)
{
    int n = omp_get_max_threads() * ITERS;
    double t0 = omp_get_wtime();
#pragma omp parallel
    for (long j = 0; j < reps; j++) {
#pragma omp for schedule(guided, 1)
        for (int i = 0; i < n; i++)
            delay();
    }
    return omp_get_wtime() - t0;
}

/* Tasks: each thread creates its share of reps tasks. */
static double test_task(long reps)
{
    double t0 = omp_get_wtime();
#pragma omp parallel
    {
        long mine = reps / omp_get_num_threads();
        for (long j = 0; j < mine; j++) {
#pragma omp task
            delay();
        }
    }
    return omp_get_wtime() - t0;
}

static double test_taskwait(long reps)
{
    double t0 = omp_get_wtime();
#pragma omp parallel
    {
        long mine = reps / omp_get_num_threads();
        for (long j = 0; j < mine; j++) {
#pragma omp task
            delay();
#pragma omp taskwait
        }
    }
    return omp_get_wtime() - t0;
}

/* How each test's reference is made from delays: per thread (the delay runs
 * on every thread at once: one delay per execution), serialized (every
 * execution's delay runs one after another), shared (the executions are
 * divided among the threads, which run theirs at the same time), per loop
 * (ITERS per thread per execution), or none (atomic has no body). */
enum ref_kind { REF_PER_THREAD, REF_SERIAL, REF_SHARED, REF_LOOP, REF_NONE };

static const struct test {
    const char *name;
    double (*run)(long reps);
    long reps;
    enum ref_kind ref;
} tests[] = {
    /* executions per timing: each timing lasts well under a millisecond, short
     * enough that some of the TIMINGS escape the other processes of a busy machine */
    {"parallel", test_parallel, 700, REF_PER_THREAD},
    {"for", test_for, 1400, REF_PER_THREAD},
    {"parallel for", test_parallel_for, 700, REF_PER_THREAD},
    {"barrier", test_barrier, 2800, REF_PER_THREAD},
    {"single", test_single, 2800, REF_PER_THREAD},
    {"critical", test_critical, 6000, REF_SERIAL},
    {"lock/unlock", test_lock, 6000, REF_SERIAL},
    {"atomic", test_atomic, 60000, REF_NONE},
    {"reduction", test_reduction, 700, REF_PER_THREAD},
    {"ordered", test_ordered, 6000, REF_SERIAL},
    {"for schedule(static)", test_static, 350, REF_LOOP},
    {"for schedule(dynamic,1)", test_dynamic, 350, REF_LOOP},
    {"for schedule(guided,1)", test_guided, 350, REF_LOOP},
    {"task", test_task, 6000, REF_SHARED},
    {"task+taskwait", test_taskwait, 3000, REF_SHARED},
};

/* Seconds of the delays alone that `reps` executions of a test contain, on the
 * critical path. */
static double reference_of(const struct test *t)
{
    double v[TIMINGS];
    for (int k = 0; k < TIMINGS; k++) {
        switch (t->ref) {
        case REF_PER_THREAD: v[k] = reference_parallel(t->reps); break;
        case REF_SERIAL: v[k] = reference(t->reps); break;
        case REF_SHARED: v[k] = reference_parallel(t->reps / omp_get_max_threads()); break;
        case REF_LOOP: v[k] = reference_parallel(t->reps * ITERS); break;
        case REF_NONE: v[k] = 0; break;
        }
    }
    return fastest(v, TIMINGS);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--calibrate") == 0) {
        printf("%ld\n", calibrate());
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < sizeof tests / sizeof *tests; i++)
            printf("%s\n", tests[i].name);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "--run") == 0) {
        long n = atol(argv[2]);
        delay_trips = 1;
        for (size_t i = 0; i < sizeof tests / sizeof *tests; i++)
            if (n > 0 && strcmp(argv[3], tests[i].name) == 0) {
                tests[i].run(n);
                return 0;
            }
        fprintf(stderr, "%s: --run needs a positive count and a test name\n", argv[0]);
        return 2;
    }
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: %s --calibrate | --list | --run N TEST | DELAY VARIANT REP [TEST]\n",
                argv[0]);
        return 2;
    }
    delay_trips = atol(argv[1]);
    if (delay_trips < 1) {
        fprintf(stderr, "%s: DELAY must be a positive number of loop trips\n", argv[0]);
        return 2;
    }
    int found = 0;
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
        const struct test *t = &tests[i];
        if (argc == 5 && strcmp(argv[4], t->name) != 0)
            continue;
        found = 1;
        double v[TIMINGS];
        t->run(t->reps / 10 + 1); /* warm-up: threads, handles, pages */
        for (int k = 0; k < TIMINGS; k++)
            v[k] = t->run(t->reps);
        double test = fastest(v, TIMINGS), ref = reference_of(t);
        printf("construct\t%s\t%s\t%s\t%.2f\n", t->name, argv[2], argv[3],
               (test - ref) / (double)t->reps * 1e9);
        printf("construct-time\t%s\t%s\t%s\t%.2f\n", t->name, argv[2], argv[3],
               test / (double)t->reps * 1e9);
    }
    if (!found) {
        fprintf(stderr, "%s: no test named '%s'\n", argv[0], argv[4]);
        return 2;
    }
    return 0;
}
