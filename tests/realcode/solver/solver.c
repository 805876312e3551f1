/* solver.c: a mini-app in the shape of real OpenMP codes: a stencil whose
 * kernels live in a header (an orphaned loop whose schedule an #ifdef picks),
 * a barrier under #if, a recursive quicksort with tasks and an if-clause
 * cutoff, a recursive task reduction from the header, a taskloop in a
 * taskgroup with atomics, locks and a named critical, and a file of
 * generated regions. After the work it replays, serially, how many tasks the
 * recursions create, so that a test can hold the profile to exact counts. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "solver_kernels.h"

long regions_all(int n);

static omp_lock_t log_lock;
static long log_count;

static void note(void)
{
    omp_set_lock(&log_lock);
    log_count++;
    omp_unset_lock(&log_lock);
}

#define QS_CUTOFF 2000

/* partitions a[lo..hi] around its middle element; *i and *j are the halves' ends */
static void partition(int *a, int lo, int hi, int *pi, int *pj)
{
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p)
            i++;
        while (a[j] > p)
            j--;
        if (i <= j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
    }
    *pi = i;
    *pj = j;
}

static void qs(int *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    int i, j;
    partition(a, lo, hi, &i, &j);
#pragma omp task if(hi - lo > QS_CUTOFF) firstprivate(lo, j)
    qs(a, lo, j);
#pragma omp task if(hi - lo > QS_CUTOFF) firstprivate(i, hi)
    qs(a, i, hi);
#pragma omp taskwait
}

/* the same recursion, serially: the calls that create tasks */
static long qs_calls(int *a, int lo, int hi)
{
    if (lo >= hi)
        return 0;
    int i, j;
    partition(a, lo, hi, &i, &j);
    return 1 + qs_calls(a, lo, j) + qs_calls(a, i, hi);
}

static long tsum_calls(int lo, int hi)
{
    if (hi - lo < 32)
        return 0;
    int mid = lo + (hi - lo) / 2;
    return 1 + tsum_calls(lo, mid) + tsum_calls(mid, hi);
}

static void fill(int *a, int n)
{
    unsigned x = 12345;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        a[i] = (int)(x >> 8) % 100000;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200000, steps = 20;
    mesh_t m = {n, calloc(n, sizeof(double)), calloc(n, sizeof(double))};
    int *a = malloc(n * sizeof(int));
    if (!m.u || !m.v || !a)
        return 1;
    for (int i = 0; i < n; i++)
        m.u[i] = (i % 97) * 0.01;
    omp_init_lock(&log_lock);

    double res = 0;
#pragma omp parallel
    {
        for (int s = 0; s < steps; s++) {
            double r = mesh_smooth(&m);
#pragma omp single
            {
                MESH_SWAP(&m);
                res = r;
            }
#if defined(_OPENMP) && _OPENMP >= 201307
#pragma omp barrier
#endif
        }
#pragma omp master
        note();
    }
    printf("residual %.6e\n", res);

    double total = 0;
#pragma omp parallel
#pragma omp single
    total = mesh_tsum(m.u, 0, n);
    printf("tsum %.6f\n", total);

    fill(a, n);
#pragma omp parallel
    {
#pragma omp single nowait
        qs(a, 0, n - 1);
#pragma omp critical(tally)
        log_count++;
    }
    int sorted = 1;
    for (int i = 1; i < n; i++)
        if (a[i - 1] > a[i])
            sorted = 0;
    printf("sorted %d\n", sorted);

    long hist[8] = {0};
#pragma omp parallel
    {
#pragma omp taskgroup
        {
#pragma omp single
#pragma omp taskloop grainsize(1000)
            for (int i = 0; i < n; i++) {
                int b = a[i] % 8;
#pragma omp atomic
                hist[b]++;
            }
        }
    }
    long hs = 0;
    for (int b = 0; b < 8; b++)
        hs += hist[b];
    printf("hist %ld\n", hs);
    printf("regions %ld\n", regions_all(n / 100));
    printf("log %ld\n", log_count);

    fill(a, n);
    printf("expect qs_tasks %ld tsum_tasks %ld\n", qs_calls(a, 0, n - 1), tsum_calls(0, n));
    free(a);
    free(m.u);
    free(m.v);
    return 0;
}
