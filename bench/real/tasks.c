/* make bench, part 7: kernels in the style of real OpenMP applications,
 * timed by themselves (the pompcc build's start-up and profile writing are
 * not part of the figure, as they are not part of the user's run time):
 *   fib-tasks      recursive tasks with a cutoff below which the recursion is
 *                  serial (BOTS fib, health and floorplan are built this way)
 *   dynamic-loop   an imbalanced loop, schedule(dynamic, 1), with a critical
 *                  update per iteration and a reduction
 *   md-forces      a molecular-dynamics pair loop: the forces on the partner
 *                  added with two atomics (about 3.4 million each; a row's own
 *                  once per row, atomic too, since other rows update it), the
 *                  energy a reduction (the shape that once made pomp 3x slower,
 *                  issue 16)
 *   nqueens-tasks  BOTS-style N-queens: an untied task per column tried, a
 *                  final cutoff below which tasks run at once in their
 *                  creator, tens of nanoseconds of work each (2.1 million
 *                  tasks): the finest-grained task program there is
 *   stencil-steps  a Jacobi heat sweep per time step, each a parallel for
 *                  with a max reduction of the change (the most common shape
 *                  of OpenMP codes: thousands of short parallel regions, tens
 *                  of microseconds each), so every region's fork, join and
 *                  implicit barrier is a part of the figure
 *   nested-teams   two outer threads, each running 300 inner parallel
 *                  regions of two threads with a short loop in each (nested
 *                  parallelism, as a solver inside a parallel driver): libgomp
 *                  starts a fresh thread for each inner team's member, so a
 *                  thread's start and end under the tool are a part of the
 *                  figure
 *   lock-histogram a histogram of 4 million samples whose bins (a count, a
 *                  sum and a sum of squares) are updated under a lock per
 *                  bin, omp_set_lock / omp_unset_lock (an update an atomic
 *                  cannot make); a sample goes to one of two bins by its
 *                  index, as particles are deposited on a grid's cells by
 *                  their position, so the threads seldom want one lock:
 *                  about 13 ns a sample, most of it the lock pair (bins
 *                  drawn at random made the figure the two threads' fight
 *                  over cache lines, which swung 1.3x either way from run
 *                  to run)
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

enum { MD_N = 3000, MD_STEPS = 100 };
static double md_x[MD_N], md_y[MD_N], md_fx[MD_N], md_fy[MD_N];

/* Returns the number of interacting pairs over all steps. */
static long md_forces(double *energy)
{
    unsigned seed = 7;
    for (int i = 0; i < MD_N; i++) {
        seed = seed * 1103515245u + 12345u;
        md_x[i] = (seed >> 8) % 40000 / 1000.0;
        seed = seed * 1103515245u + 12345u;
        md_y[i] = (seed >> 8) % 40000 / 1000.0;
    }
    long pairs = 0;
    double e = 0;
    for (int s = 0; s < MD_STEPS; s++) {
        #pragma omp parallel for schedule(dynamic, 16) reduction(+: e, pairs)
        for (int i = 0; i < MD_N; i++) {
            double fxi = 0, fyi = 0; /* row i's own forces, added once */
            for (int j = i + 1; j < MD_N; j++) {
                double dx = md_x[i] - md_x[j], dy = md_y[i] - md_y[j], r2 = dx * dx + dy * dy;
                if (r2 < 4.0) {
                    double f = 1.0 / (r2 + 0.01);
                    e += f;
                    pairs++;
                    #pragma omp atomic
                    md_fx[j] -= f * dx;
                    #pragma omp atomic
                    md_fy[j] -= f * dy;
                    fxi += f * dx;
                    fyi += f * dy;
                }
            }
            /* another thread's rows update md_fx[i] too: atomic as well */
            #pragma omp atomic
            md_fx[i] += fxi;
            #pragma omp atomic
            md_fy[i] += fyi;
        }
    }
    *energy = e;
    return pairs;
}

enum { ST_N = 160, ST_STEPS = 3000 };
static double st_grid[2][ST_N][ST_N];

/* Returns the largest change of the last sweep. */
static double stencil_steps(void)
{
    for (int i = 0; i < ST_N; i++)
        for (int j = 0; j < ST_N; j++)
            st_grid[0][i][j] = st_grid[1][i][j] = (i == 0 || j == 0) ? 100.0 : 0.0;
    double change = 0;
    for (int s = 0; s < ST_STEPS; s++) {
        double(*from)[ST_N] = st_grid[s % 2], (*to)[ST_N] = st_grid[(s + 1) % 2];
        change = 0;
        #pragma omp parallel for reduction(max: change)
        for (int i = 1; i < ST_N - 1; i++)
            for (int j = 1; j < ST_N - 1; j++) {
                double v = 0.25 * (from[i - 1][j] + from[i + 1][j] + from[i][j - 1] + from[i][j + 1]);
                double d = v > from[i][j] ? v - from[i][j] : from[i][j] - v;
                if (d > change)
                    change = d;
                to[i][j] = v;
            }
    }
    return change;
}

enum { NESTED_OUTER_STEPS = 300, NESTED_WORK = 20000 };

/* Returns the sum over every inner team's loop. */
static double nested_teams(void)
{
    double sum = 0;
    omp_set_max_active_levels(2);
    #pragma omp parallel num_threads(2) reduction(+: sum)
    for (int step = 0; step < NESTED_OUTER_STEPS; step++) {
        #pragma omp parallel num_threads(2) reduction(+: sum)
        for (int i = 0; i < NESTED_WORK; i++)
            sum += i * 1e-9;
    }
    omp_set_max_active_levels(1);
    return sum;
}

enum { HIST_BINS = 256, HIST_SAMPLES = 4000000 };
static struct {
    omp_lock_t lock;
    long count;
    double sum, sumsq;
} hist[HIST_BINS];

/* Returns the samples binned (HIST_SAMPLES). */
static long lock_histogram(void)
{
    for (int b = 0; b < HIST_BINS; b++) {
        omp_init_lock(&hist[b].lock);
        hist[b].count = 0;
        hist[b].sum = hist[b].sumsq = 0;
    }
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < HIST_SAMPLES; i++) {
        unsigned long x = (unsigned long)i * 2654435761u;
        double v = (double)(x % 100000) * 1e-3;
        int b = (int)(((unsigned long)i * HIST_BINS / HIST_SAMPLES + (x >> 20) % 2) % HIST_BINS);
        omp_set_lock(&hist[b].lock);
        hist[b].count++;
        hist[b].sum += v;
        hist[b].sumsq += v * v;
        omp_unset_lock(&hist[b].lock);
    }
    long total = 0;
    for (int b = 0; b < HIST_BINS; b++) {
        total += hist[b].count;
        omp_destroy_lock(&hist[b].lock);
    }
    return total;
}

enum { QUEENS = 11, QUEENS_CUTOFF = 3 };

static int queens_safe(int n, const char *a)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (a[j] == a[i] || a[j] == a[i] - (j - i) || a[j] == a[i] + (j - i))
                return 0;
    return 1;
}

static void queens(int row, const char *a, int *solutions, int depth)
{
    if (row == QUEENS) {
        *solutions = 1;
        return;
    }
    int found[QUEENS] = {0};
    for (int col = 0; col < QUEENS; col++) {
        #pragma omp task untied firstprivate(col, row, depth) shared(found) final(depth >= QUEENS_CUTOFF)
        {
            char b[QUEENS];
            for (int i = 0; i < row; i++)
                b[i] = a[i];
            b[row] = (char)col;
            if (queens_safe(row + 1, b))
                queens(row + 1, b, &found[col], depth + 1);
        }
    }
    #pragma omp taskwait
    for (int col = 0; col < QUEENS; col++)
        *solutions += found[col];
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
    double t2 = omp_get_wtime(), energy;
    long pairs = md_forces(&energy);
    double t3 = omp_get_wtime();
    int solutions = 0;
    char board[QUEENS];
    #pragma omp parallel
    #pragma omp single
    queens(0, board, &solutions, 0);
    double t4 = omp_get_wtime();
    double change = stencil_steps();
    double t5 = omp_get_wtime();
    double nested = nested_teams();
    double t6 = omp_get_wtime();
    long binned = lock_histogram();
    double t7 = omp_get_wtime();
    /* each of 2 x 300 x 2 loops adds 0.19999 */
    double nested_expected = 2.0 * NESTED_OUTER_STEPS * 2 * (NESTED_WORK - 1.0) * NESTED_WORK / 2 * 1e-9;
    if (f != 165580141 || sum <= 0 || pairs <= 0 || !(energy > 0) || solutions != 2680 ||
        !(change > 0 && change < 1) ||
        !(nested > 0.999 * nested_expected && nested < 1.001 * nested_expected) ||
        binned != HIST_SAMPLES) {
        fprintf(stderr, "%s: wrong result %ld %f %ld %f %d %g %g %ld\n", argv[0], f, sum, pairs,
                energy, solutions, change, nested, binned);
        return 1;
    }
    printf("real\tfib-tasks\t%s\t%s\t%.2f\n", argv[1], argv[2], (t1 - t0) * 1e3);
    printf("real\tdynamic-loop\t%s\t%s\t%.2f\n", argv[1], argv[2], (t2 - t1) * 1e3);
    printf("real\tmd-forces\t%s\t%s\t%.2f\n", argv[1], argv[2], (t3 - t2) * 1e3);
    printf("real\tnqueens-tasks\t%s\t%s\t%.2f\n", argv[1], argv[2], (t4 - t3) * 1e3);
    printf("real\tstencil-steps\t%s\t%s\t%.2f\n", argv[1], argv[2], (t5 - t4) * 1e3);
    printf("real\tnested-teams\t%s\t%s\t%.2f\n", argv[1], argv[2], (t6 - t5) * 1e3);
    printf("real\tlock-histogram\t%s\t%s\t%.2f\n", argv[1], argv[2], (t7 - t6) * 1e3);
    return 0;
}
