/* A lock wrapper in a header, as C++ code has it (an RAII guard's constructor
 * and destructor), without a pragma: pomp gives the header an instrumented
 * copy for its lock calls (test_api_calls.sh; a header that must stay as it
 * is keeps them as written, and the runtime's events measure their waits). */
#include <omp.h>

static inline void locked_add(omp_lock_t *l, long *x, int work)
{
    omp_set_lock(l); /* H_SET */
    for (volatile int i = 0; i < work; i++)
        ;
    *x += 1;
    omp_unset_lock(l);
}
