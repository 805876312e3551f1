/* Sparse conjugate gradient in the style of real solvers (CSR matrix, a 2-D
 * Poisson operator): loop headers chosen by #ifdef _OPENMP after the pragmas,
 * reductions, an orphaned worksharing loop called from a parallel region. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define GRID 48
#define N (GRID * GRID)

struct csr {
    int n, *row, *col;
    double *val;
};

static void build(struct csr *a)
{
    a->n = N;
    a->row = malloc((N + 1) * sizeof *a->row);
    a->col = malloc(5 * N * sizeof *a->col);
    a->val = malloc(5 * N * sizeof *a->val);
    int k = 0;
    for (int i = 0; i < GRID; i++)
        for (int j = 0; j < GRID; j++) {
            int r = i * GRID + j;
            a->row[r] = k;
            if (i > 0) a->col[k] = r - GRID, a->val[k++] = -1;
            if (j > 0) a->col[k] = r - 1, a->val[k++] = -1;
            a->col[k] = r, a->val[k++] = 4;
            if (j < GRID - 1) a->col[k] = r + 1, a->val[k++] = -1;
            if (i < GRID - 1) a->col[k] = r + GRID, a->val[k++] = -1;
        }
    a->row[N] = k;
}

/* orphaned: called inside the parallel region of solve */
static void spmv(const struct csr *a, const double *x, double *y)
{
    int i;
#pragma omp for schedule(static)
#ifdef _OPENMP
    for (i = 0; i < a->n; i++) {
#else
    for (i = 0; i < a->n; ++i) {
#endif
        double s = 0;
        for (int k = a->row[i]; k < a->row[i + 1]; k++)
            s += a->val[k] * x[a->col[k]];
        y[i] = s;
    }
}

static double dot(const double *x, const double *y, int n)
{
    double s = 0;
    int i;
#pragma omp parallel for reduction(+:s) schedule(static)
#ifdef _OPENMP
    for (i = 0; i < n; i++)
#else
    for (i = n - 1; i >= 0; i--)
#endif
        s += x[i] * y[i];
    return s;
}

static int solve(const struct csr *a, const double *b, double *x, double tol)
{
    double *r = malloc(N * sizeof *r), *p = malloc(N * sizeof *p), *q = malloc(N * sizeof *q);
    int i, it;
#pragma omp parallel for
    for (i = 0; i < N; i++)
        x[i] = 0, r[i] = b[i], p[i] = b[i];
    double rr = dot(r, r, N);
    for (it = 0; it < 1000 && sqrt(rr) > tol; it++) {
#pragma omp parallel
        spmv(a, p, q);
        double alpha = rr / dot(p, q, N);
#pragma omp parallel for
        for (i = 0; i < N; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        double rr_new = dot(r, r, N);
        double beta = rr_new / rr;
        rr = rr_new;
#pragma omp parallel for
        for (i = 0; i < N; i++)
            p[i] = r[i] + beta * p[i];
    }
    free(r), free(p), free(q);
    return it;
}

int main(void)
{
    struct csr a;
    build(&a);
    double *b = malloc(N * sizeof *b), *x = malloc(N * sizeof *x);
    for (int i = 0; i < N; i++)
        b[i] = 1.0 + (i % 7);
    int iterations = solve(&a, b, x, 1e-8);
    double norm = 0;
    for (int i = 0; i < N; i++)
        norm += x[i] * x[i];
    printf("cg: converged %s, |x| = %.6e\n", iterations < 1000 ? "yes" : "no", sqrt(norm));
    free(a.row), free(a.col), free(a.val), free(b), free(x);
    return 0;
}
