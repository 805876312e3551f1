/* A UTF-8 byte order mark, CRLF line ends, #line, directives after a comment on their line and a comment that is not UTF-8: été */
#include <stdio.h>

int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) /* P_BOM */
    {
#pragma omp atomic
        n++;
    }
    /* hot */ #pragma omp parallel num_threads(2) /* P_COMMENT */
    {
#pragma omp atomic
        n++;
    }
    /* a comment of
       two lines */ #pragma omp parallel num_threads(2) /* P_COMMENT2 */
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
