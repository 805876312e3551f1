/* Function-like macros after a construct. TWO's expansion is two statements,
 * of which only the first belongs to the construct: pomp cannot put one
 * inside the construct's calls without the other, so it leaves the construct
 * alone (the runtime's events measure it) instead of changing what runs on
 * every thread. The others expand to one statement (or one block) and are
 * instrumented. The program prints what the plain build prints. A pragma a
 * macro makes from its argument (_Pragma(#x)) is left alone and counted. */
#include <stdio.h>
#define TWO(x, y) x += 1; y += 1
#define TWO_MORE(x) x += 1; mine += 1
#define INC(x) x += 1
#define BODY { a += 1; b += 1; }
#define SWAP(p, q) do { long t_ = p; p = q; q = t_; } while (0)
#define EACH(i, n) for (i = 0; i < n; i++)
#define ADD(a, b) a += b               /* one statement that starts with an argument */
#define MAX(a, b) a = a > b ? a : b
#define PRAGMA(x) _Pragma(#x) /* a stringized pragma: instrumented where invoked */
#define OMP_ATOMIC PRAGMA(omp atomic) /* the same, one macro further */

int main(void)
{
    long s = 0, t = 0, m = 0, n = 0, a = 0, b = 0, x = 1, y = 2, c = 0, d = 0, u = 0;
    /* u: 1 from INC in a single, 2 from each atomic on both threads */
    long arr[8] = {0}, brr[8] = {0}, v = 0, w = 0;
    int i;
#pragma omp parallel num_threads(2) reduction(+:t)
    {
        long mine = 0; /* each thread's: the statements after the first run on every thread */
#pragma omp single /* P_TWO */
        TWO(s, mine);
#pragma omp master /* P_TWO_MORE */
        TWO_MORE(m);
        t += mine;
#pragma omp barrier
#pragma omp single /* P_INC */
        INC(u);
#pragma omp single /* P_BODY */
        BODY
#pragma omp critical /* P_SWAP */
        SWAP(x, y);
#pragma omp for /* P_EACH */
        EACH(i, 8) arr[i] += i;
#pragma omp single /* P_BLOCK */
        { TWO(c, d); }
#pragma omp for /* P_FORBLOCK */
        for (int k = 0; k < 8; k++) { TWO(arr[k], brr[k]); }
        PRAGMA(omp atomic) /* P_PRAGMA_ATOMIC */
        u += 1;
        OMP_ATOMIC /* P_OMP_ATOMIC */
        u += 1;
#pragma omp critical /* P_ADD */
        ADD(v, 2);
#pragma omp critical /* P_MAX */
        MAX(w, 5);
    }
    n = t; /* t: 2 (one per thread, from each macro) */
    printf("%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", s, t, m, n, u, a, b, x, y, c,
           d, arr[3] + brr[3], v, w);
    return 0;
}
