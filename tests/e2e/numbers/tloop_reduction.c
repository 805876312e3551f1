/* A taskloop with a reduction (GCC registers it with the taskloop's
 * taskgroup): 40 tasks of TASK_MS each, made by one thread inside a single,
 * each adding its blocks to the sum; then a reduction taskloop without an
 * iteration (argc - 1 of them), which leaves the sum as it is. The taskloop's
 * wait for its tasks is a taskgroup wait inside it, as without the reduction
 * (on libgomp it was the taskloop's own time: 50 ms of wait read as work).
 * Prints the sum (320) and the tasks run (40). */
#include <stdio.h>

#include "work.h"

#define TASK_MS 2.0

int main(int argc, char **argv)
{
    (void)argv;
    long sum = 0;
    int ran = 0, none = argc - 1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop grainsize(8) reduction(+ : sum)
        for (int block = 0; block < 320; block++) {
            sum += 1;
            if (block % 8 == 0) {
                (void)work(TASK_MS);
#pragma omp atomic
                ran++;
            }
        }
#pragma omp taskloop reduction(+ : sum)
        for (int i = 0; i < none; i++)
            sum += 1000;
    }
    printf("sum %ld, taskloop tasks run: %d\n", sum, ran);
    return 0;
}
