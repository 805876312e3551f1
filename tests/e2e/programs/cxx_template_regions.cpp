// Two instantiations of a class template whose regions the runtime reports
// (a loop's closing barrier, a taskgroup's wait): each is one construct.
#include <cstdio>

#include "cxx_template_work.hpp"

int main()
{
    Work<double> a(1000);
    Work<long> b(2000);
    double s = 0;
    long t = 0;
    for (int i = 0; i < 5; i++)
        s += a.run();
    for (int i = 0; i < 3; i++)
        t += b.run();
    std::printf("%g %ld\n", s, t);
    return 0;
}
