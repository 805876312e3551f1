/* A macro that expands to two statements as a parallel region's body: the
 * construct is left alone (its body ends inside the expansion), the program
 * computes what the plain build computes, the rest is instrumented. A
 * _Pragma in a macro argument is instrumented where the argument is written;
 * one in a macro's body (HIT) is not, and each invocation is counted as a
 * construct left alone. */
#include <stdio.h>
#define STEP s2 += 1; s3 += 1
#define DO(x) x
#define BUMP(v) v = v + 1;
#define HIT(c) do { _Pragma("omp atomic") (c)++; } while (0)

int main(void)
{
    int s2 = 0, s3 = 0, n = 0, m = 0, h = 0;
#pragma omp parallel num_threads(2) reduction(+:s2,s3) /* P_STEP */
    STEP;
#pragma omp parallel num_threads(2) /* P_DO */
    {
        DO(_Pragma("omp atomic") n++;) /* P_ATOMIC */
#pragma omp critical /* P_BUMP */
        BUMP(m)
        HIT(h);
        HIT(h);
    }
    printf("%d %d %d %d %d\n", s2, s3, n, m, h);
    return 0;
}
