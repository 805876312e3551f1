/* Known split: thread 0 works 300 ms while thread 1 waits at a barrier, then
 * thread 0 holds a lock for 300 ms while thread 1 waits for it. */
#include <omp.h>
#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) static void spin(double seconds)
{
    double end = now() + seconds;
    while (now() < end)
        ;
}

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
    int have_lock = 0;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0)
            spin(0.3);
#pragma omp barrier
        if (omp_get_thread_num() == 0) {
            omp_set_lock(&lock);
#pragma omp atomic write
            have_lock = 1;
            spin(0.3);
            omp_unset_lock(&lock);
        } else {
            int seen = 0;
            while (!seen) {
#pragma omp atomic read
                seen = have_lock;
            }
            omp_set_lock(&lock);
            omp_unset_lock(&lock);
        }
    }
    omp_destroy_lock(&lock);
    printf("done\n");
    return 0;
}
