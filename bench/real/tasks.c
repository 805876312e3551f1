/* make bench, part 7: two kernels in the style of real OpenMP applications,
 * timed by themselves (the pompcc build's start-up and profile writing are
 * not part of the figure, as they are not part of the user's run time):
 *   fib-tasks      recursive tasks with a cutoff below which the recursion is
 *                  serial (BOTS fib, health and floorplan are built this way)
 *   dynamic-loop   an imbalanced loop, schedule(dynamic, 1), with a critical
 *                  update per iteration and a reduction
 * Usage: tasks COLUMN REP  (prints "real ROW COLUMN REP MS" per kernel). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib(int n)
{
    if (n < 20)
        return fib_serial(n);
    long a, b;
    #pragma omp task shared(a) firstprivate(n)
    a = fib(n - 1);
    #pragma omp task shared(b) firstprivate(n)
    b = fib(n - 2);
    #pragma omp taskwait
    return a + b;
}

static double cost(int i)
{
    double x = 0;
    int trips = 2000 + (i * 7919) % 20000; /* imbalanced */
    for (int k = 0; k < trips; k++)
        x += 1.0 / (k + 1.0 + i);
    return x;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s COLUMN REP\n", argv[0]);
        return 2;
    }
    double t0 = omp_get_wtime();
    long f = 0;
    #pragma omp parallel
    #pragma omp single
    f = fib(41);
    double t1 = omp_get_wtime();
    double sum = 0, best = 0;
    for (int r = 0; r < 10; r++) {
        #pragma omp parallel for schedule(dynamic, 1) reduction(+: sum)
        for (int i = 0; i < 4000; i++) {
            double c = cost(i);
            sum += c;
            if (c > best) {
                #pragma omp critical
                if (c > best)
                    best = c;
            }
        }
    }
    double t2 = omp_get_wtime();
    if (f != 165580141 || sum <= 0) {
        fprintf(stderr, "%s: wrong result %ld %f\n", argv[0], f, sum);
        return 1;
    }
    printf("real\tfib-tasks\t%s\t%s\t%.2f\n", argv[1], argv[2], (t1 - t0) * 1e3);
    printf("real\tdynamic-loop\t%s\t%s\t%.2f\n", argv[1], argv[2], (t2 - t1) * 1e3);
    return 0;
}
