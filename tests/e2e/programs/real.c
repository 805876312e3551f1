/* Real-code pragmas: continuation lines, "# pragma" with a space, macros in
 * clauses, #if branches, threadprivate + copyin, orphaned worksharing called
 * inside and outside parallel regions, a flush busy-wait pipeline. */
#include <stdio.h>
#include <omp.h>

#define NT 2
#define CHUNK (1 + 1)
#define LIMIT 10
#define N 64

static int counter;
#pragma omp threadprivate(counter)

static double a[N];
static int singles;

/* orphaned worksharing: called inside and outside parallel regions */
static void scale(double f)
{
    int i;
    #pragma omp for schedule(static, CHUNK)
    for (i = 0; i < N; i++)
        a[i] *= f;
    #pragma omp single
    singles++;
}

int main(void)
{
    int i, flag = 0, data = 0, got = -1, counter_of_1 = -1;
    for (i = 0; i < N; i++)
        a[i] = i;
    counter = 7;
    #pragma omp parallel num_threads(NT) copyin(counter) \
                         if(N > LIMIT) \
                         shared(a)
    {
        counter += 10 * omp_get_thread_num();
        scale(2.0);
        if (omp_get_thread_num() == 1)
            counter_of_1 = counter;
    }
    scale(0.5);
    # pragma omp parallel for schedule(dynamic, CHUNK) num_threads(NT) // a comment that \
       goes on: a backslash joins the lines before the comment is taken out
    for (i = 0; i < N; i++)
        a[i] += 1;
#if defined(_OPENMP) && LIMIT > 5
    #pragma omp parallel num_threads(2) shared(flag, data, got)
    {
        if (omp_get_thread_num() == 0) {
            data = 42;
            #pragma omp flush(data)
            flag = 1;
            #pragma omp flush(flag)
        } else {
            int ready = 0;
            while (!ready) {
                #pragma omp flush(flag)
                ready = flag;
            }
            #pragma omp flush(data)
            got = data;
        }
    }
#else
    #pragma omp parallel
    got = 42;
#endif
    double s = 0;
    for (i = 0; i < N; i++)
        s += a[i];
    printf("s = %.1f got = %d counter = %d of thread 1 = %d singles = %d\n", s,
           omp_get_num_threads() > 0 ? got : -1, counter, counter_of_1, singles);
    return 0;
}
