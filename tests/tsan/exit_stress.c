/* ThreadSanitizer: exit() while other threads still record. Worker threads
 * record nested events (with values and a trace) without end; the main thread
 * calls exit() while they run, so the finalizer merges the profiles and
 * finishes the trace while the workers are still inside event routines. An
 * atomic site counted inline once throttled (POMP_Fast_count) runs in every
 * worker, and in short-lived threads that end before exit() (their counts are
 * saved at their end). TSan fails the run on any data race; the program checks
 * that the output is whole. */
#include <pomplib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctc.h"

enum { THREADS = 4 };
static POMP_Handle_t outer, inner, atomic;
static char *outer_ctc, *inner_ctc, *atomic_ctc;
static __thread POMP_Fast_count atomic_count;
static pthread_barrier_t started;

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    pthread_barrier_wait(&started);
    for (long round = 0;; round++) {
        POMP_Int64 v[2] = {round, t};
        POMP_Critical_enter(&outer, t, outer_ctc);
        POMP_User_region_begin_values(&inner, t, 2, v, inner_ctc);
        POMP_User_region_end(inner, t);
        POMP_Critical_exit(outer, t);
        POMP_Atomic_event_fast(&atomic, t, atomic_ctc, &atomic_count);
    }
    return NULL;
}

static void *short_lived(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < 5000; i++)
        POMP_Atomic_event_fast(&atomic, t, atomic_ctc, &atomic_count);
    return NULL;
}

static char *ctc_of(const char *type, const char *name)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", type);
    ctc_builder_add(&b, "name", name);
    ctc_builder_add(&b, "file", "exit_stress.c");
    return ctc_builder_finish(&b);
}

/* A destructor: it runs after every exit handler, libpomp's (registered at
 * load, before main) included. (An atexit handler registered in main ran
 * before libpomp's, and passed only on a profile.json of an earlier run.) */
__attribute__((destructor)) static void output_is_whole(void)
{
    struct stat st;
    if (stat("/tmp/pomp-tsan-exit/profile.json", &st) != 0 || st.st_size == 0) {
        fprintf(stderr, "exit_stress: no profile.json after exit()\n");
        _Exit(1);
    }
    printf("exit_stress: profile.json written while %d threads were recording\n", THREADS);
}

int main(void)
{
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-tsan-exit", 1);
    setenv("POMP_SUMMARY", "off", 1);
    setenv("POMP_TRACE", "events", 1);
    setenv("POMP_BUFFER_SIZE", "64k", 1);
    outer_ctc = ctc_of("critical", "outer");
    inner_ctc = ctc_of("userregion", "inner");
    atomic_ctc = ctc_of("atomic", "counted");
    setenv("POMP_THROTTLE", "1000,1s", 1); /* counted inline after 1000 executions */
    unlink("/tmp/pomp-tsan-exit/profile.json"); /* not an earlier run's */
    POMP_Init();
    for (long t = 0; t < 2; t++) { /* they end before exit() */
        pthread_t s;
        pthread_create(&s, NULL, short_lived, (void *)(THREADS + 1 + t));
        pthread_join(s, NULL);
    }
    pthread_barrier_init(&started, NULL, THREADS + 1);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)(t + 1));
    pthread_barrier_wait(&started);
    struct timespec run = {0, 50 * 1000 * 1000};
    nanosleep(&run, NULL);
    exit(0); /* the workers are still recording */
}
