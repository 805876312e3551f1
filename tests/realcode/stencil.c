/* A Jacobi stencil written with _Pragma macros, as codes that build their
 * OpenMP through macros do: object-like macros whose body is a _Pragma, and
 * _Pragma written directly. */
#include <stdio.h>
#define OMP_PFOR _Pragma("omp parallel for schedule(static)")
#define OMP_CRIT _Pragma("omp critical")
#define N 64
int main(void)
{
    static double a[N][N], b[N][N];
    double sum = 0;
    int i, it;
    for (i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            a[i][j] = (i * 7 + j * 3) % 11;
    for (it = 0; it < 10; it++) {
        OMP_PFOR
        for (i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
        OMP_PFOR
        for (i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                a[i][j] = b[i][j];
    }
    _Pragma("omp parallel")
    {
        double local = 0;
        _Pragma("omp for")
        for (i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                local += a[i][j];
        OMP_CRIT
        sum += local;
    }
    printf("%.6f\n", sum);
    return 0;
}
