/* Runtime API call sites: lock routines (Tables 6, 7) and the routines of
 * Table 8, in a default(none) region, nested in other calls, under sizeof,
 * inside a macro, and in a function where a compile-time level turns them off. */
#include <stdio.h>
#include <omp.h>

static omp_lock_t lock;
static omp_nest_lock_t nest;
#define GRAB(l) omp_set_lock(l)

#pragma pomp inst runtime none
static int quiet(void)
{
    omp_set_lock(&lock);
    omp_unset_lock(&lock);
    return omp_get_thread_num();
}

int main(void)
{
    int sum = 0, tried = 0, sz = (int)sizeof(omp_get_thread_num());
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
    omp_set_num_threads(omp_get_max_threads() > 3 ? 3 : omp_get_max_threads());
    omp_set_dynamic(0);
    #pragma omp parallel default(none) shared(sum, tried, lock, nest)
    {
        int me = omp_get_thread_num();
        omp_set_lock(&lock);
        sum += me;
        omp_unset_lock(&lock);
        if (omp_test_lock(&lock)) {
            tried++;
            omp_unset_lock(&lock);
        }
        omp_set_nest_lock(&nest);
        omp_set_nest_lock(&nest);
        if (omp_in_parallel() && omp_get_num_threads() > 0)
            sum += 0;
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
        GRAB(&lock);
        omp_unset_lock(&lock);
    }
    sum += quiet();
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    printf("sum=%d dynamic=%d procs=%d sz=%d tried=%d\n", sum, omp_get_dynamic(),
           omp_get_num_procs() > 0, sz, tried >= 0);
    return 0;
}
