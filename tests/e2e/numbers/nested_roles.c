/* Three levels of teams (tests/e2e/test_pop_metrics.sh): five times, 10 ms of
 * serial work, then an outer team of 1 forks a middle team of 2, each of whose
 * threads forks an inner team of 2 whose every thread works 20 ms. libgomp
 * starts fresh threads for the middle team's worker (which forks an inner team:
 * its master) and for each inner team's worker (no master): each is the
 * thread number 1 of its team. Four threads work at once. Known answers: the
 * inner region's elapsed time is about 5 x 20 ms, its load balance ~100 %; the
 * run has 4 places, the initial thread useful for the whole run (D), the
 * three others ~100 ms each. */
#include <omp.h>
#include <stdio.h>

#include "work.h"

int main(void)
{
    long leaves = 0;
    omp_set_max_active_levels(3);
    for (int r = 0; r < 5; r++) {
        sleep_ms(10);
#pragma omp parallel num_threads(1) reduction(+ : leaves)
#pragma omp parallel num_threads(2) reduction(+ : leaves)
#pragma omp parallel num_threads(2) reduction(+ : leaves)
        {
            sleep_ms(20);
            leaves++;
        }
    }
    printf("leaves=%ld\n", leaves);
    return 0;
}
