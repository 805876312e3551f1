/* Run-time context values (seed 002 §3.3) and iteration events
 * (tests/e2e/test_rtc.sh): clause expressions with side effects are evaluated
 * once, loop bounds are passed when they have no side effects, section numbers,
 * and continue/break in loop bodies. The output does not depend on the number
 * of threads. */
#include <stdio.h>

#define CHUNK 2 /* a macro could expand to anything: not copied */

static int evaluations;
static int three(void) { return ++evaluations, 3; }
static int yes(void) { return ++evaluations, 1; }
static int two(void) { return ++evaluations, 2; }
static int bound(int n) { return n; }

int main(void)
{
    int n = 10, lo = 2, step = 3, c = 5, sum = 0, i, a[10], *p;
    volatile int vn = 10;
    long total = 0;

    #pragma omp parallel num_threads(three()) if(yes()) reduction(+: sum) // @par_effects
    {
        #pragma omp for // @up_step
        for (i = lo; i < n; i += step)
            sum += i;
        #pragma omp for schedule(dynamic, 4) // @down
        for (i = 10; i > 0; i--)
            sum += i;
        #pragma omp for schedule(static, c) // @le_var_chunk
        for (i = 0; i <= n; i++)
            sum += i;
        #pragma omp for schedule(guided, CHUNK) // @decl_minus
        for (int k = n - 1; k >= 0; k -= 2)
            sum += k;
        #pragma omp for // @call_bound
        for (i = 0; i < bound(n); i++)
            sum += i;
        #pragma omp for // @volatile_bound
        for (i = 0; i < vn; i++)
            sum += i;
        #pragma omp for // @ne_plus
        for (i = 0; i != n; i = 1 + i)
            sum += i;
        #pragma omp for collapse(2) // @collapse
        for (i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                sum += i * j;
        #pragma omp for // @pointer
        for (p = a; p < a + 10; p++)
            *p = 1;
        #pragma omp sections // @sections
        {
            sum += 1;
            #pragma omp section
            sum += 2;
            #pragma omp section
            sum += 3;
        }
    }
    printf("sum %d, %d evaluations\n", sum, evaluations);

    evaluations = 0;
    #pragma omp parallel if(0) // @par_if0
    sum += 1;
    #pragma omp parallel for schedule(dynamic, two()) reduction(+: total) // @pfor_chunk
    for (i = 0; i < 100; i++)
        total += i;
    printf("total %ld, %d evaluation\n", total, evaluations);

    /* iteration events: continue, and break in inner statements */
    int odd = 0, sw = 0;
    #pragma omp parallel for reduction(+: odd, sw) // @iterations
    for (i = 0; i < 12; i++) {
        if (i % 2 == 0)
            continue;
        for (int j = 0; ; j++)
            if (j == 2)
                break;
        switch (i) {
        case 3:
            sw++;
            break;
        default:
            continue;
        }
        odd += i;
    }
    long t2 = 0;
    #pragma omp parallel // @par_taskloop
    #pragma omp single
    #pragma omp taskloop grainsize(5) reduction(+: t2) // @taskloop
    for (i = 1; i <= 20; i++)
        t2 += i;
    printf("odd %d, sw %d, t2 %ld\n", odd, sw, t2);
    return 0;
}
