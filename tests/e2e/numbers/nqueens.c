/* N-queens by recursive tasks, in the style of the BOTS nqueens code: one
 * untied task per column tried at each row, a `final` cutoff below which
 * every task is included (run at once by the thread that creates it), and a
 * taskwait per level. Below the cutoff a task does a few tens of nanoseconds
 * of work: the finest-grained kind of task program there is. Prints the
 * number of solutions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CUTOFF
#define CUTOFF 3
#endif
#define MAX_N 16

/* Whether the first n queens (row i in column a[i]) attack no other. */
static int safe(int n, const char *a)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (a[j] == a[i] || a[j] == a[i] - (j - i) || a[j] == a[i] + (j - i))
                return 0;
    return 1;
}

static void place(int n, int row, const char *a, int *solutions, int depth)
{
    if (row == n) {
        *solutions = 1;
        return;
    }
    int found[MAX_N];
    memset(found, 0, sizeof found);
    for (int col = 0; col < n; col++) {
#pragma omp task untied firstprivate(col, row, n, depth) shared(found) final(depth >= CUTOFF)
        {
            char b[MAX_N];
            memcpy(b, a, (size_t)row);
            b[row] = (char)col;
            if (safe(row + 1, b))
                place(n, row + 1, b, &found[col], depth + 1);
        }
    }
#pragma omp taskwait
    for (int col = 0; col < n; col++)
        *solutions += found[col];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > MAX_N)
        return 2;
    int total = 0;
    char a[MAX_N];
#pragma omp parallel
#pragma omp single
    place(n, 0, a, &total, 0);
    printf("queens(%d) = %d\n", n, total);
    return 0;
}
