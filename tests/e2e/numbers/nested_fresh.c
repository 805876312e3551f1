/* Each of an outer team's two threads forks an inner team of 2, 20 times in
 * a row (tests/e2e/test_pop_metrics.sh). At most four threads work at once;
 * libgomp starts a fresh thread for each inner team, and the last one is
 * often still ending (its OS thread) when the next starts. */
#include <omp.h>
#include <stdio.h>

#include "work.h"

int main(void)
{
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    for (int r = 0; r < 20; r++) {
#pragma omp parallel num_threads(2)
        spin_ms(5 * (omp_get_thread_num() + 1));
    }
    printf("done\n");
    return 0;
}
