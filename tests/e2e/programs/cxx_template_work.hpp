// A class template whose member runs a parallel region with a worksharing
// loop and a taskgroup: the shape of a solver kernel in a header, instantiated
// for two element types (test_cxx_template_regions).
#include <cstddef>
#include <vector>

template <typename T> class Work {
  public:
    explicit Work(std::size_t n) : v_(n, T(1)) {}

    T run()
    {
        T sum = 0;
        #pragma omp parallel
        {
            #pragma omp for reduction(+ : sum)
            for (long i = 0; i < (long)v_.size(); i++)
                sum += v_[i];
            #pragma omp taskgroup
            {
                #pragma omp task
                touch();
            }
        }
        return sum;
    }

  private:
    void touch() const
    {
        volatile T x = v_[0];
        (void)x;
    }
    std::vector<T> v_;
};
