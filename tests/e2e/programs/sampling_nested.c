/* Nested parallelism: main -> outer() opens a region, each of its threads
 * calls inner(), which opens a nested region whose threads spin in leaf(). */
#include <omp.h>
#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) void leaf(double seconds)
{
    double end = now() + seconds;
    while (now() < end)
        ;
}

__attribute__((noinline)) void inner(int *count)
{
#pragma omp parallel num_threads(2)
    {
        leaf(0.15);
#pragma omp atomic
        (*count)++;
    }
}

__attribute__((noinline)) void outer(int *count)
{
#pragma omp parallel num_threads(2)
    inner(count);
}

int main(void)
{
    int count = 0;
    omp_set_max_active_levels(2);
    outer(&count);
    printf("leaf ran %d times\n", count);
    return 0;
}
