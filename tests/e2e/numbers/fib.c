/* Recursive Fibonacci with tasks, a taskwait and a cutoff, in the style of the
 * BOTS/KASTORS codes: below the cutoff the recursion runs serially. */
#include <stdio.h>
#include <stdlib.h>

#ifndef CUTOFF
#define CUTOFF 12
#endif

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib(int n)
{
    if (n < CUTOFF)
        return fib_serial(n);
    long x, y;
#pragma omp task shared(x) firstprivate(n)
    x = fib(n - 1);
#pragma omp task shared(y) firstprivate(n)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 24;
    long r = 0;
#pragma omp parallel
    {
#pragma omp single
        r = fib(n);
    }
    printf("fib(%d) = %ld\n", n, r);
    return 0;
}
