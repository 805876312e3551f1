/* An OpenMP program for the example collector: forks (one of them nested),
 * an imbalanced loop (barrier waits) and a contended critical section. */
#include <omp.h>
#include <stdio.h>

static double spin(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++)
        x += (double)i * 1e-9;
    return x;
}

int main(void)
{
    double sum = 0;
    omp_set_max_active_levels(2);
    for (int r = 0; r < 3; r++) {
        #pragma omp parallel num_threads(2) reduction(+: sum)
        {
            sum += spin(omp_get_thread_num() == 0 ? 40000000 : 4000000); /* thread 1 waits */
            #pragma omp critical
            sum += spin(4000000);
        }
    }
    #pragma omp parallel num_threads(2) reduction(+: sum)
    {
        #pragma omp parallel num_threads(2) reduction(+: sum)
        sum += spin(2000000);
    }
    printf("done %d\n", sum > 0);
    return 0;
}
