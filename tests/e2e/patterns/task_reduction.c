/* parallel for with a task reduction: split, the for keeps its own barrier
 * (no nowait beside reduction(task, ...)). */
#include <stdio.h>

int main(void)
{
    long x = 0;
    int i;
#pragma omp parallel for reduction(task, +:x) num_threads(2) /* P_TASKRED */
    for (i = 0; i < 100; i++) {
#pragma omp task in_reduction(+:x)
        x += i;
    }
    printf("%ld\n", x);
    return 0;
}
