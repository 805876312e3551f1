#include <vector>
#include "vlib/vec.hpp"
double solve(int n)
{
    vlib::Vec<double> a(n, 3.0), b(n, 1.0);
    a.axpy(2.0, b);
    std::vector<double> v(n, 1.0);
    double s = 0;
#pragma omp parallel
#pragma omp single
    s = vlib::sum_tasks(v.data(), n);
    vlib::Vec<float> f(10, 1.0f);
    return a.dot(b) + s + f.dot(f);
}
