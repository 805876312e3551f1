/* An imbalanced nested program (tests/e2e/test_pop_metrics.sh): an outer
 * team of 2, each thread forking an inner team of 2 ten times, whose master
 * works 8 ms and whose worker 24 ms an execution: the inner region's load
 * balance is (8 + 24) / 2 / 24 = 66.7 %. The work is sleep, which a busy
 * machine does not stretch.
 *
 * libgomp starts fresh threads for each inner team: while a trace is
 * written each has a record of its own (one share of the ten its master
 * ran), else it takes over the record of one that ended, and two masters'
 * workers may share one (twenty shares). Either way, that thread's part
 * of a team member is its shares: scaled each to a whole member, twenty
 * one-share workers read 94 % for 67 %, and a worker split over two
 * records was two members (79 %; a probe). */
#include <omp.h>
#include <stdio.h>

#include "work.h"

int main(void)
{
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    for (int r = 0; r < 10; r++) {
#pragma omp parallel num_threads(2)
        sleep_ms(omp_get_thread_num() == 0 ? 8 : 24);
    }
    printf("done\n");
    return 0;
}
