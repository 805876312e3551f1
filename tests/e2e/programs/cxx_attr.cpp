/* OpenMP directives in C++ attribute syntax (OpenMP 5.1): [[omp::directive(...)]]
 * on loops, blocks and statements, and stand-alone ones on null statements;
 * one omp::sequence and one [[using omp: ...]], which pomp leaves to the
 * runtime (tests/e2e/test_cxx.sh). */
#include <cstdio>
#include <omp.h>
template <class T> T sum(const T *v, int n)
{
    T s = T();
    [[omp::directive(parallel for reduction(+:s) schedule(static))]]
    for (int i = 0; i < n; ++i)
        s += v[i];
    return s;
}
int main()
{
    double v[1000];
    for (int i = 0; i < 1000; ++i) v[i] = i;
    int c = 0, t = 0, seq = 0;
    [[omp::directive(parallel num_threads(2))]]
    {
        [[omp::directive(critical(name))]]
        c++;
        [[omp::directive(barrier)]];
        [[omp::directive(single)]]
        {
            [[omp::directive(task shared(t))]]
            t += 1;
            [[omp::directive(taskwait)]];
        }
        [[omp::sequence(directive(masked), directive(taskloop))]]
        for (int i = 0; i < 4; ++i)
        {
            [[omp::directive(atomic)]]
            seq++;
        }
    }
    int m = 0;
    [[using omp: directive(parallel num_threads(2) reduction(+ : m))]]
    { m += 1; }
    std::printf("%g %d %d %d %d\n", sum(v, 1000), c, t, seq, m);
    return 0;
}
