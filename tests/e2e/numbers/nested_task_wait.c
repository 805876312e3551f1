/* A lock wait in a task of a nested region (tests/e2e/test_pop_metrics.sh,
 * OMP_MAX_ACTIVE_LEVELS=2): the outer region has one thread, the nested one
 * two. Inner thread 1 holds the lock 40 ms; inner thread 0, the outer
 * region's only thread, works 5 ms and then runs an undeferred task that
 * waits about 35 ms for the lock. That wait is the outer region's too: its
 * synchronisation efficiency is about 15 % (it was about 100 %: the task's
 * waits went to the nested region only). */
#include <omp.h>
#include <stdio.h>

#include "work.h"

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
    int n = 0;
#pragma omp parallel num_threads(1)
    {
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 1) {
                omp_set_lock(&lock);
                spin_ms(40);
                omp_unset_lock(&lock);
            } else {
                spin_ms(5);
#pragma omp task if(0)
                {
                    omp_set_lock(&lock);
                    n++;
                    omp_unset_lock(&lock);
                }
            }
        }
    }
    omp_destroy_lock(&lock);
    printf("done\n");
    return n == 1 ? 0 : 1;
}
