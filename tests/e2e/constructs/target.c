/* Device and league constructs of OpenMP 5.2 (tests/e2e/test_constructs_target.sh):
 * target, target data, target enter/exit data, target update and a combined
 * target construct, instrumented on the host side only; host teams with
 * distribute and the combined teams forms; doacross ordered; a declare target
 * function. Without an offload device the target regions run on the host, which
 * must not change what is recorded. */
#include <stdio.h>

#define N 64

#pragma omp declare target // @decl
static int triple(int x)
{
    int r = 0;
    #pragma omp parallel for reduction(+: r) // @in_declare_target
    for (int k = 0; k < 3; k++)
        r += x;
    return r;
}
#pragma omp end declare target

int main(void)
{
    int a[N], b[N], d[N], s = 0, t = 0, tsum = 0, t2 = 0, t3 = 0, i;
    for (i = 0; i < N; i++)
        a[i] = i;

    #pragma omp target data map(to: a) map(from: b) // @tdata
    {
        #pragma omp target // @target
        for (int k = 0; k < N; k++)
            b[k] = 2 * a[k];
        #pragma omp target update from(b) // @tupdate
    }
    #pragma omp target enter data map(to: a) // @tenter
    #pragma omp target teams distribute parallel for simd reduction(+: s) // @ttdpfs
    for (i = 0; i < N; i++)
        s += a[i];
    #pragma omp target exit data map(delete: a) // @texit

    #pragma omp target map(tofrom: t) // @target2
    {
        #pragma omp parallel for reduction(+: t) // @in_target
        for (int k = 0; k < N; k++)
            t += triple(k);
    }

    #pragma omp teams num_teams(2) reduction(+: tsum) // @teams
    {
        #pragma omp distribute // @distribute
        for (int k = 0; k < N; k++)
            tsum += k;
    }
    #pragma omp teams distribute parallel for num_teams(2) reduction(+: t2) // @tdpf
    for (i = 0; i < N; i++)
        t2 += i;
    #pragma omp teams loop num_teams(2) reduction(+: t3) // @tloop
    for (i = 0; i < N; i++)
        t3 += 2;

    d[0] = 1;
    #pragma omp parallel for ordered(1) // @doacross
    for (i = 1; i < N; i++) {
        #pragma omp ordered depend(sink: i - 1) // @sink
        d[i] = d[i - 1] + 1;
        #pragma omp ordered depend(source) // @source
    }
    printf("b %d, s %d, t %d, tsum %d, t2 %d, t3 %d, d %d\n", b[N - 1], s, t, tsum, t2, t3, d[N - 1]);
    return 0;
}
