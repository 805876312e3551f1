/* Pragma helpers in the style of real code (the stringize-helper idiom of
 * many libraries): PH_PRAGMA(x) is _Pragma(PH_STR(x)). Every directive they
 * make comes from a macro's body; each invocation makes one _Pragma and
 * nothing else, which pomp instruments where it is invoked (here: ph_sum's). */
#ifndef PRAGMA_HELPERS_H
#define PRAGMA_HELPERS_H
#define PH_STR(x) #x
#define PH_PRAGMA(x) _Pragma(PH_STR(x))
#define PH_PARALLEL_FOR PH_PRAGMA(omp parallel for num_threads(2) reduction(+ : s))
#define PH_ATOMIC PH_PRAGMA(omp atomic)

static inline long ph_sum(int n)
{
    long s = 0;
    PH_PARALLEL_FOR /* P_PH_SUM */
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
#endif
