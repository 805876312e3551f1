/* Pragmas followed by preprocessor conditionals, and a pragma chosen by
 * #ifdef/#else: each construct is instrumented in the branch the compiler takes. */
#include <stdio.h>

int main(void)
{
    int x = 0, s = 0, t = 0, i, n = 1000;
#pragma omp parallel num_threads(2) /* P_IF1 */
#if 1
    x = 1;
#endif
#pragma omp parallel for reduction(+:s) /* P_LOOPHDR */
#ifdef _OPENMP
    for (i = 0; i < n; i++)
#else
    for (i = n - 1; i >= 0; i--)
#endif
        s += i;
#ifdef USE_STATIC
#pragma omp parallel for schedule(static) reduction(+:t) /* P_STATIC */
#else
#pragma omp parallel for schedule(dynamic, 7) reduction(+:t) /* P_DYNAMIC */
#endif
    for (i = 0; i < n; i++)
        t += i % 7;
#pragma omp parallel num_threads(2) /* P_SINGLE */
    {
#pragma omp single /* P_CUTOFF */
#if defined(CUTOFF)
        t += CUTOFF;
#else
        t += 1;
#endif
    }
    printf("%d %d %d\n", x, s, t);
    return 0;
}
