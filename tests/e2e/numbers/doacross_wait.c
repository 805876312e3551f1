/* A doacross loop made serial by its dependences: 4 iterations of 20 ms,
 * schedule(static,1) on 2 threads, each iteration waiting for the one before
 * (ordered depend(sink: i - 1)). Thread 1 waits 20 ms for iteration 0, thread
 * 0 then 20 ms for iteration 1, thread 1 20 ms for iteration 2: about 60 ms
 * of doacross wait in all, an ordered wait (it read as the loop's work). */
#include <stdio.h>

#include "work.h"

int main(void)
{
    int order[4], next = 0;
    double waited = 0; /* the program's own measure of the waits (a thread that
                          starts late makes the other wait longer than 60 ms) */
#pragma omp parallel num_threads(2) reduction(+ : waited)
#pragma omp for ordered(1) schedule(static, 1)
    for (int i = 0; i < 4; i++) {
        double t0 = now_ms();
#pragma omp ordered depend(sink : i - 1)
        waited += now_ms() - t0;
        sleep_ms(20);
#pragma omp atomic capture
        order[i] = next++;
#pragma omp ordered depend(source)
    }
    printf("order %d %d %d %d\n", order[0], order[1], order[2], order[3]);
    printf("waited %.1f ms\n", waited);
    printf("done\n");
    return 0;
}
