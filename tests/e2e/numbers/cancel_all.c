/* A taskgroup cancelled by its first task before the rest are created: a
 * task construct none of whose 10 tasks run (OpenMP discards the tasks of a
 * cancelled taskgroup). Prints how many of them ran (0 with
 * OMP_CANCELLATION=true, 10 without). */
#include <stdio.h>
#include <omp.h>

int main(void)
{
    int cancelled = 0, ran = 0;
    #pragma omp parallel num_threads(2)
    #pragma omp single
    {
        #pragma omp taskgroup
        {
            #pragma omp task shared(cancelled)
            {
                #pragma omp atomic write
                cancelled = 1;
                #pragma omp cancel taskgroup
            }
            /* the other thread runs that task; wait for it (5 s at most) */
            double until = omp_get_wtime() + 5;
            int seen = 0;
            while (!seen && omp_get_wtime() < until) {
                #pragma omp atomic read
                seen = cancelled;
            }
            for (int k = 0; k < 10; k++) {
                #pragma omp task shared(ran)
                {
                    #pragma omp atomic
                    ran++;
                }
            }
        }
    }
    printf("ran %d\n", ran);
    return 0;
}
