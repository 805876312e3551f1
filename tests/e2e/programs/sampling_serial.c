/* Known serial time before the first OpenMP construct: 200 ms in
 * serial_phase on the initial thread, then a parallel region of 2 threads
 * where each spends 150 ms in parallel_phase. Of the 500 thread-ms sampled,
 * serial_phase holds 200 samples at 1 ms, parallel_phase 300 (150 per thread). */
#include <omp.h>
#include <stdio.h>
#include "../numbers/work.h"

__attribute__((noinline)) static double serial_phase(double ms)
{
    double x = work(ms);
    __asm__ volatile("" : : : "memory"); /* a call, not a tail call: a frame of its own */
    return x + 1;
}

__attribute__((noinline)) static double parallel_phase(double ms)
{
    double x = work(ms);
    __asm__ volatile("" : : : "memory");
    return x + 2; /* not the same code as serial_phase: not folded into it */
}

int main(void)
{
    double s = serial_phase(200);
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+:n)
    {
        s += 0 * parallel_phase(150);
        n++;
    }
    printf("threads %d, %d\n", n, s > 0);
    return 0;
}
