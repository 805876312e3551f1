/* A UTF-8 byte order mark, CRLF line ends, #line and a comment that is not UTF-8: été */
#include <stdio.h>

int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) /* P_BOM */
    {
#pragma omp atomic
        n++;
    }
#line 100
#pragma omp parallel num_threads(2) /* P_LINE */
    {
#pragma omp atomic
        n++;
    }
    printf("%d\n", n);
    return 0;
}
