/* A search that stops at its first hit, as a branch-and-bound code does: one
 * thread creates a task per candidate in a taskgroup; the task that finds
 * the target cancels the taskgroup, and the tasks not yet started are
 * discarded (with OMP_CANCELLATION=true; without it every task runs). The
 * program counts the tasks it created and those that ran: the profile's
 * creations and executions must be those, and the report must say why the
 * two differ. */
#include <stdio.h>

static int score(int candidate)
{
    volatile double x = 0;
    for (int k = 0; k < 3000; k++)
        x += (candidate * 7 + k) % 13;
    return (int)x % 1000 + candidate;
}

int main(void)
{
    enum { CANDIDATES = 3000, TARGET = 40 };
    long created = 0, ran = 0;
    int hit = -1;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup
    for (int c = 0; c < CANDIDATES; c++) {
        created++;
#pragma omp task firstprivate(c) shared(ran, hit)
        {
            __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
            if (score(c) >= 0 && c == TARGET) {
                __atomic_store_n(&hit, c, __ATOMIC_RELAXED);
#pragma omp cancel taskgroup
            }
        }
    }
    printf("hit %d\ncreated %ld\nran %ld\n", hit, created, ran);
    return 0;
}
