/* Serial code whose frame holds a large buffer it uses a part of (a line
 * buffer, a path): the rest keeps what the program's start-up and lazily
 * bound calls left on the stack, return addresses into the dynamic loader
 * among them. Sampled, its stacks must be its own (a first guard against
 * the loader's lock took those addresses for the loader at work: every
 * sample of parse_input read <dynamic loader busy>). */
#include <math.h>
#include <stdio.h>
#include <time.h>

__attribute__((noinline)) static double first_calls(double x)
{
    return cos(x) + sin(x) + exp(x) + log(x + 2); /* each bound at its first call */
}

__attribute__((noinline)) static long parse_input(int ms)
{
    volatile char line[3072]; /* only its first bytes are written */
    long n = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do {
        line[n & 7] = (char)n;
        n += line[(n + 1) & 7];
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
    return n;
}

int main(int argc, char **argv)
{
    (void)argv;
    double d = first_calls(argc);
    long n = parse_input(300);
    int s = 0;
    #pragma omp parallel num_threads(2) reduction(+ : s)
    s++;
    printf("%d %d %d\n", d > 100, n != 0 || n == 0, s);
    return 0;
}
