/* POMP directives: user regions (inst begin/end/altend), user regions and
 * events with values (userregion start/stop/event), _Pragma, init/finalize
 * and on/off. The program prints the same with and without pomp. */
#include <stdio.h>
#include <omp.h>

static int work(int n)
{
    int s = 0;
    #pragma pomp inst begin(work)
    for (int i = 0; i < n; i++)
        s += i;
    if (n > 100) {
        #pragma pomp inst altend(work)
        return s;
    }
    #pragma pomp inst end(work)
    return s;
}

int main(void)
{
    int total = 0;
    #pragma pomp inst init
    #pragma omp parallel reduction(+:total)
    {
        int me = omp_get_thread_num();
        #pragma pomp userregion start(phase : me, \
                                      me * 10)
        total += work(10 + me);
        #pragma pomp userregion stop(phase : 10 + me)
        #pragma pomp userregion event(tick : me)
    }
    total += work(200);
    _Pragma("pomp userregion event(done)")
    #pragma pomp inst off
    total += work(3);
    #pragma pomp inst on
#ifdef _POMP
    fprintf(stderr, "_POMP=%d\n", _POMP);
#endif
    printf("total = %d\n", total);
    #pragma pomp inst finalize
    return 0;
}
