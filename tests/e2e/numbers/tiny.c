/* A million tiny updates per thread inside one parallel region, as the force
 * loop of a molecular-dynamics code does them: "atomic" or "critical" (first
 * argument), and the count (second). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int critical = argc > 1 && strcmp(argv[1], "critical") == 0;
    long n = argc > 2 ? atol(argv[2]) : 1000000, sum = 0;
#pragma omp parallel num_threads(2)
    {
        double local = 0;
        for (long i = 0; i < n; i++) {
            local += (double)(i % 13) * 0.5; /* the work around each update */
            if (critical) {
#pragma omp critical
                sum += i & 7;
            } else {
#pragma omp atomic
                sum += i & 7;
            }
        }
        if (local < 0)
            printf("%f\n", local);
    }
    printf("%ld\n", sum);
    return 0;
}
