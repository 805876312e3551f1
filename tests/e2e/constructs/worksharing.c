/* Worksharing and synchronization constructs of OpenMP 5.2 (tests/e2e/test_constructs.sh).
 * The output does not depend on the number of threads. */
#include <stdio.h>

#define N 64

static int square(int x) { return x * x; }

int main(void)
{
    int a[N], sec[4] = {0, 0, 0, 0}, total = 0, flag = 0, seen = 0, team = 0;
    long sum = 0;
    int i;

    #pragma omp parallel shared(a, sec, total) // @par1
    {
        #pragma omp sections // @sections
        {
            sec[0] = 1;           /* the first section, without its directive */
            #pragma omp section // @sec2
            sec[1] = 2;
            #pragma omp section
            {
                sec[2] = 3;
            }
        }
        int mine;
        #pragma omp single copyprivate(mine) // @single
        mine = 42;
        #pragma omp atomic // @atomic1
        total += mine;
        #pragma omp master // @master
        {
            flag = 1;
        }
        #pragma omp masked filter(0) // @masked
        seen += 1;
        #pragma omp barrier // @barrier
        #pragma omp scope // @scope
        {
            #pragma omp atomic // @atomic2
            team += 1;
        }
        #pragma omp for ordered schedule(dynamic, 4) // @for_ordered
        for (i = 0; i < N; i++) {
            a[i] = square(i);
            #pragma omp ordered // @ordered
            sum += a[i];
        }
        #pragma omp critical // @critical
        {
            if (!flag)
                flag = 2;
        }
        #pragma omp flush(flag) // @flush
        #pragma omp cancellation point parallel // @cancelpoint
    }
    printf("sections %d %d %d, flag %d, seen %d, sum %ld\n", sec[0], sec[1], sec[2], flag, seen, sum);
    printf("total is 42 per thread: %s\n", total == 42 * team ? "yes" : "no");
    total = 0;

    /* combined forms */
    #pragma omp parallel sections reduction(+: total) num_threads(2) // @parsections
    {
        #pragma omp section
        total += 100;
        #pragma omp section
        total += 200;
    }
    int b[N], c[N];
    #pragma omp parallel for simd // @parforsimd
    for (i = 0; i < N; i++)
        b[i] = 2 * i;
    #pragma omp parallel loop // @parloop
    for (i = 0; i < N; i++)
        c[i] = b[i] + 1;
    long s2 = 0;
    #pragma omp parallel // @par2
    {
        #pragma omp for simd reduction(+: s2) // @forsimd
        for (int k = 0; k < N; k++)
            s2 += c[k];
        #pragma omp for // @for2
        for (int k = 0; k < N; k++) {
            #pragma omp simd // @simd
            for (int j = 0; j < 4; j++)
                c[k] += j;
        }
        #pragma omp loop // @loop
        for (int k = 0; k < N; k++)
            b[k] -= 1;
    }
    int x = 0, v = 0, hits = 0;
    #pragma omp parallel masked // @parmasked
    hits += 10;
    #pragma omp parallel master // @parmaster
    hits += 5;
    #pragma omp parallel num_threads(3) // @par3
    {
        #pragma omp atomic read // @aread
        v = x;
        #pragma omp atomic write // @awrite
        x = 5;
        #pragma omp atomic update // @aupdate
        x += 1;
        #pragma omp atomic capture // @acapture
        { v = x; x++; }
        #pragma omp atomic compare // @acompare
        if (x < 100) { x = 100; }
        #pragma omp atomic capture compare // @acmpcap
        { v = x; if (x < 50) { x = 50; } }
    }
    /* x ends in 100..106: a thread may update x after another's compare set it */
    printf("total %d, s2 %ld, c[5] %d, b[3] %d, hits %d, x >= 100: %d\n", total, s2, c[5], b[3], hits,
           x >= 100);
    return 0;
}
