/* Every construct group through the POMP API itself (as the instrumenter would
 * call it), in a real OpenMP team of 4 threads: parallel, loop with chunks,
 * sections, single, master, critical, barrier, implicit barrier, atomic,
 * flush, ordered, workshare, function, user region and omp locks. Prints a
 * result that does not depend on the schedule. */
#include <omp.h>
#include <pomplib.h>
#include <stdio.h>

#define THREADS 4
#define N 64

static POMP_Handle_t h[20];

int main(void)
{
    long sum = 0, ordered_sum = 0, atomics = 0, locked = 0, singles = 0, masters = 0;
    omp_lock_t lock;
    omp_init_lock(&lock);
    POMP_Init();
    POMP_Parallel_enter(&h[0], 0, THREADS, 1, "60*type=parallel*file=all_groups.c*slines=10,10*elines=90,90**");
#pragma omp parallel num_threads(THREADS) reduction(+ : sum)
    {
        int t = omp_get_thread_num();
        POMP_Parallel_begin(h[0], t);
        POMP_Function_begin(&h[1], t, "70*type=function*file=all_groups.c*slines=11,11*elines=89,89*name=work**");

        POMP_Loop_enter(&h[2], t, 4, 0, N - 1, 1, "55*type=for*file=all_groups.c*slines=12,12*elines=20,20**");
#pragma omp for schedule(static, 4) nowait
        for (int i = 0; i < N; i++) {
            POMP_Loop_chunk_begin(h[2], t, i, i); /* one chunk per iteration */
            sum += i;
            POMP_Loop_chunk_end(h[2], t);
        }
        POMP_Implicit_barrier_enter(&h[3], t, "68*type=implicit_barrier*file=all_groups.c*slines=20,20*elines=20,20**");
#pragma omp barrier
        POMP_Implicit_barrier_exit(h[3], t);
        POMP_Loop_exit(h[2], t);

        POMP_Sections_enter(&h[4], t, "60*type=sections*file=all_groups.c*slines=21,21*elines=30,30**");
#pragma omp sections
        {
#pragma omp section
            {
                POMP_Section_begin(h[4], 0, t);
                POMP_Section_end(h[4], t);
            }
#pragma omp section
            {
                POMP_Section_begin(h[4], 1, t);
                POMP_Section_end(h[4], t);
            }
        }
        POMP_Sections_exit(h[4], t);

        POMP_Single_enter(&h[5], t, "58*type=single*file=all_groups.c*slines=31,31*elines=33,33**");
#pragma omp single
        {
            POMP_Single_begin(h[5], t);
            singles++;
            POMP_Single_end(h[5], t);
        }
        POMP_Single_exit(h[5], t);

#pragma omp master
        {
            POMP_Master_begin(&h[6], t, "58*type=master*file=all_groups.c*slines=34,34*elines=36,36**");
            masters++;
            POMP_Master_end(h[6], t);
        }

        POMP_Critical_enter(&h[7], t, "68*type=critical*file=all_groups.c*slines=37,37*elines=39,39*name=c1**");
#pragma omp critical(c1)
        {
            POMP_Critical_begin(h[7], t);
            sum += 1000;
            POMP_Critical_end(h[7], t);
        }
        POMP_Critical_exit(h[7], t);

        POMP_Atomic_event(&h[8], t, "58*type=atomic*file=all_groups.c*slines=40,40*elines=40,40**");
#pragma omp atomic
        atomics++;
        POMP_Flush_event(&h[9], t, "57*type=flush*file=all_groups.c*slines=41,41*elines=41,41**");
#pragma omp flush

        POMP_Set_lock_enter(&h[10], t, &lock, "64*type=omp_set_lock*file=all_groups.c*slines=42,42*elines=42,42**");
        omp_set_lock(&lock);
        POMP_Set_lock_exit(h[10], t, &lock);
        locked++;
        POMP_Unset_lock_event(&h[11], t, &lock, "66*type=omp_unset_lock*file=all_groups.c*slines=44,44*elines=44,44**");
        omp_unset_lock(&lock);

        POMP_Barrier_enter(&h[12], t, "59*type=barrier*file=all_groups.c*slines=45,45*elines=45,45**");
#pragma omp barrier
        POMP_Barrier_exit(h[12], t);

        POMP_Loop_enter(&h[13], t, 1, 0, THREADS - 1, 1, "55*type=for*file=all_groups.c*slines=46,46*elines=52,52**");
#pragma omp for ordered schedule(static, 1)
        for (int i = 0; i < THREADS; i++) {
            POMP_Ordered_enter(&h[14], t, "59*type=ordered*file=all_groups.c*slines=48,48*elines=50,50**");
#pragma omp ordered
            {
                POMP_Ordered_begin(h[14], t);
                ordered_sum = ordered_sum * 10 + i;
                POMP_Ordered_end(h[14], t);
            }
            POMP_Ordered_exit(h[14], t);
        }
        POMP_Loop_exit(h[13], t);

        POMP_Workshare_enter(&h[15], t, "61*type=workshare*file=all_groups.c*slines=53,53*elines=54,54**");
        POMP_Workshare_begin(h[15], t);
        POMP_Workshare_end(h[15], t);
        POMP_Workshare_exit(h[15], t);

        POMP_User_region_begin(&h[16], t, "69*type=region*file=all_groups.c*slines=55,55*elines=57,57*name=phase**");
        POMP_User_event(&h[17], t, "61*type=userevent*file=all_groups.c*slines=56,56*elines=56,56**");
        POMP_User_region_end(h[16], t);

        POMP_Function_end(h[1], t);
        POMP_Parallel_end(h[0], t);
    }
    POMP_Parallel_exit(h[0], 0);
    omp_destroy_lock(&lock);
    printf("sum=%ld ordered=%ld atomics=%ld locked=%ld singles=%ld masters=%ld\n", sum, ordered_sum,
           atomics, locked, singles, masters);
    return POMP_Finalize();
}
