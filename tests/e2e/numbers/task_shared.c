/* One task construct run in two parallel regions (tests/e2e/test_pop_metrics.sh):
 * in the first, one thread's task waits for a lock the other thread holds
 * 40 ms; in the second, the tasks wait for nothing. The runtime reports the
 * team each task runs in: the construct has a task root per region, and the
 * lock wait counts for the first only. Without those reports (POMP_OMPT=off)
 * its executions are one tree, the wait is shared between the regions by task
 * time, and both regions' POP rows say their figures are estimated. */
#include <omp.h>
#include <stdio.h>

#include "work.h"

static omp_lock_t lock;

static void run_task(int locking)
{
#pragma omp task if(0)
    {
        if (locking) {
            omp_set_lock(&lock);
            spin_ms(10);
            omp_unset_lock(&lock);
        } else {
            spin_ms(30);
        }
    }
}

int main(void)
{
    omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            omp_set_lock(&lock);
            spin_ms(40);
            omp_unset_lock(&lock);
        } else {
            spin_ms(5);
            run_task(1);
        }
    }
#pragma omp parallel num_threads(2)
    run_task(0);
    omp_destroy_lock(&lock);
    printf("done\n");
    return 0;
}
