/* A critical reached once in 50 iterations of a user region that is
 * throttled (200,000 executions a thread): the critical is not throttled
 * itself, but 8,000 of its executions run inside the region's untimed ones
 * (test_throttle.sh, test_report_html.sh). Prints 8000. */
#include <stdio.h>
int main(void)
{
    long s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    for (int i = 0; i < 200000; i++) {
#pragma pomp inst begin(tiny)
        if (i % 50 == 0)
#pragma omp critical
            s++;
#pragma pomp inst end(tiny)
    }
    printf("%ld\n", s);
    return 0;
}
