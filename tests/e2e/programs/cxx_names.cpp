// Runtime regions (the closing barriers of single constructs, reported by the
// runtime alone; built without -g) in functions whose C++ names have
// parentheses of their own: an anonymous namespace, a call operator, a lambda.
#include <cstdio>

namespace {
int in_anonymous(int n)
{
    int s = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        s = n;
    }
    return s;
}

template <class T>
T twice(T n)
{
    T s = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        s = n + 1;
    }
    return s;
}
} // namespace

struct Kernel {
    int operator()(int n) const
    {
        int s = 0;
#pragma omp parallel num_threads(2)
        {
#pragma omp single
            s = n + 2;
        }
        return s;
    }
};

int main()
{
    auto lambda = [](int n) {
        int s = 0;
#pragma omp parallel num_threads(2)
        {
#pragma omp single
            s = n + 3;
        }
        return s;
    };
    std::printf("%d %ld %d %d\n", in_anonymous(1), twice(1L), Kernel()(1), lambda(1));
    return 0;
}
