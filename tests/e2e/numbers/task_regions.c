/* Tasks in two parallel regions (tests/e2e/test_pop_metrics.sh). In the
 * first, each thread runs a task of its own (undeferred) that holds one lock
 * 50 ms, so one of them waits 50 ms for it; in the second, each runs a task
 * of 50 ms that waits for nothing. The first region's efficiency is about
 * 50 %, the second's about 100 %: a task's waits count for the region its
 * task ran in (once, a thread's task waits were shared among all the regions
 * it ran tasks in, and the second region read 83 %). */
#include <omp.h>
#include <stdio.h>

#include "work.h"

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
    spin_ms(1); /* the threads started */
#pragma omp parallel num_threads(2)
    {
#pragma omp task if(0)
        {
            omp_set_lock(&lock);
            spin_ms(50);
            omp_unset_lock(&lock);
        }
    }
#pragma omp parallel num_threads(2)
    {
#pragma omp task if(0)
        spin_ms(50);
    }
    omp_destroy_lock(&lock);
    printf("done\n");
    return 0;
}
