/* A parallel region whose reduction combines slowly (a user-defined reduction
 * whose combiner takes 25 ms): each thread's block takes 30 ms, then the
 * runtime combines the threads' values one after another (GCC: under
 * libgomp's atomic lock) before the closing barrier. The combine is the
 * block's work, not the barrier's wait: thread A combines from 30 to 55 ms
 * and waits in the barrier until B's combine ends at 80 ms, 25 ms; B waits
 * for the lock, then enters the barrier last. Barrier waits: about 25 ms in
 * all (they read about 100 ms: the combines counted as barrier). */
#include <omp.h>
#include <stdio.h>

#include "work.h"

typedef struct {
    double v;
} acc_t;

static void combine(acc_t *out, const acc_t *in)
{
    sleep_ms(25);
    out->v += in->v;
}
#pragma omp declare reduction(slow : acc_t : combine(&omp_out, &omp_in)) initializer(omp_priv = {0})

int main(void)
{
    acc_t acc = {0};
#pragma omp parallel num_threads(2) reduction(slow : acc)
    {
        acc.v += 1;
        sleep_ms(30);
    }
    printf("acc %.0f\ndone\n", acc.v);
    return 0;
}
