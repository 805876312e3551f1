/* Old K&R C: implicit int, old-style definitions, implicit declarations
 * (errors for clang 19 in C99 mode, warnings for gcc 12). */
#include <stdio.h>

static total;

add(a, b)
    int a;
    int b;
{
    return a + b;
}

main()
{
    int i;
    #pragma omp parallel for reduction(+:total)
    for (i = 0; i < 100; i++)
        total = add(total, helper(i));
    printf("total = %d\n", total);
    return 0;
}

helper(x)
{
    return x * 2;
}
