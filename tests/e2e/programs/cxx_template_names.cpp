// A class template's member function template run for two instantiations,
// built without -g and measured by pomprun: its parallel region and loop are
// runtime regions named by their function, one per instantiation.
#include <cstdio>
#include <vector>

template <typename T>
struct Field {
    std::vector<T> v;
    explicit Field(int n) : v(n, T(1)) {}
    template <typename F>
    void transform(F f)
    {
#pragma omp parallel for schedule(dynamic)
        for (int i = 0; i < (int)v.size(); ++i)
            v[i] = f(v[i]);
    }
};

int main()
{
    Field<double> a(1000);
    Field<float> b(1000);
    a.transform([](double x) { return 2 * x; });
    for (int k = 0; k < 3; ++k)
        b.transform([](float x) { return x + 1; });
    std::printf("%.1f %.1f\n", a.v[0], (double)b.v[0]);
    return 0;
}
