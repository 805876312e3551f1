/* A histogram kernel library: static inline functions with OpenMP in a
 * project header, included by two translation units (tests/realcode/README.md). */
#ifndef HISTO_H
#define HISTO_H
#include "histo_config.h"

static inline void histo_fill(const int *data, int n, long *bins)
{
    for (int b = 0; b < HISTO_BINS; b++)
        bins[b] = 0;
#pragma omp parallel
    {
        long local[HISTO_BINS] = {0};
#pragma omp for schedule(static) nowait
        for (int i = 0; i < n; i++)
            local[data[i] % HISTO_BINS]++;
        for (int b = 0; b < HISTO_BINS; b++) {
#pragma omp atomic
            bins[b] += local[b];
        }
    }
}

static inline double histo_mean(const long *bins)
{
    double sum = 0, count = 0;
#pragma omp parallel for reduction(+ : sum, count)
    for (int b = 0; b < HISTO_BINS; b++) {
        sum += (double)b * bins[b];
        count += bins[b];
    }
    return count > 0 ? sum / count : 0;
}
#endif
