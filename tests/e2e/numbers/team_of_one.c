/* Tasks of teams of one (tests/e2e/test_pop_metrics.sh): a region of
 * num_threads(1), then an outer team of 2 whose threads each fork an inner,
 * inactive team (nested, a team of one by default). Each team of one creates
 * 10 tasks of 2 ms sleep. libgomp queues them and runs them in the team's
 * closing barrier; LLVM libomp runs them at once where they are created.
 * Either way they are the teams' work: every region's parallel efficiency is
 * about 100 % (it read 0.1 % on libgomp, the tasks' time taken for fork and
 * join; a probe). A first region of two starts the runtime and its thread,
 * so that no team of one holds that start (under ASan on LLVM libomp it made
 * a first num_threads(1) region read 73 %). */
#include <omp.h>
#include <stdio.h>

#include "work.h"

static void ten_tasks(void)
{
    for (int i = 0; i < 10; i++) {
#pragma omp task
        sleep_ms(2);
    }
}

int main(void)
{
    int started = 0;
#pragma omp parallel num_threads(2) reduction(+ : started)
    started += 1;
    if (started < 1)
        return 1;
#pragma omp parallel num_threads(1)
    ten_tasks();
    omp_set_max_active_levels(1);
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel
        ten_tasks();
    }
    printf("done\n");
    return 0;
}
