/* Target offloading with known data movement (test_device.sh, test_device_gpu.sh):
 * N doubles (8*N bytes) of a go to the device at the start of the target data
 * region and b comes back at its end and once more by target update; c goes
 * to the device by target enter data and back by target exit data. */
#include <stdio.h>
#include <stdlib.h>

#define N 100000
#define M 5000

int main(void)
{
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(M * sizeof *c);
    if (!a || !b || !c)
        return 1;
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 0;
    }
    for (int i = 0; i < M; i++)
        c[i] = 1;
    #pragma omp target data map(to: a[0:N]) map(from: b[0:N]) device(0)
    {
        #pragma omp target teams distribute parallel for num_teams(2)
        for (int i = 0; i < N; i++) /* @kernel */
            b[i] = 2 * a[i];
        #pragma omp target update from(b[0:N])
        printf("b[N-1] after update: %.0f\n", b[N - 1]);
    }
    #pragma omp target enter data map(to: c[0:M])
    #pragma omp target teams distribute parallel for num_teams(2)
    for (int i = 0; i < M; i++) /* @kernel2 */
        c[i] += i;
    #pragma omp target exit data map(from: c[0:M])
    double s = 0;
    for (int i = 0; i < N; i++)
        s += b[i];
    for (int i = 0; i < M; i++)
        s += c[i];
    printf("sum=%.0f\n", s);
    free(a);
    free(b);
    free(c);
    return 0;
}
