/* A program whose own variables have the names the instrumentation gives the
 * variables it declares around a construct (pomp_fc_<region>, pomp_task_<r>,
 * pomp_num_threads_<r>, pomp_if_<r>): they must not hide the program's inside
 * the construct, so the program computes what its plain build computes. */
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
    printf("x=%d y=%d z=%d\n", x, y, z);
    return 0;
}
