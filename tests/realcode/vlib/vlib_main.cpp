#include <cstdio>
#include <vlib/vec.hpp>
double solve(int n);
int main()
{
    vlib::Vec<double> x(1000, 1.0), y(1000, 2.0);
    y.axpy(0.5, x);
    std::printf("%.1f %.1f %d\n", y.dot(x), solve(500), vlib::detail::count_threads());
    return 0;
}
