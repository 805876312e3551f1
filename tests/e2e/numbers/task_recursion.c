/* Recursive tasks in real code's shape (tests/e2e/test_pop_metrics.sh): fib
 * with two task constructs that create each other's tasks, a cutoff and a
 * taskwait, in one parallel region; then a loop taking a lock, in another,
 * without tasks. Each construct's tasks run in the region they were created
 * in, so neither region's figures are an estimate: the two constructs'
 * mutual recursion made their binding region unknown (their waits shared by
 * task time, the row marked '~'), and 1 ns of rounding gave the lock region
 * a share of them. */
#include <omp.h>
#include <stdio.h>

#include "work.h"

static long fib(int n)
{
    if (n < 2) {
        spin_ms(0.01);
        return n;
    }
    long a, b;
#pragma omp task shared(a) if (n > 8)
    a = fib(n - 1);
#pragma omp task shared(b) if (n > 8)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    long f = 0, hits = 0;
    omp_lock_t lock;
#pragma omp parallel num_threads(2)
#pragma omp single
    f = fib(16);
    omp_init_lock(&lock);
#pragma omp parallel for num_threads(2) schedule(dynamic, 4)
    for (int i = 0; i < 400; i++) {
        omp_set_lock(&lock);
        hits++;
        omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);
    printf("%ld %ld\n", f, hits);
    printf("done\n");
    return 0;
}
