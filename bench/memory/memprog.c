/* The program of make bench's memory figures: N rounds of a parallel region
 * with a loop, a critical section, a single and a barrier, so that every
 * thread records events for as long as the program runs.
 *
 *   memprog ROUNDS
 *
 * Prints a checksum that does not depend on the number of threads. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long rounds = argc == 2 ? atol(argv[1]) : 0;
    if (rounds < 1) {
        fprintf(stderr, "usage: %s ROUNDS (a positive number)\n", argv[0]);
        return 2;
    }
    long sum = 0, singles = 0;
    double a[256] = {0};
    for (long r = 0; r < rounds; r++) {
#pragma omp parallel
        {
#pragma omp for
            for (int i = 0; i < 256; i++)
                a[i] += i;
#pragma omp critical
            sum += 1;
#pragma omp single
            singles++;
#pragma omp barrier
        }
    }
    printf("a[255] = %.0f, singles = %ld, sum > 0: %d\n", a[255], singles, sum > 0);
    return 0;
}
