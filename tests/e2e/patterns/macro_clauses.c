/* Directives whose names and clauses come from macros, as real codes write
 * them: a task's flags chosen at build time, a schedule with its chunk, a
 * combined construct behind a name, a reduction behind a function-like
 * macro, a clause name pasted with ##. GCC and Clang replace the macros after
 * `#pragma omp`, and pomp reads the directive as they do. It read the macro's
 * name: the untied task (a task scheduling point in its body) got begin/end
 * events, which are unmatched where Clang's libomp resumes it on another
 * thread; PAR_FOR was an unknown directive, left alone and not counted; and
 * with explicit barriers LOOP_NOWAIT got a second nowait, which the compilers
 * reject. */
#include <stdio.h>

#define TASK_FLAGS untied
#define PAR_FOR parallel for
#define LOOP_NOWAIT nowait
#define SCHED(kind, chunk) schedule(kind, chunk)
#define SUM_INTO(v) reduction(+ : v)
#define CLAUSE(c) c
#define GLUE(a, b) a##b

/* The nodes of a binary tree of the given depth, counted by tasks. */
static long count_nodes(int depth)
{
    long left = 0, right = 0;
    if (depth == 0)
        return 1;
#pragma omp task shared(left, right) TASK_FLAGS /* P_UNTIED */
    {
#pragma omp task shared(right)
        right = count_nodes(depth - 1);
        left = count_nodes(depth - 1);
#pragma omp taskwait /* P_UNTIED_WAIT */
    }
#pragma omp taskwait
    return 1 + left + right;
}

int main(void)
{
    long nodes = 0, sum = 0, total = 0;
    static double x[4096];
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        nodes = count_nodes(9);
#pragma omp for LOOP_NOWAIT SCHED(dynamic, 64) /* P_LOOP_NW */
        for (int i = 0; i < 4096; i++)
            x[i] = i;
#pragma omp barrier
#pragma omp for CLAUSE(SUM_INTO(sum)) /* P_NESTED */
        for (int i = 0; i < 4096; i++)
            sum += (long)x[i];
    }
#pragma omp PAR_FOR GLUE(num_, threads)(2) SUM_INTO(total) /* P_COMBINED */
    for (int i = 0; i < 1000; i++)
        total += i;
    printf("%ld %ld %ld\n", nodes, sum, total);
    return 0;
}
