/* Parallel merge sort with tasks above a cutoff and a taskgroup per level. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUTOFF 2048

static void merge(int *a, int *tmp, size_t n, size_t mid)
{
    size_t i = 0, j = mid, k = 0;
    while (i < mid && j < n)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < mid)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

static void sort(int *a, int *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t mid = n / 2;
    if (n > CUTOFF) {
#pragma omp taskgroup
        {
#pragma omp task
            sort(a, tmp, mid);
#pragma omp task
            sort(a + mid, tmp + mid, n - mid);
        }
    } else {
        sort(a, tmp, mid);
        sort(a + mid, tmp + mid, n - mid);
    }
    merge(a, tmp, n, mid);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 200000;
    int *a = malloc(n * sizeof *a), *tmp = malloc(n * sizeof *tmp);
    unsigned s = 12345;
    for (size_t i = 0; i < n; i++)
        a[i] = (int)((s = s * 1103515245u + 12345u) >> 8);
#pragma omp parallel
#pragma omp single
    sort(a, tmp, n);
    size_t bad = 0;
    for (size_t i = 1; i < n; i++)
        bad += a[i - 1] > a[i];
    printf("sorted %zu numbers, %zu out of order\n", n, bad);
    free(a), free(tmp);
    return 0;
}
