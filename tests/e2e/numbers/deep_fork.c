/* A parallel region at the bottom of a user region's recursion 300 levels
 * deep: past POMP_PROFILE_DEPTH=256 its events are counted, not recorded. */
#include <stdio.h>

static long hits;

static void down(int depth)
{
#pragma pomp inst begin(down)
    if (depth > 0) {
        down(depth - 1);
    } else {
#pragma omp parallel num_threads(2)
        {
#pragma omp atomic
            hits++;
        }
    }
#pragma pomp inst end(down)
}

int main(void)
{
    down(300);
    printf("hits %ld\n", hits);
    return 0;
}
