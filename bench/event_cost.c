/* Per-event cost of the POMP routines, against the cost of reading the clock.
 *
 *   event_cost MODE THREADS REPS EVENTS [KIND]
 *
 * The recording mode (profile, trace) is libpomp's, chosen by the caller's
 * environment (POMP_TRACE); MODE is only the label printed. THREADS pthreads
 * (1 or 2) each run the same loops at the same time. One repetition runs every
 * kind of loop once, in a fixed order, so that each figure is interleaved with
 * its baseline (the clock alone) and shares its disturbances. Each line printed
 * is one sample, in the format bench/summarize.c reads:
 *
 *   event <TAB> MODE NT <TAB> KIND <TAB> REP <TAB> ns-per-event
 *
 * KIND: clock       one rdtsc (what every recorded event pays at least)
 *       preinit     a begin/end pair through a handle from POMP_Get_handle
 *       lazy        the same through a handle that its first event initialized
 *       siblings    begin/end pairs of 8 pre-initialized regions in turn (each
 *                   finds its profile node after another region's)
 *       filtered    an event whose group level turns it down (POMP_LOOP=EnterExit)
 *       lazy-first  the one-time cost of a handle's first event (CTC parsed,
 *                   region created under the registry lock), per handle
 * Each figure of a repetition is the fastest of CHUNKS timings of EVENTS/CHUNKS
 * events (a chunk during which another process took the CPU says nothing about
 * pomp), and the threads' figures are averaged. With KIND, only that loop runs,
 * once (for instruction counts under callgrind). */
#include <pomplib.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

enum { MAX_THREADS = 2, MAX_REPS = 64, FIRSTS_PER_REP = 60, CHUNKS = 5 };
#define LOOP_CTC_BODY "*type=for*file=event_cost.c*slines=1,1*elines=2,2**"
enum { SIBLINGS = 8 };
enum kind { K_CLOCK, K_PREINIT, K_LAZY, K_SIBLINGS, K_FILTERED, K_LAZY_FIRST, K_COUNT };
static const char *const kind_names[K_COUNT] = {"clock",    "preinit",  "lazy",
                                                "siblings", "filtered", "lazy-first"};

struct bench {
    const char *mode;
    int only; /* a kind, or -1 for all */
    int threads, reps;
    long events;
    pthread_barrier_t start;
    double ns[K_COUNT][MAX_THREADS]; /* this repetition, per thread */
};

/* The CTC string of a user region (docs/ctc.md: the length counts from the
 * first '*' to the last). */
static void ctc_of(char buf[80], const char *name)
{
    char body[64];
    snprintf(body, sizeof body, "*type=userRegion*userRegionName=%.16s**", name);
    snprintf(buf, 80, "%zu%s", strlen(body), body);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* What the compiler may not drop: the sum of all timestamps read. */
static volatile uint64_t clock_sink;

static double time_clock(long n)
{
    uint64_t sum = 0;
    double t0 = now_ns();
    for (long i = 0; i < n; i++)
        sum += __rdtsc();
    double t = now_ns() - t0;
    clock_sink = sum;
    return t / (double)n;
}

/* n events: n/2 begin/end pairs of one user region, inside an open outer
 * region, as a construct inside a parallel region would be. */
static double time_pairs(POMP_Handle_t *h, const char *ctc, int tid, long n)
{
    double t0 = now_ns();
    for (long i = 0; i < n / 2; i++) {
        POMP_User_region_begin(h, tid, ctc);
        POMP_User_region_end(*h, tid);
    }
    return (now_ns() - t0) / (double)(n / 2 * 2);
}

static double time_siblings(POMP_Handle_t *hs, char (*ctcs)[80], int tid, long n)
{
    double t0 = now_ns();
    for (long i = 0; i < n / (2 * SIBLINGS); i++)
        for (int k = 0; k < SIBLINGS; k++) {
            POMP_User_region_begin(&hs[k], tid, ctcs[k]);
            POMP_User_region_end(hs[k], tid);
        }
    return (now_ns() - t0) / (double)(n / (2 * SIBLINGS) * 2 * SIBLINGS);
}

static double time_filtered(POMP_Handle_t h, int tid, long n)
{
    double t0 = now_ns();
    for (long i = 0; i < n; i++)
        POMP_Loop_iter_event(h, tid, i);
    return (now_ns() - t0) / (double)n;
}

/* Per-handle cost of a first event on a zero handle, beyond a recorded event:
 * FIRSTS_PER_REP fresh handles, each begun and ended once. */
static double time_lazy_first(int tid, int rep, double event_ns)
{
    static POMP_Handle_t fresh[MAX_THREADS][MAX_REPS][FIRSTS_PER_REP];
    char first_ctc[80];
    ctc_of(first_ctc, "first");
    POMP_Handle_t *hs = fresh[tid][rep];
    double t0 = now_ns();
    for (int i = 0; i < FIRSTS_PER_REP; i++) {
        POMP_User_region_begin(&hs[i], tid, first_ctc);
        POMP_User_region_end(hs[i], tid);
    }
    return (now_ns() - t0) / FIRSTS_PER_REP - 2 * event_ns;
}

/* Keeps the fastest of the timings of one figure; c counts them from 0. */
static void keep_fastest(double *best, int c, double t)
{
    if (c == 0 || t < *best)
        *best = t;
}

struct worker {
    struct bench *b;
    int tid;
};

static void *run_thread(void *arg)
{
    struct worker *w = arg;
    struct bench *b = w->b;
    int tid = w->tid;
    char outer_ctc[80], firsts_ctc[80], pre_ctc[80], lazy_ctc[80], loop_ctc[80];
    POMP_Handle_t firsts = NULL;
    ctc_of(outer_ctc, "outer");
    ctc_of(firsts_ctc, "firsts");
    ctc_of(pre_ctc, "preinit");
    ctc_of(lazy_ctc, "lazy");
    snprintf(loop_ctc, sizeof loop_ctc, "%zu%s", strlen(LOOP_CTC_BODY), LOOP_CTC_BODY);
    char sib_ctc[SIBLINGS][80];
    POMP_Handle_t outer = NULL, pre = NULL, lazy = NULL, loop = NULL, sib[SIBLINGS] = {0};
    POMP_Get_handle(&outer, outer_ctc);
    POMP_Get_handle(&pre, pre_ctc);
    POMP_Get_handle(&loop, loop_ctc);
    for (int k = 0; k < SIBLINGS; k++) {
        char name[16];
        snprintf(name, sizeof name, "sibling%d", k);
        ctc_of(sib_ctc[k], name);
        POMP_Get_handle(&sib[k], sib_ctc[k]);
    }
    POMP_User_region_begin(&outer, tid, outer_ctc);
    /* warm-up: registers the thread, creates the profile nodes, faults in pages */
    time_pairs(&pre, pre_ctc, tid, 2000);
    time_pairs(&lazy, lazy_ctc, tid, 2000);
    time_siblings(sib, sib_ctc, tid, 2000);
    time_filtered(loop, tid, 2000);
    if (b->only >= 0) {
        switch (b->only) {
        case K_CLOCK: time_clock(b->events); break;
        case K_PREINIT: time_pairs(&pre, pre_ctc, tid, b->events); break;
        case K_LAZY: time_pairs(&lazy, lazy_ctc, tid, b->events); break;
        case K_SIBLINGS: time_siblings(sib, sib_ctc, tid, b->events); break;
        case K_FILTERED: time_filtered(loop, tid, b->events); break;
        default: time_lazy_first(tid, 0, 0); break;
        }
        POMP_User_region_end(outer, tid);
        return NULL;
    }
    long chunk = b->events / CHUNKS;
    double (*ns)[MAX_THREADS] = b->ns;
    for (int rep = 0; rep < b->reps; rep++) {
        pthread_barrier_wait(&b->start);
        for (int c = 0; c < CHUNKS; c++)
            keep_fastest(&ns[K_CLOCK][tid], c, time_clock(chunk));
        pthread_barrier_wait(&b->start);
        for (int c = 0; c < CHUNKS; c++)
            keep_fastest(&ns[K_PREINIT][tid], c, time_pairs(&pre, pre_ctc, tid, chunk));
        pthread_barrier_wait(&b->start);
        for (int c = 0; c < CHUNKS; c++)
            keep_fastest(&ns[K_LAZY][tid], c, time_pairs(&lazy, lazy_ctc, tid, chunk));
        pthread_barrier_wait(&b->start);
        for (int c = 0; c < CHUNKS; c++)
            keep_fastest(&ns[K_SIBLINGS][tid], c, time_siblings(sib, sib_ctc, tid, chunk));
        pthread_barrier_wait(&b->start);
        for (int c = 0; c < CHUNKS; c++)
            keep_fastest(&ns[K_FILTERED][tid], c, time_filtered(loop, tid, chunk));
        pthread_barrier_wait(&b->start);
        /* the fresh regions go under a region of their own, away from the others */
        POMP_User_region_end(outer, tid);
        POMP_User_region_begin(&firsts, tid, firsts_ctc);
        b->ns[K_LAZY_FIRST][tid] = time_lazy_first(tid, rep, b->ns[K_PREINIT][tid]);
        POMP_User_region_end(firsts, tid);
        POMP_User_region_begin(&outer, tid, outer_ctc);
        pthread_barrier_wait(&b->start);
        if (tid == 0)
            for (int k = 0; k < K_COUNT; k++) {
                double sum = 0;
                for (int t = 0; t < b->threads; t++)
                    sum += b->ns[k][t];
                printf("event\t%s %dT\t%s\t%d\t%.3f\n", b->mode, b->threads, kind_names[k], rep,
                       sum / b->threads);
            }
    }
    POMP_User_region_end(outer, tid);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: %s MODE THREADS REPS EVENTS [KIND]\n", argv[0]);
        return 2;
    }
    struct bench b = {.mode = argv[1], .threads = atoi(argv[2]), .reps = atoi(argv[3]),
                      .events = atol(argv[4]), .only = -1};
    for (int k = 0; argc == 6 && k < K_COUNT; k++)
        if (strcmp(argv[5], kind_names[k]) == 0)
            b.only = k;
    if (argc == 6 && b.only < 0) {
        fprintf(stderr, "%s: unknown KIND '%s'\n", argv[0], argv[5]);
        return 2;
    }
    if (b.threads < 1 || b.threads > MAX_THREADS || b.reps < 1 || b.reps > MAX_REPS ||
        b.events < 2) {
        fprintf(stderr, "%s: THREADS must be 1..%d, REPS 1..%d, EVENTS at least 2\n", argv[0],
                MAX_THREADS, MAX_REPS);
        return 2;
    }
    POMP_Init();
    pthread_barrier_init(&b.start, NULL, (unsigned)b.threads);
    pthread_t th[MAX_THREADS];
    struct worker w[MAX_THREADS];
    for (int t = 0; t < b.threads; t++) {
        w[t] = (struct worker){&b, t};
        if (pthread_create(&th[t], NULL, run_thread, &w[t]) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    for (int t = 0; t < b.threads; t++)
        pthread_join(th[t], NULL);
    return 0;
}
