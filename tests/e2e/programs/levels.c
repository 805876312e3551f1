/* Compile-time instrumentation levels: #pragma pomp inst <group> <level>
 * before a function and before a construct, and OPARI2's noinstrument. */
#include <stdio.h>

static int sq(int x) { return x * x; }

#pragma pomp inst loop none
static int sum(int n)
{
    int s = 0;
    #pragma omp parallel for reduction(+:s)
    for (int i = 0; i < n; i++)
        s += sq(i);
    return s;
}

int main(void)
{
    int s = 0;
    #pragma pomp inst parallel none
    #pragma omp parallel for reduction(+:s)
    for (int i = 0; i < 10; i++)
        s += i;
    #pragma omp parallel
    {
        #pragma pomp noinstrument
        #pragma omp critical
        s++;
        #pragma pomp instrument
        #pragma omp barrier
    }
    printf("%d %d\n", s > 45, sum(10));
    return 0;
}
