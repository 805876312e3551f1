#include "work.h"

void work(int n, double *a, double *sum, int *singles)
{
    double local = 0.0;
    int i;

    #pragma omp for schedule(static)
    for (i = 0; i < n; i++) {
        a[i] = 0.5 * i;
        local += a[i];
    }

    #pragma omp critical(accumulate)
    {
        *sum += local;
    }

    #pragma omp single
    (*singles)++;

    #pragma omp barrier
}
