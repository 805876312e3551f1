/* solver_kernels.h: a small stencil mini-app's kernels, OpenMP in a header */
#ifndef SOLVER_KERNELS_H
#define SOLVER_KERNELS_H
#include <omp.h>
#include <stdlib.h>

typedef struct { int n; double *u, *v; } mesh_t;

static double mesh_res;
static inline double mesh_smooth(mesh_t *m)
{
#pragma omp single
    mesh_res = 0.0;
    /* orphaned loop: called inside a parallel region */
#ifdef MESH_STATIC
#pragma omp for schedule(static) reduction(+:mesh_res)
#else
#pragma omp for schedule(dynamic, 64) reduction(+:mesh_res)
#endif
    for (int i = 1; i < m->n - 1; i++) {
        m->v[i] = 0.25 * (m->u[i-1] + 2.0 * m->u[i] + m->u[i+1]);
        mesh_res += (m->v[i] - m->u[i]) * (m->v[i] - m->u[i]);
    }
    return mesh_res;
}

#define MESH_SWAP(m) do { double *t_ = (m)->u; (m)->u = (m)->v; (m)->v = t_; } while (0)

/* recursive task sum with an if cutoff, as real divide-and-conquer codes do */
static inline double mesh_tsum(const double *a, int lo, int hi)
{
    if (hi - lo < 32) {
        double s = 0;
        for (int i = lo; i < hi; i++) s += a[i];
        return s;
    }
    int mid = lo + (hi - lo) / 2;
    double l = 0, r = 0;
#pragma omp task shared(l) if(hi - lo > 4096)
    l = mesh_tsum(a, lo, mid);
#pragma omp task shared(r) if(hi - lo > 4096)
    r = mesh_tsum(a, mid, hi);
#pragma omp taskwait
    return l + r;
}
#endif
