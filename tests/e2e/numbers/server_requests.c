/* A server (tests/e2e/test_pop_metrics.sh): the main thread, which makes no
 * OpenMP call, works 10 ms and then starts a thread per request and joins it,
 * five times. Each request runs a team of 2 whose threads work 20 ms. Known
 * answers: the run has 2 places (no more than two threads ever work at once),
 * each ~100 ms useful: load balance ~100 %; no thread is the initial one (the
 * first request's thread was taken for it, alive and useful for the run). */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

#include "work.h"

static long done[5];

static void *request(void *arg)
{
    long id = (long)arg, s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    {
        sleep_ms(20);
        s += 1;
    }
    done[id] = s;
    return NULL;
}

int main(void)
{
    for (long r = 0; r < 5; r++) {
        pthread_t t;
        sleep_ms(10);
        if (pthread_create(&t, NULL, request, (void *)r) != 0)
            return 1;
        pthread_join(t, NULL);
    }
    printf("%ld %ld %ld %ld %ld\n", done[0], done[1], done[2], done[3], done[4]);
    return 0;
}
