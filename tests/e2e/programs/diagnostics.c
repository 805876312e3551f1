/* Compiler warnings all over an instrumented file: each must name the same
 * file and line as for the plain build (pomp's inserted code shifts columns on
 * the lines where it goes before the user's code, never lines). */
#include <stdio.h>
#include <omp.h>

static int helper(int unused_param)
{
    int unused_in_helper;
    #pragma pomp userregion start(helper : \
                                  1, 2)
    int set_but_unused = 0;
    set_but_unused = 1;
    #pragma pomp userregion stop(helper)
    return 0;
}

int main(void)
{
    int n = 10, sum = 0;
    unsigned u = 3;
    #pragma omp parallel \
        reduction(+:sum) \
        shared(n)
    {
        int unused_in_region;
        #pragma omp critical
        sum += n < u;
        #pragma omp barrier
        int after_barrier;
        #pragma omp single
        {
            int in_single;
        }
        int tid = omp_get_thread_num(), unused_after_call;
        (void)tid;
    }
    #pragma omp parallel for reduction(+:sum)
    for (int i = 0; i < n; i++) {
        int in_loop;
        sum += i < u;
    }
    int after_loop;
    printf("%d %d\n", sum > 0, helper(1));
    return 0;
}
