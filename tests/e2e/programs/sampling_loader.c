/* A program that loads and unloads a plugin over and over on one thread (a
 * driver probing its plugins) while the other computes through libm: sampled,
 * a signal that comes while the dynamic loader holds its lock on a thread must
 * not walk that thread's stack (the walk takes the same lock: the program hung
 * for good, 1 run in 4 of this at 1 ms). argv[1]: the plugin, argv[2]: loads. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    long loads = atol(argv[2]), done = 0;
    double acc = 0;
    #pragma omp parallel num_threads(2) reduction(+ : acc, done)
    {
        if (omp_get_thread_num() == 0) {
            for (long k = 0; k < loads; k++) {
                void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
                if (!h)
                    continue;
                double (*work)(int) = (double (*)(int))dlsym(h, "plugin_work");
                if (work)
                    acc += work(100);
                dlclose(h);
                done++;
            }
        } else {
            for (long k = 0; k < 20000000; k++)
                acc += cos((double)k) * 1e-9;
        }
    }
    printf("loads %ld\n", done);
    return acc == acc ? 0 : 1;
}
