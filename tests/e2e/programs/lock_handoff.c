/* Two threads take one named critical and one omp lock in turn, as fast as
 * they can (tests/e2e/test_trace_lock_order.sh): in the trace, no thread may
 * acquire either before the previous holder released it. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long in_critical = 0, in_lock = 0;
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
    for (int i = 0; i < 100000; i++) {
#pragma omp critical(handoff)
        in_critical++;
        omp_set_lock(&lock);
        in_lock++;
        omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);
    printf("%ld %ld\n", in_critical, in_lock);
    return 0;
}
