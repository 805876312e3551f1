// C++ under pompc++: a template, a member function, a lambda with a parallel
// region, range-based for loops (the statement after one must stay outside
// the region), exceptions thrown and caught inside a region, a try block as a
// structured block, a user region left by an exception, an API call, and a
// member function of a class template whose loop's barrier only the runtime
// reports.
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <vector>
#include <omp.h>

template <typename T>
T parallel_sum(const std::vector<T> &v)
{
    T s = T();
    #pragma omp parallel for reduction(+:s)
    for (std::size_t i = 0; i < v.size(); i++)
        s += v[i];
    return s;
}

struct Counter {
    int n = 0;
    void bump()
    {
        #pragma omp critical(counter)
        n++;
    }
};

// GCC outlines the region into "Field<double>::fill(double) [clone
// ._omp_fn.N]"; the loop's closing barrier is named by the member function.
template <typename T>
struct Field {
    std::vector<T> v;
    explicit Field(std::size_t n) : v(n) {}
    void fill(T x)
    {
        #pragma omp parallel
        {
            #pragma omp for
            for (std::size_t i = 0; i < v.size(); i++)
                v[i] = x * T(i);
        }
    }
};

static void may_throw(int k)
{
    #pragma pomp inst begin(risky)
    if (k > 0)
        throw std::invalid_argument("k");
    #pragma pomp inst end(risky)
}

int main()
{
    std::vector<int> v(100);
    std::iota(v.begin(), v.end(), 1);
    int total = 0;
    #pragma omp parallel for reduction(+:total)
    for (int x : v)
        total += x;
    total += 1000;
    #pragma omp parallel for reduction(+:total)
    for (const int &x : v) {
        total += x;
    }
    total += 1000;
    Counter c;
    auto work = [&](int k) {
        #pragma omp parallel num_threads(2)
        {
            c.bump();
        }
        return k;
    };
    int k = work(3);
    int errors = 0;
    #pragma omp parallel reduction(+:errors)
    {
        try {
            if (omp_get_thread_num() == 0)
                throw std::runtime_error("inside");
        } catch (const std::exception &e) {
            errors++;
        }
    }
    #pragma omp parallel
    #pragma omp single
    try {
        may_throw(1);
    } catch (const std::invalid_argument &) {
        errors += 10;
    }
    long neg = 0;
    #pragma omp parallel
    {
        #pragma omp single
        {
            for (auto &x : v)
                x = -x;
        }
    }
    neg = parallel_sum(v);
    Field<double> field(100);
    field.fill(2.0);
    errors += field.v[10] != 20.0;
    std::printf("total=%d neg=%ld k=%d bumps=%d errors=%d\n", total, neg, k, c.n, errors);
    return 0;
}
