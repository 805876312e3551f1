/* The waits written in an untied task that may resume on another thread
 * (a task scheduling point in its body): Clang splits its body there, and
 * libomp may run each part on another thread, so no construct in it gets
 * events that could straddle two threads. The taskgroup had its begin and
 * end (2 unmatched ends on Clang, its 20 ms block read 0.015 ms); now the
 * runtime's events measure its wait, as the taskwait's. A taskloop's tasks
 * are named by no event there: the run is not rated (their work read as the
 * taskgroup's wait, 0.3 % parallel efficiency for about 85). */
#include <omp.h>
#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void spin(double s)
{
    double end = now() + s;
    while (now() < end)
        ;
}

static int done, iterations;

int main(void)
{
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp task untied
    {
        done = 0; /* (clang 19 crashes on an untied task that starts with a taskgroup, and at -O0 on its taskloop) */
#pragma omp taskgroup /* P_UNTIED_TASKGROUP */
        {
#pragma omp task
            {
                spin(0.030);
#pragma omp atomic
                done++;
            }
            spin(0.010);
        }
#ifdef WITH_TASKLOOP
#pragma omp taskloop grainsize(1)
        for (int i = 0; i < 4; i++) {
            spin(0.002);
#pragma omp atomic
            iterations++;
        }
#endif
#pragma omp taskwait
    }
    printf("done=%d iterations=%d\n", done, iterations);
    return 0;
}
