#!/usr/bin/env bash
# A long-running server's thread churn leaves pomp's memory bounded by the
# threads alive at once, not by the threads ever created: an ended thread's
# record (and the OMPT bridge's state) goes to the next new thread even when
# more than 64 end at once (pomp_handoff.h). Before, the states that found
# the 64 slots full stayed unused: 6,000 requests, 40 at a time, each the
# master of a team of 2, made 1,018 records and 39 MB of RSS (64 records at
# 32 at a time), a profile column for each.
NUMBERS="$(cd "$(dirname "$0")" && pwd)/numbers"
source "$(dirname "$0")/lib.sh"
cat > churn.c <<'C'
#include <pthread.h>
#include <stdio.h>
#include <omp.h>
#define AT_ONCE 80
#define ROUNDS 12
static pthread_barrier_t all_ran;
static long shares;
static void *request(void *arg)
{
    (void)arg;
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
        shares++;
    }
    pthread_barrier_wait(&all_ran); /* every request of the round ends at once */
    return NULL;
}
int main(void)
{
    pthread_t th[AT_ONCE];
    pthread_barrier_init(&all_ran, NULL, AT_ONCE);
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < AT_ONCE; i++)
            pthread_create(&th[i], NULL, request, NULL);
        for (int i = 0; i < AT_ONCE; i++)
            pthread_join(th[i], NULL);
    }
    printf("%ld\n", shares);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp churn.c -o churn -lpthread 2>build.err || { cat build.err; fail "build"; }
OMP_WAIT_POLICY=passive POMP_OUTPUT_DIR=ch timeout 120 ./churn > ch.txt || fail "the program failed"
assert_eq "$(cat ch.txt)" 1920 "the program's result (12 rounds of 80 requests, 2 threads each)"
"$REPORT" --check ch > ch.check || { cat ch.check; fail "--check"; }
masters=$(jq '[.threads[] | select(.device == null and .omp_thread_num == 0) | .os_threads // 1] | add' ch/profile.json)
assert_eq "$masters" 960 "the request threads the records of thread number 0 stand for"
records=$(jq '[.threads[] | select(.device == null)] | length' ch/profile.json)
# at most the threads alive at once (80 requests, 80 workers on libgomp; on
# LLVM libomp its pool's workers, up to 80 too), with room for a round's
# threads that start before the last one's workers ended
[ "$records" -le 240 ] || fail "$records records for 960 requests of 80 at a time: the records of threads that ended at once were not handed on"
exit 0
