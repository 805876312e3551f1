/* A balanced nested program (tests/e2e/test_pop_metrics.sh): three
 * executions of an outer team of 2, each thread forking an inner team of 2
 * whose every thread works 50 ms. Four threads run at once; libgomp starts
 * two fresh threads for each execution's inner teams (eight in all), LLVM
 * libomp keeps its four. The run's load balance is ~100 % on both.
 *
 * After each inner team the outer threads wait 2 ms, so that its fresh
 * threads have ended before the next execution starts new ones: a fresh
 * thread that is still alive (descheduled between its team's end and its
 * own) when the next one starts is a fifth thread at once, with a record of
 * its own, and the run had five places (once, in a clean-clone CI). */
#include <omp.h>
#include <stdio.h>

#include "work.h"

int main(void)
{
    omp_set_max_active_levels(2);
    for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(2)
        {
#pragma omp parallel num_threads(2)
            spin_ms(50);
            sleep_ms(2);
        }
    }
    printf("done\n");
    return 0;
}
