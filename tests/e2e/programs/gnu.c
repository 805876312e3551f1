/* GCC extensions clang rejects or parses differently: a nested function,
 * statement expressions, case ranges, local labels, typeof, attributes. */
#include <stdio.h>

int main(void)
{
    int sum = 0;
    int scale = 3;
    int twice(int x) { return 2 * x * scale; }   /* nested function */
    #pragma omp parallel for reduction(+:sum)
    for (int i = 0; i < 10; i++)
        sum += twice(i) + ({ int t = i; t > 5 ? 1 : 0; });
    __attribute__((unused)) int unused;
    switch (sum) { case 0 ... 10: printf("small\n"); break; default: printf("sum = %d\n", sum); }
    #pragma omp parallel
    {
        __label__ out;
        #pragma omp critical
        sum++;
        goto out;
    out:;
    }
    typeof(sum) s2 = sum > 0;
    printf("%d\n", s2);
    return 0;
}
