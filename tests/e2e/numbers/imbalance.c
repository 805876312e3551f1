/* A known split: both threads work COMMON ms, then thread 0 works EXTRA ms
 * more before the barrier that ends the parallel region (milliseconds from the
 * command line: imbalance EXTRA COMMON). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void spin_ms(double ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}

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
