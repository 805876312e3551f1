/* Forks inside function regions (tests/e2e/test_pop_metrics.sh): the same
 * parallel region called from two phases, in which thread 1 works 30 and
 * 70 ms. Each phase's path holds its own team's shares: 2 threads, 30 and
 * 70 ms (once, the merge took the master's function node for a team share,
 * and every worker's share went under one phase). */
#include <omp.h>
#include <stdio.h>

#include "work.h"

static void team_work(double ms)
{
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1)
            spin_ms(ms);
    }
}

void phase_a(void) { team_work(30); }
void phase_b(void) { team_work(70); }

int main(void)
{
    phase_a();
    phase_b();
    printf("done\n");
    return 0;
}
