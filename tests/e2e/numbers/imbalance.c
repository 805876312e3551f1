/* Known split: thread 0 works WORK_MS more than thread 1 before the barrier at
 * the end of the parallel region; both threads then do the same work. */
#include <stdio.h>
#include <time.h>
#include <omp.h>

#ifndef WORK_MS
#define WORK_MS 200
#endif

static void spin_ms(double ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}

int main(void)
{
#pragma omp parallel num_threads(2)
    {
        spin_ms(50);
        if (omp_get_thread_num() == 0)
            spin_ms(WORK_MS);
    }
    printf("done\n");
    return 0;
}
