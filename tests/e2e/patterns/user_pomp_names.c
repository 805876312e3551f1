/* A program whose own variables have the names the instrumentation gives the
 * variables it declares around a construct (pomp_fc_<region>, pomp_task_<r>,
 * pomp_num_threads_<r>, pomp_if_<r>) and the temporaries of a lock call's
 * macro (pomp_l_: the program's lock pointer was the uninitialized temporary
 * itself, a crash) and of a user region's values (pomp_v_: its address was
 * recorded): they must not hide the program's inside the construct, so
 * the program computes what its plain build computes. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int pomp_fc_0 = 5, pomp_fc_1 = 6, pomp_fc_2 = 7, pomp_task_0 = 11, pomp_task_1 = 12,
        pomp_task_2 = 13, pomp_num_threads_0 = 2, pomp_num_threads_1 = 2, pomp_num_threads_2 = 2,
        pomp_if_0 = 1, pomp_if_1 = 1, pomp_if_2 = 1;
    int x = 0, y = 0, z = 0;
#pragma omp critical /* P_CRITICAL */
    x += pomp_fc_0 + pomp_fc_1 + pomp_fc_2;
#pragma omp parallel num_threads(1)
#pragma omp single
#pragma omp task shared(y) /* P_TASK */
    y += pomp_task_0 + pomp_task_1 + pomp_task_2 + pomp_fc_0 + pomp_fc_1 + pomp_fc_2;
#pragma omp parallel reduction(+:z) /* P_PARALLEL */ \
    num_threads(pomp_num_threads_0 + pomp_num_threads_1 - pomp_num_threads_2) \
    if (pomp_if_0 + pomp_if_1 + pomp_if_2)
    z += 1;
    omp_lock_t lock;
    omp_lock_t *pomp_l_ = &lock;
    omp_init_lock(pomp_l_);
    omp_set_lock(pomp_l_); /* P_LOCK */
    x += 1;
    omp_unset_lock(pomp_l_);
    omp_destroy_lock(pomp_l_);
    long pomp_v_ = 42; /* a user region's value named as the values' array was */
#pragma pomp userregion start(named : pomp_v_)
    x += 0;
#pragma pomp userregion stop(named)
    printf("x=%d y=%d z=%d\n", x, y, z);
    return 0;
}
