/* Known waits for the report: thread 1 holds a critical section for 40 ms
 * while thread 0 waits to enter it, then thread 1 works 30 ms more while
 * thread 0 waits at the barrier. */
#include <omp.h>
#include <stdio.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void spin(double ms)
{
    double t0 = now_ms();
    while (now_ms() - t0 < ms)
        ;
}

int main(void)
{
    int holding = 0, entered = 0;
    #pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1) {
            #pragma omp critical(slow)
            {
                #pragma omp atomic write
                holding = 1;
                spin(40);
                entered++;
            }
            spin(30);
        } else {
            int h = 0;
            while (!h) {
                #pragma omp atomic read
                h = holding;
            }
            #pragma omp critical(slow)
            entered++;
        }
        #pragma omp barrier
    }
    printf("entered=%d\n", entered);
    return 0;
}
