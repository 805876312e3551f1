/* Macros in directives that must be read as the compilers read them, or not
 * at all: pomp writes the directives it rewrites (a split construct, a task
 * given its id, a num_threads evaluated once) from what it read.
 * - a header's TEAM, defined differently in this file after the #include,
 *   and an X-macro header included twice: the header copies were compiled
 *   with the last definition (4 threads where the program asked for 1);
 * - __VA_OPT__: its text went into the rewritten task pragma, which Clang
 *   took without its clauses (0 hits for 8) and GCC rejected;
 * - GNU's `, ## __VA_ARGS__`: the comma goes with empty arguments (it stayed,
 *   and the loop was left out without being counted);
 * - critical(LOCK): the name the runtime knows the lock by, also where the
 *   directive's name is a macro too (CRIT(LOCK));
 * - a comment in a macro's definition is a space (it reached the directive,
 *   which was then left out as malformed);
 * - a macro whose replacement ends with a function-like macro's name takes
 *   the arguments after it (the split parallel for put num_threads on its
 *   loop, and the whole file fell back). */
#include <stdio.h>
#include "macro_defs_serial.h"
#define TEAM num_threads(4)

#define FN team_one
#undef TEAM
#define TEAM num_threads(1)
#include "macro_defs_team.inc"
#undef FN
#undef TEAM
#define FN team_four
#define TEAM num_threads(4)
#include "macro_defs_team.inc"

#define TASK_OPTS(...) __VA_OPT__(__VA_ARGS__)
#define GCOMMA(first, ...) first , ## __VA_ARGS__
#define LOCKNAME accum
#define CRIT critical
#define LOOP_OPTS schedule(dynamic, 8) /* tuned on one machine */ nowait
#define PAR_OPTS_FN(n) num_threads(n) schedule(static)
#define PAR_OPTS PAR_OPTS_FN

static int va_opt_tasks(void)
{
    int hits = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        int local = 0;
        for (int k = 0; k < 8; k++) {
#pragma omp task TASK_OPTS(shared(local))
            {
#pragma omp atomic
                local++;
            }
        }
#pragma omp taskwait
        hits = local;
    }
    return hits;
}

int main(void)
{
    static double x[1000];
    int entered = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp for GCOMMA(nowait) /* P_GCOMMA */
        for (int i = 0; i < 1000; i++)
            x[i] = i;
#pragma omp barrier
#pragma omp critical(LOCKNAME) /* P_LOCKNAME */
        entered++;
#pragma omp CRIT(LOCKNAME) /* P_CRIT */
        entered++;
#pragma omp for LOOP_OPTS /* P_COMMENTED */
        for (int i = 0; i < 1000; i++)
            x[i] += 1;
    }
#pragma omp parallel for PAR_OPTS(2) /* P_RESCAN */
    for (int i = 0; i < 1000; i++)
        x[i] -= 1;
    printf("serial=%d teams=%d,%d hits=%d entered=%d x=%g\n", serial_team(), team_one(),
           team_four(), va_opt_tasks(), entered, x[999]);
    return 0;
}
