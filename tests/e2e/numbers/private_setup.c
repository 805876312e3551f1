/* A parallel region whose private copies take time before its block: a
 * user-defined reduction whose initializer takes 50 ms (as a copy constructor
 * of a firstprivate object would), made by each thread in the outlined
 * function before the structured block, then 50 ms of work in the block, on
 * both threads. Every thread does the same work: load balance about 100 %
 * (the master's initialization counted as its fork, the worker's as its
 * share's work: 75 %). */
#include <omp.h>
#include <stdio.h>

#include "work.h"

typedef struct {
    double v;
} acc_t;

static void init_slow(acc_t *priv)
{
    sleep_ms(50);
    priv->v = 0;
}
#pragma omp declare reduction(sum : acc_t : omp_out.v += omp_in.v) initializer(init_slow(&omp_priv))

int main(void)
{
    acc_t acc = {0};
#pragma omp parallel num_threads(2) reduction(sum : acc)
    {
        sleep_ms(50);
        acc.v += 1;
    }
    printf("acc %.0f\n", acc.v);
    printf("done\n");
    return 0;
}
