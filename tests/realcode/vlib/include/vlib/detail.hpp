// A header-only template library with its OpenMP in its headers (tests/realcode/README.md).
#pragma once
namespace vlib { namespace detail {
template <typename T> inline T mul(T a, T b) { return a * b; }
inline int count_threads()
{
    int n = 0;
#pragma omp parallel
    {
#pragma omp atomic
        n++;
    }
    return n > 0;
}
} }
