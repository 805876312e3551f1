/* A user region recursing into itself 10,000 levels deep. */
#include <stdio.h>

static long down(int depth)
{
    long r;
#pragma pomp inst begin(down)
    r = depth == 0 ? 0 : 1 + down(depth - 1);
#pragma pomp inst end(down)
    return r;
}

int main(void)
{
#pragma pomp inst init
    printf("depth %ld\n", down(9999));
    return 0;
}
