/* ThreadSanitizer stress of thread records taken over (pomp_thread.c): waves
 * of short-lived workers (thread numbers 1 and 2, as libgomp's nested teams'
 * fresh threads) record a few events and end, so that each new one takes an
 * ended one's record over, while the main thread keeps recording; the last
 * wave is still running when the main thread finalizes. Exits non-zero if
 * the counts are wrong; TSan fails the run on any data race. */
#include <pomplib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctc.h"

enum { WAVES = 200, PER_WAVE = 2, EVENTS = 20 };
static POMP_Handle_t region;
static char *ctc;
static int failures;
static int finalized; /* (atomic) events after it are refused */

static void *worker(void *arg)
{
    int id = (int)(long)arg;
    for (int i = 0; i < EVENTS; i++) {
        int ok = POMP_Single_enter(&region, id, ctc) == POMP_SUCCESS &&
                 POMP_Single_begin(region, id) == POMP_SUCCESS &&
                 POMP_Single_end(region, id) == POMP_SUCCESS &&
                 POMP_Single_exit(region, id) == POMP_SUCCESS;
        if (!ok && !__atomic_load_n(&finalized, __ATOMIC_ACQUIRE))
            __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

int main(void)
{
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-tsan-takeover", 1);
    setenv("POMP_SUMMARY", "off", 1);
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", "single");
    ctc_builder_add(&b, "file", "takeover_stress.c");
    ctc_builder_add_lines(&b, "slines", 1, 1);
    ctc = ctc_builder_finish(&b);
    pthread_t th[PER_WAVE];
    for (int wave = 0; wave < WAVES; wave++) {
        for (long t = 0; t < PER_WAVE; t++)
            pthread_create(&th[t], NULL, worker, (void *)(t + 1));
        worker((void *)0);
        if (wave == WAVES - 1)
            break; /* the last wave may still be recording at the finalization */
        for (int t = 0; t < PER_WAVE; t++)
            pthread_join(th[t], NULL);
    }
    __atomic_store_n(&finalized, 1, __ATOMIC_RELEASE);
    if (POMP_Finalize() != POMP_SUCCESS)
        failures++;
    for (int t = 0; t < PER_WAVE; t++)
        pthread_join(th[t], NULL);
    /* the workers' records were taken over: some stand for several threads */
    FILE *f = fopen("/tmp/pomp-tsan-takeover/profile.json", "r");
    char text[1 << 16];
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    if (!strstr(text, "\"os_threads\"")) {
        fprintf(stderr, "tsan takeover stress: no record was taken over\n");
        failures++;
    }
    free(ctc);
    printf("tsan takeover stress: %d failures\n", failures);
    return failures != 0;
}
