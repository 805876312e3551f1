/* A task that waits in a taskwait for its child: the parent task works
 * PARENT ms, then waits for a child of CHILD ms (CHILD > PARENT). Either the
 * other thread runs the child while the parent's thread waits (useful time
 * PARENT + CHILD over 2 x CHILD elapsed), or the parent's thread runs it inside
 * the taskwait while the other thread waits in the barrier (PARENT + CHILD over
 * 2 x (PARENT + CHILD)): the parallel efficiency is at most
 * (PARENT + CHILD) / (2 x CHILD) either way (taskwait_split PARENT CHILD). */
#include <stdio.h>
#include <stdlib.h>
#include "work.h"

int main(int argc, char **argv)
{
    double parent = argc > 1 ? atof(argv[1]) : 10, child = argc > 2 ? atof(argv[2]) : 50;
    int done = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        {
#pragma omp task shared(done)
            {
#pragma omp task shared(done)
                {
                    spin_ms(child);
#pragma omp atomic
                    done += 1;
                }
                spin_ms(parent);
#pragma omp taskwait
                done += 10;
            }
        }
    }
    printf("done %d\n", done);
    return 0;
}
