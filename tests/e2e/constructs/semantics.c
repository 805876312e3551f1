/* Data-sharing and synchronization are what they were without pomp
 * (tests/e2e/test_semantics.sh): default(none), private, firstprivate,
 * lastprivate, reduction, copyin, linear, collapse, ordered(n), copyprivate and
 * nowait, on combined and plain constructs, in #pragma and _Pragma form, and
 * cancellation. The output does not depend on the number of threads. */
#include <omp.h>
#include <stdio.h>

#define N 40

static int tp = 7;
#pragma omp threadprivate(tp)

int main(void)
{
    int a[N], n = N, i, j, k;
    int fp = 3, lp = -1, red = 0, lin = 0, col = 0, pr = 11;
    double prod = 1.0;

    #pragma omp parallel for default(none) shared(a, n) firstprivate(fp) lastprivate(lp) reduction(+: red) reduction(*: prod) private(pr) schedule(static, 4)
    for (i = 0; i < n; i++) {
        pr = i + fp;
        a[i] = pr;
        lp = i;
        red += pr;
        prod *= (i % 3 == 0) ? 1.5 : 1.0;
    }
    printf("fp %d lp %d red %d prod %.3f pr %d a %d\n", fp, lp, red, prod, pr, a[N - 1]);

    tp = 21;
    int tsum = 0;
    #pragma omp parallel copyin(tp) reduction(+: tsum) default(none)
    tsum += tp == 21;
    printf("copyin %s\n", tsum > 0 ? "ok" : "lost");

    #pragma omp parallel for linear(lin: 2) default(none) shared(a)
    for (i = 0; i < N; i++) {
        a[i] = lin;
        lin += 2;
    }
    printf("linear %d %d\n", lin, a[N - 1]);

    #pragma omp parallel for collapse(2) reduction(+: col) default(none)
    for (i = 0; i < 8; i++)
        for (j = 0; j < 5; j++)
            col += i * j;
    printf("collapse %d\n", col);

    int seq[N], pos = 0;
    #pragma omp parallel for ordered schedule(dynamic, 3) default(none) shared(seq, pos)
    for (i = 0; i < N; i++) {
        #pragma omp ordered
        seq[pos++] = i;
    }
    int inorder = 1;
    for (i = 0; i < N; i++)
        inorder &= seq[i] == i;
    printf("ordered %d\n", inorder);

    _Pragma("omp parallel for reduction(+: red) default(none) shared(a)")
    for (i = 0; i < N; i++)
        red += a[i];
    printf("_Pragma %d\n", red);

    /* default(none) where the split leaves' loop variable, declared before the
     * loop, has no attribute on the outer leaf unless pomp gives it one: GCC
     * rejects it for simd and loop leaves (a probe lost a whole file so) */
    int vsum = 0, vcol = 0;
    #pragma omp parallel for simd default(none) shared(a) reduction(+: vsum)
    for (i = 0; i < N; i++)
        vsum += a[i] + i;
    #pragma omp parallel loop default(none) shared(a)
    for (i = 0; i < N; i++)
        a[i] += 1;
    #pragma omp parallel for simd collapse(2) default(none) reduction(+: vcol)
    for (i = 0; i < 8; i++)
        for (j = 0; j < 5; j++)
            vcol += i + j;
    #pragma omp parallel for simd default(none) shared(a) lastprivate(i)
    for (i = 0; i < N; i++)
        a[i] -= 1;
    printf("default(none) simd %d loop %d collapse %d lastprivate %d\n", vsum, a[N - 1], vcol, i);

    /* a variable both firstprivate and lastprivate under a default clause: the
     * outer leaf listed it twice, shared(v, v), which GCC rejects (a probe lost
     * a whole file so), for a loop and for sections */
    double v = 1.5, w = 2.5, u = 0;
    #pragma omp parallel for default(none) firstprivate(v) lastprivate(v)
    for (i = 0; i < N; i++)
        v = v + i;
    #pragma omp parallel sections default(shared) firstprivate(w) lastprivate(w)
    {
        #pragma omp section
        u = w + 1;
        #pragma omp section
        w += 10;
    }
    printf("firstprivate and lastprivate %.1f %.1f %.1f\n", v, w, u);

    int sum2 = 0;
    _Pragma("omp parallel sections reduction(+: sum2)")
    {
        _Pragma("omp section")
        sum2 += 1;
        _Pragma("omp section")
        sum2 += 2;
    }
    printf("_Pragma sections %d\n", sum2);

    int first = 0, before = 0;
    #pragma omp parallel default(none) shared(first, before, a) private(k)
    {
        #pragma omp single copyprivate(k)
        k = 99;
        #pragma omp atomic
        first += k == 99;
        #pragma omp for nowait
        for (int m = 0; m < N; m++)
            a[m] = 1;
        #pragma omp barrier
        #pragma omp single // @single_plain
        before = a[0] + a[N - 1];
    }
    printf("copyprivate %s, nowait+barrier %d\n", first > 0 ? "ok" : "lost", before);

    /* an inner leaf's expression under an outer default clause, evaluated by
     * the team as unsplit: hoisted before the construct, filter(
     * omp_get_num_threads() - 1) read 0 and another thread ran the masked
     * block (a probe) */
    int by = -1;
    #pragma omp parallel masked default(none) shared(by) filter(omp_get_num_threads() - 1)
    by = omp_get_thread_num();
    printf("masked by %d\n", by);

    /* cancellation (active with OMP_CANCELLATION=true) */
    int found = -1;
    #pragma omp parallel for shared(found)
    for (i = 0; i < N; i++) {
        if (i == 17) {
            #pragma omp atomic write
            found = i;
            #pragma omp cancel for
        }
        #pragma omp cancellation point for
    }
    int ran = 0;
    #pragma omp parallel shared(ran)
    {
        #pragma omp atomic
        ran++;
        #pragma omp cancel parallel if(ran > 0)
        #pragma omp barrier
    }
    printf("found %d, ran %s\n", found, ran > 0 ? "yes" : "no");
    return 0;
}
