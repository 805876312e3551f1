/* A recursion of a user region past the recorded depth while measurement is
 * off (inst off), then with measurement on: only what is measured can be lost.
 * With an argument, a recursion 1,000 deep that turns measurement off half
 * way down: its 500 measured levels are recorded to the depth, the rest of
 * them counted. */
#include <stdio.h>

static long down(int depth, int off_at)
{
    long r;
    if (depth == off_at) {
#pragma pomp inst off
    }
#pragma pomp inst begin(down)
    r = depth == 0 ? 0 : 1 + down(depth - 1, off_at);
#pragma pomp inst end(down)
    if (depth == off_at) {
#pragma pomp inst on
    }
    return r;
}

int main(int argc, char **argv)
{
    (void)argv;
#pragma pomp inst init
#pragma pomp inst off
    long unmeasured = down(9999, -1);
#pragma pomp inst on
    long measured = down(100, -1);
    long half = argc > 1 ? down(1000, 500) : 0;
    printf("depths %ld %ld %ld\n", unmeasured, measured, half);
    return 0;
}
