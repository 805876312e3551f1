/* A lock call of a header (header_locks.h) that must wait: thread 0 holds the
 * lock (an instrumented call) for 20 ms once thread 1 is about to take it in
 * the header; then both enter a critical. Each wait is measured once. */
#include <stdio.h>

#include "header_locks.h"

int main(void)
{
    omp_lock_t l;
    long a = 0, b = 0, c = 0;
    int held = 0;
    omp_init_lock(&l);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            omp_set_lock(&l); /* C_SET */
            __atomic_store_n(&held, 1, __ATOMIC_RELEASE);
            double t0 = omp_get_wtime();
            while (omp_get_wtime() - t0 < 0.02)
                ;
            a += 1;
            omp_unset_lock(&l);
        } else {
            while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
                ;
            locked_add(&l, &b, 10); /* waits for thread 0 */
        }
#pragma omp critical
        c += 1;
    }
    omp_destroy_lock(&l);
    printf("%ld %ld %ld\n", a, b, c);
    return 0;
}
