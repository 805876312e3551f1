/* A header that names no pragma: its directives come from pragma_helpers.h's
 * macros (a parallel and an atomic, each instrumented where invoked). */
#ifndef MACRO_ONLY_H
#define MACRO_ONLY_H
static inline void mo_count(long *c, int n)
{
    PH_PRAGMA(omp parallel num_threads(2)) /* P_MO_PARALLEL */
    {
        for (int i = 0; i < n; i++) {
            PH_ATOMIC /* P_MO_ATOMIC */
            *c += 1;
        }
    }
}
#endif
