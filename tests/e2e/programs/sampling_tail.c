/* Known idle time after the last join: a parallel region of 2 threads that
 * each work 100 ms, then 300 ms of serial code on the initial thread while
 * the worker waits for work. At 1 ms the worker's 300 samples of that tail
 * are idle (<OMP-idle>), in no region: its closing barrier took ~0 ms. */
#include <stdio.h>
#include "../numbers/work.h"

int main(void)
{
    double s = 0;
#pragma omp parallel num_threads(2) reduction(+:s)
    s += work(100);
    s += work(300);
    printf("%d\n", s > 0);
    return 0;
}
