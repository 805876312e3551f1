/* A taskloop and a taskgroup with known work, in the style of a blocked
 * solver: 40 tasks of TASK_MS each (grainsize 8 over 320 blocks), made by one
 * thread inside a single; then a taskgroup whose own body works BODY_MS and
 * whose one task works TASK_MS. Each task's work is wall-clock time, so the
 * profile's figures have known lower bounds. Prints the tasks each thread ran
 * (their sum: 40). */
#include <omp.h>
#include <stdio.h>
#include "work.h"

#define TASK_MS 2.0
#define BODY_MS 30.0

int main(void)
{
    int ran[64] = {0};
    double sink = 0;
#pragma omp parallel reduction(+ : sink)
#pragma omp single
    {
#pragma omp taskloop grainsize(8)
        for (int block = 0; block < 320; block++) {
            if (block % 8 == 0) {
                sink += work(TASK_MS);
#pragma omp atomic
                ran[omp_get_thread_num() % 64]++;
            }
        }
#pragma omp taskgroup
        {
#pragma omp task
            sink += work(TASK_MS);
            sink += work(BODY_MS);
        }
    }
    int total = 0;
    for (int t = 0; t < 64; t++)
        total += ran[t];
    printf("taskloop tasks run: %d\n", total);
    return sink < 0;
}
