#include <stdio.h>
#include <stdlib.h>
#include "histo.h"

double histo_stats(const int *data, int n);

int main(void)
{
    enum { N = 100000 };
    int *data = malloc(N * sizeof *data);
    for (int i = 0; i < N; i++)
        data[i] = (i * 7919) % 1000;
    long bins[HISTO_BINS];
    histo_fill(data, N, bins);
    for (int b = 0; b < HISTO_BINS; b++)
        printf("%ld%c", bins[b], b + 1 < HISTO_BINS ? ' ' : '\n');
    printf("mean %.4f stats %.4f\n", histo_mean(bins), histo_stats(data, N / 2));
    free(data);
    return 0;
}
