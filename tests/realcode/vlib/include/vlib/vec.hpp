// A header-only template library with its OpenMP in its headers (tests/realcode/README.md).
#pragma once
#include <vector>
#include <cstddef>
#include "detail.hpp"

namespace vlib {

template <typename T>
class Vec {
public:
    explicit Vec(std::size_t n, T v = T()) : data_(n, v) {}
    std::size_t size() const { return data_.size(); }
    T &operator[](std::size_t i) { return data_[i]; }

    void axpy(T a, const Vec &x)
    {
        const long n = (long)data_.size();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            data_[i] += a * x.data_[i];
    }

    T dot(const Vec &x) const
    {
        T s = T();
        const long n = (long)data_.size();
#pragma omp parallel for reduction(+ : s)
        for (long i = 0; i < n; i++)
            s += detail::mul(data_[i], x.data_[i]);
        return s;
    }

private:
    std::vector<T> data_;
};

template <typename T>
T sum_tasks(const T *v, long n)
{
    if (n < 64) {
        T s = T();
        for (long i = 0; i < n; i++)
            s += v[i];
        return s;
    }
    T a = T(), b = T();
#pragma omp task shared(a)
    a = sum_tasks(v, n / 2);
#pragma omp task shared(b)
    b = sum_tasks(v + n / 2, n - n / 2);
#pragma omp taskwait
    return a + b;
}

} // namespace vlib
