/* Four undeferred tasks (if(0)) of 20 ms each, created by one thread: each
 * runs at once inside its creation. Known answer: 80 ms of task executions,
 * next to nothing to create them. */
#include <stdio.h>

#include "work.h"

int main(void)
{
    double x = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int i = 0; i < 4; i++) {
#pragma omp task if (0) shared(x)
        x += work(20);
    }
    printf("done %d\n", x >= 0);
    return 0;
}
