/* An atomic that waits for its lock. A long double is more than 8 bytes: GCC
 * updates it under libgomp's atomic lock (GOMP_atomic_start), the lock it
 * also merges a user-defined reduction under. Thread 0 merges first, and its
 * combiner sleeps 40 ms holding that lock; thread 1 starts its long double
 * atomic 10 ms in and waits about 30 ms for it: a wait (in the critical
 * column), where it read as the parallel region's work, the atomic being an
 * event after the update. A double atomic (one instruction) stays an event. */
#include <omp.h>
#include <stdio.h>

#include "work.h"

struct acc {
    long n;
};

static void merge(struct acc *out, const struct acc *in)
{
    if (omp_get_thread_num() == 0)
        sleep_ms(40);
    out->n += in->n;
}

#pragma omp declare reduction(slow : struct acc : merge(&omp_out, &omp_in)) \
    initializer(omp_priv = (struct acc){0})

long double total;
double plain_total;

int main(void)
{
    struct acc a = {0};
#pragma omp parallel num_threads(2) reduction(slow : a)
    {
        a.n += 1;
        if (omp_get_thread_num() == 1) {
            sleep_ms(10);
#pragma omp atomic
            total += 2.5L;
#pragma omp atomic
            plain_total += 1.5;
        }
    }
    printf("threads %ld total %.1Lf %.1f\n", a.n, total, plain_total);
    printf("done\n");
    return 0;
}
