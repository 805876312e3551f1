/* An undeferred task (if(0)) that depends on a deferred one: the creating
 * thread waits for the producer, which the other thread runs (40 ms each),
 * three times. That wait is the creation's, before the task begins there: a
 * "wait" child named dependences (about 3 x 38 ms when the other thread ran
 * the producers), not creation time (it read as 115 ms of creation work).
 * Prints the values and which thread ran each producer. With an argument
 * ("warm"), the consumer's construct first creates 20,000 deferred tasks that
 * add nothing (x is 0): a construct past the throttle's early rule, whose
 * undeferred creations after must still time their waits (throttled, they
 * read as the single's work; a probe). */
#include <omp.h>
#include <stdio.h>

#include "work.h"

/* The consumer: y += x once x's producer is done (deferred: 0, undeferred). */
static void consume(int deferred, int *x, int *y)
{
#pragma omp task if (deferred) depend(in : x[0]) firstprivate(x, y)
    *y += *x;
}

int main(int argc, char **argv)
{
    (void)argv;
    int deferred = argc > 10; /* 0: the consumer is undeferred */
    int warm = argc == 2 ? 20000 : 0;
    int x = 0, y = 0, by[3] = {0};
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        int me = omp_get_thread_num();
        for (int i = 0; i < warm; i++)
            consume(1, &x, &y);
#pragma omp taskwait
        for (int r = 0; r < 3; r++) {
#pragma omp task depend(out : x) shared(x, by) firstprivate(r)
            {
                by[r] = omp_get_thread_num();
                sleep_ms(40);
                x++;
            }
            sleep_ms(2); /* the other thread takes the producer */
            consume(deferred, &x, &y);
        }
        for (int r = 0; r < 3; r++)
            by[r] = by[r] != me;
    }
    printf("x %d y %d, producers run by the other thread: %d\n", x, y, by[0] + by[1] + by[2]);
    return 0;
}
