/* Task-recursive merge sort with a cutoff macro, in the style of the BOTS
 * codes: parallel/single followed by #if defined(CUTOFF), taskwait, tasks
 * with if() clauses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CUTOFF
#define CUTOFF 256
#endif

static void merge(const int *a, int n1, const int *b, int n2, int *out)
{
    int i = 0, j = 0, k = 0;
    while (i < n1 && j < n2)
        out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
    while (i < n1)
        out[k++] = a[i++];
    while (j < n2)
        out[k++] = b[j++];
}

static int cmp(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

static void sort(int *a, int *tmp, int n, int depth)
{
    if (n <= CUTOFF) {
        qsort(a, (size_t)n, sizeof *a, cmp);
        return;
    }
    int h = n / 2;
#pragma omp task if(depth < 8)
    sort(a, tmp, h, depth + 1);
#pragma omp task if(depth < 8)
    sort(a + h, tmp + h, n - h, depth + 1);
#pragma omp taskwait
    merge(a, h, a + h, n - h, tmp);
    memcpy(a, tmp, (size_t)n * sizeof *a);
}

int main(void)
{
    int n = 200000;
    int *a = malloc((size_t)n * sizeof *a), *tmp = malloc((size_t)n * sizeof *tmp);
    unsigned seed = 12345;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        a[i] = (int)(seed >> 8) % 100000;
    }
#pragma omp parallel
#if defined(CUTOFF)
#pragma omp single
#endif
    sort(a, tmp, n, 0);
    long sum = 0;
    int sorted = 1;
    for (int i = 0; i < n; i++) {
        sum += a[i];
        if (i && a[i - 1] > a[i])
            sorted = 0;
    }
    printf("sort: sorted %d, sum %ld, min %d, max %d\n", sorted, sum, a[0], a[n - 1]);
    free(a), free(tmp);
    return 0;
}
