/* parallel, an orphaned for, named critical, single and barrier (work.c), and a
 * parallel for with a reduction; the printed results do not depend on the
 * number of threads. */
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

#define N 1000
#define REPEAT 3

int main(void)
{
    double *a = malloc(N * sizeof *a);
    double sum = 0.0;
    int singles = 0;
    long total = 0;
    int r, i;

    if (!a)
        return 1;
    for (r = 0; r < REPEAT; r++) {
        #pragma omp parallel
        {
            work(N, a, &sum, &singles);
        }
    }

    #pragma omp parallel for reduction(+:total) schedule(dynamic, 10)
    for (i = 0; i < N; i++)
        total += i;

    printf("sum = %.1f\n", sum);
    printf("singles = %d\n", singles);
    printf("total = %ld\n", total);
    free(a);
    return 0;
}
