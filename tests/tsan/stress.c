/* ThreadSanitizer stress of libpomp (Criterion cannot run under TSan): threads
 * race to initialize the same handles lazily, record nested events, switch
 * measurement off and on, while another thread registers late; then the main
 * thread finalizes. Exits non-zero if the library's answers are wrong; TSan
 * itself fails the run on any data race. */
#include <pomplib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "ctc.h"

enum { THREADS = 6, HANDLES = 32, ROUNDS = 2000 };
static POMP_Handle_t handles[HANDLES];
static char *ctcs[HANDLES];
static pthread_barrier_t start;
static int failures;

static void *worker(void *arg)
{
    long t = (long)arg;
    pthread_barrier_wait(&start);
    for (int round = 0; round < ROUNDS; round++) {
        int h = (int)((round + t * 5) % HANDLES);
        int outer = (h + 1) % HANDLES;
        if (POMP_Critical_enter(&handles[outer], (int)t, ctcs[outer]) != POMP_SUCCESS ||
            POMP_Single_enter(&handles[h], (int)t, ctcs[h]) != POMP_SUCCESS ||
            POMP_Single_begin(handles[h], (int)t) != POMP_SUCCESS ||
            POMP_Single_end(handles[h], (int)t) != POMP_SUCCESS ||
            POMP_Single_exit(handles[h], (int)t) != POMP_SUCCESS ||
            POMP_Critical_exit(handles[outer], (int)t) != POMP_SUCCESS)
            __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
        if (t == 0 && round % 100 == 0)
            (round / 100) % 2 ? POMP_On() : POMP_Off();
    }
    return NULL;
}

int main(void)
{
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-tsan-stress", 1);
    setenv("POMP_SUMMARY", "off", 1);
    /* every trace format, and buffers so small that all threads flush often */
    setenv("POMP_TRACE", "events,otf2,chrome", 1);
    setenv("POMP_BUFFER_SIZE", "4k", 1);
    for (int i = 0; i < HANDLES; i++) {
        struct ctc_builder b;
        ctc_builder_init(&b);
        ctc_builder_add(&b, "type", i % 2 ? "single" : "critical");
        ctc_builder_add(&b, "file", "stress.c");
        ctc_builder_add_lines(&b, "slines", i + 1, i + 1);
        ctcs[i] = ctc_builder_finish(&b);
    }
    pthread_barrier_init(&start, NULL, THREADS);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    for (int i = 0; i < HANDLES; i++)
        if (!handles[i])
            failures++;
    if (POMP_Finalize() != POMP_SUCCESS)
        failures++;
    for (int i = 0; i < HANDLES; i++)
        free(ctcs[i]);
    printf("tsan stress: %d failures\n", failures);
    return failures != 0;
}
