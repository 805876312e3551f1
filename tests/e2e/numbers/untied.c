/* A recursive tree of untied tasks with a taskwait and a cutoff, in the style
 * of the untied variants of the BOTS codes: each task works WORK_MS, makes its
 * two children (none at the cutoff, depth 1), waits for them, and works
 * WORK_MS again. The body holds a task scheduling point (its taskwait), so
 * pompcc leaves it without begin/end events and the runtime's events measure
 * its executions; Clang's code on libomp may go on with a task on another
 * thread after its taskwait. Each task's work is wall-clock time, so the
 * profile's figures have known lower bounds. One thread grows TREES trees
 * of the depth given (default 7), TREES * (2^depth - 1) tasks, which the
 * team runs. Prints the tasks run
 * and how many ended on another thread than they started on. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "work.h"

#define WORK_MS 0.5
#define TREES 2

static int ran, moved;
static double sink;

static void tree(int depth)
{
#pragma omp task untied firstprivate(depth)
    {
        int start = omp_get_thread_num();
        double x = work(WORK_MS);
        if (depth > 1) {
            tree(depth - 1);
            tree(depth - 1);
#pragma omp taskwait
        }
        x += work(WORK_MS);
#pragma omp atomic
        sink += x;
#pragma omp atomic
        ran++;
        if (omp_get_thread_num() != start) {
#pragma omp atomic
            moved++;
        }
    }
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 7;
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < TREES; t++)
        tree(depth); /* the single's barrier waits for them */
    printf("untied tasks run: %d, moved: %d\n", ran, moved);
    return 0;
}
