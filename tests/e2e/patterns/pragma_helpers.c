/* Directives made by macros in the file and in headers (pragma_helpers.h,
 * macro_only.h): each invocation makes one _Pragma and nothing else, and is
 * instrumented where it is invoked, as the pragma written here is. The
 * program prints what the plain build prints. */
#include <stdio.h>

#include "pragma_helpers.h"
#include "macro_only.h"

int main(void)
{
    long s = 0, c = 0;
    PH_PARALLEL_FOR /* P_MAIN_MACRO */
    for (int i = 0; i < 100; i++)
        s += i;
#pragma omp parallel for num_threads(2) reduction(+ : s) /* P_MAIN_PRAGMA */
    for (int i = 0; i < 100; i++)
        s += i;
    mo_count(&c, 10);
    printf("%ld %ld %ld\n", s, ph_sum(100), c);
    return 0;
}
