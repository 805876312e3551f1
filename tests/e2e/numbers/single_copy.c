/* single copyprivate: one thread runs the block (30 ms, as reading input it
 * then broadcasts), the others wait for it to copy its value. Three times,
 * on 2 threads: about 90 ms of waiting in all, which the program measures
 * itself and prints on stderr (ms). On libgomp the waiting threads are in
 * GOMP_single_copy_start, where the wait was lost (0.4 ms of 90). */
#include <omp.h>
#include <stdio.h>
#include <time.h>

#include "work.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void)
{
    int x = 0;
    double waited[2] = {0, 0};
#pragma omp parallel num_threads(2) firstprivate(x)
    {
        for (int r = 0; r < 3; r++) {
            double start = now_s();
            int executed = 0;
#pragma omp single copyprivate(x)
            {
                x = r + 1;
                sleep_ms(30);
                executed = 1;
            }
            if (!executed)
                waited[omp_get_thread_num()] += now_s() - start;
        }
        if (x != 3)
            printf("wrong copy %d\n", x);
    }
    printf("done\n");
    fprintf(stderr, "%.3f\n", (waited[0] + waited[1]) * 1e3);
    return 0;
}
