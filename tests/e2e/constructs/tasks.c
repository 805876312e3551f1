/* Tasking constructs of OpenMP 5.2 (tests/e2e/test_constructs_tasks.sh): task
 * (recursive, with dependences, untied, deferred into a barrier), taskwait with
 * and without depend, taskgroup, taskyield, taskloop, taskloop simd and the
 * combined masked/master taskloop forms. The output does not depend on the
 * number of threads. */
#include <stdio.h>

static int fib(int n)
{
    int x, y;
    if (n < 2)
        return n;
    #pragma omp task shared(x) firstprivate(n) // @task_fib1
    x = fib(n - 1);
    #pragma omp task shared(y) // @task_fib2
    y = fib(n - 2);
    #pragma omp taskwait // @taskwait_fib
    return x + y;
}

int main(void)
{
    int r = 0, a = 0, b = 0, sum = 0, lsum = 0, msum = 0, u1 = 0, u2 = 0, u3 = 0, deferred = 0;
    long ssum = 0;

    #pragma omp parallel // @par1
    {
        #pragma omp single // @single1
        r = fib(10);
    }

    #pragma omp parallel // @par2
    #pragma omp single // @single2
    {
        #pragma omp task depend(out: a) shared(a) // @t_out
        a = 1;
        #pragma omp task depend(in: a) depend(out: b) shared(a, b) // @t_in
        b = a + 1;
        #pragma omp taskwait depend(in: b) // @tw_dep
        #pragma omp taskgroup // @tg
        {
            for (int i = 0; i < 8; i++) {
                #pragma omp task firstprivate(i) shared(sum) // @t_loop
                {
                    #pragma omp atomic // @t_atomic
                    sum += i;
                }
            }
            #pragma omp taskyield // @ty
        }
    }

    #pragma omp parallel // @par3
    {
        #pragma omp master taskloop grainsize(4) // @mtl
        for (int i = 0; i < 32; i++) {
            #pragma omp atomic // @tl_atomic
            lsum += i;
        }
        #pragma omp single // @single3
        {
            #pragma omp taskloop simd num_tasks(2) reduction(+: ssum) // @tls
            for (int i = 0; i < 32; i++)
                ssum += 2 * i;
        }
    }
    #pragma omp parallel masked taskloop shared(msum) // @pmtl
    for (int i = 0; i < 16; i++) {
        #pragma omp atomic // @pmtl_atomic
        msum += 1;
    }

    #pragma omp parallel // @par4
    #pragma omp single // @single4
    {
        #pragma omp task untied shared(u1) // @untied_plain
        u1 = 1;
        #pragma omp task untied shared(u2, u3) // @untied_parts
        {
            #pragma omp task shared(u3) // @inner
            u3 = 3;
            #pragma omp taskwait // @tw_untied
            u2 = 2;
        }
    }

    #pragma omp parallel num_threads(2) shared(deferred) // @par5
    {
        #pragma omp masked // @masked5
        {
            #pragma omp task shared(deferred) // @t_deferred
            deferred = 1;
        }
        #pragma omp barrier // @barrier5
    }
    printf("fib %d, a %d, b %d, sum %d, lsum %d, ssum %ld, msum %d, untied %d %d %d, deferred %d\n",
           r, a, b, sum, lsum, ssum, msum, u1, u2, u3, deferred);
    return 0;
}
