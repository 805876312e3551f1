/* A known split: both threads work COMMON ms, then thread 0 works EXTRA ms
 * more before the barrier that ends the parallel region (milliseconds from the
 * command line: imbalance EXTRA COMMON). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "work.h"

int main(int argc, char **argv)
{
    double extra = argc > 1 ? atof(argv[1]) : 200, common = argc > 2 ? atof(argv[2]) : 0;
#pragma omp parallel num_threads(2)
    {
        spin_ms(common);
        if (omp_get_thread_num() == 0)
            spin_ms(extra);
    }
    printf("done\n");
    return 0;
}
