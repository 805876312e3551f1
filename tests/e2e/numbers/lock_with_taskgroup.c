/* A lock wait beside a taskgroup (tests/e2e/test_pop_metrics.sh): thread 1
 * takes the lock and holds it 40 ms; thread 0 asks for it once thread 1 has
 * it (a flag: on a loaded machine thread 1 may start late) and waits about
 * 40 ms; then an empty taskgroup, whose end the runtime reports as a "wait"
 * region. The instrumented lock call's wait counts in the wait table and in
 * the region's POP figures (once a runtime "wait" region was in the run, the
 * instrumented lock waits were left out of both: lock 0, load balance 100 %). */
#include <omp.h>
#include <stdio.h>

#include "work.h"

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
    int n = 0, held = 0;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1) {
            omp_set_lock(&lock);
            __atomic_store_n(&held, 1, __ATOMIC_RELEASE);
            spin_ms(40);
            omp_unset_lock(&lock);
        } else {
            while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
                ;
            omp_set_lock(&lock);
            n++;
            omp_unset_lock(&lock);
        }
#pragma omp single
        {
#pragma omp taskgroup
            {
#pragma omp task
                n++;
            }
        }
    }
    omp_destroy_lock(&lock);
    printf("done\n");
    return n == 2 ? 0 : 1;
}
