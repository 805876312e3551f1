/* A task whose execution the profile does not see (a task the filter leaves
 * out; under pomprun on libgomp with OMP_CANCELLATION, a task forwarded
 * unwrapped) waits for a child inside the taskwait that ran it. Its taskwait
 * is then inside the outer one, as a trace shows it: the single's children
 * are the outer taskwait alone, whose time holds the inner one's. The reader
 * task sleeps 20 ms, so that two waits counted side by side would be twice
 * the single's time. */
#include <stdio.h>
#include <unistd.h>

static int read_block(int block)
{
    usleep(20000); /* the I/O the stage waits for */
    return block * 3;
}

int main(void)
{
    int sum = 0, blocks = 4;
#pragma omp parallel num_threads(1)
#pragma omp single
    for (int b = 0; b < blocks; b++) {
#pragma omp task shared(sum) firstprivate(b) /* the stage */
        {
            int got = 0;
#pragma omp task shared(got) firstprivate(b) /* its reader */
            got = read_block(b);
#pragma omp taskwait /* inner */
            sum += got;
        }
#pragma omp taskwait /* outer */
    }
    printf("sum %d\n", sum);
    return 0;
}
