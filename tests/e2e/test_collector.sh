# The example collector of examples/collector (seed 003 §5), preloaded into a
# program built with pompcc: it starts a session through __omp_collector_api,
# records every fork with its region ids and the master's call stack, and
# samples the threads' OpenMP states from a signal handler.
source "$(dirname "$0")/lib.sh"
[ -n "$E2E_SANITIZE" ] && exit 0 # a preloaded library cannot come before ASan's runtime
mkdir -p out
POMP_SUMMARY=off BUILD="$BUILD" POMPCC="$POMPCC" "$EXAMPLES/collector/run_collector.sh" "$PWD/out" > app.txt 2> collector.txt \
    || { cat collector.txt; fail "the example collector's run"; }
assert_eq "$(cat app.txt)" "done 1" "the program's own output"
# 3 outer regions, then one with a nested region on each of its 2 threads
assert_contains collector.txt '^collector: 6 forks \(2 nested, 0 not kept\)$' "every fork, nested ones with a parent region"
assert_contains collector.txt '^collector: fork of region 1 \(parent 0\), master.s call stack:$' "the first region's id"
assert_contains collector.txt '\(main\+0x[0-9a-f]+\)' "the master's call stack reaches main"
assert_contains collector.txt '^collector: +[0-9]+ samples work$' "work samples"
# (whether the waiting thread spins long enough to be sampled in its barrier
# depends on the machine's load: not asserted)
read -r work wait inregion total < <(sed -n 's/^collector: OpenMP Work \([0-9]*\), OpenMP Wait \([0-9]*\), in a parallel region \([0-9]*\), total \([0-9]*\) samples$/\1 \2 \3 \4/p' collector.txt)
[ -n "${total:-}" ] || fail "no Work/Wait line: $(cat collector.txt)"
assert_eq "$((work + wait))" "$total" "Work and Wait add up to every sample"
[ "$inregion" -gt 0 ] || fail "no sample with a region id (CURRENT_PRID from the signal handler)"

# A program without libpomp has no collector API: the collector says so, the program runs.
cat > plain.c <<'C'
#include <stdio.h>
int main(void) { puts("plain"); return 0; }
C
cc plain.c -o plain
assert_eq "$(LD_PRELOAD=$PWD/out/libcollector.so ./plain 2> none.txt)" "plain" "plain program output"
assert_contains none.txt 'has no __omp_collector_api' "no collector API outside pomp"

# The state of a thread waiting for a lock and for a critical, asked from a
# signal handler on that thread while it waits (on libgomp the bridge keeps
# those states once a session starts; without one, its mutex wrappers only
# forward).
cat > waits.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "omp_collector_api.h"

static int (*api)(void *);
static volatile int32_t seen;
static volatile sig_atomic_t answered;
static pthread_t waiter;
static volatile int waiting;
static volatile int task_started;

static int ask(int32_t request, void *out, size_t size)
{
    int32_t list[16] = {(int32_t)(16 + 12), request, 0, 0};
    int rc = api(list);
    if (out)
        memcpy(out, list + 4, size);
    return rc == 0 ? list[2] : -1;
}

static volatile uint64_t idle_region = 99;
static volatile int32_t idle_state = -1;

static void on_region_signal(int sig)
{
    (void)sig;
    uint64_t id = 99;
    if (ask(OMP_REQ_CURRENT_PRID, &id, sizeof id) == OMP_ERRCODE_OK)
        idle_region = id;
    int32_t s = -1;
    if (ask(OMP_REQ_STATE, &s, sizeof s) == OMP_ERRCODE_OK)
        idle_state = s;
    answered = 1;
}

static void on_signal(int sig)
{
    (void)sig;
    int32_t s = 0;
    if (ask(OMP_REQ_STATE, &s, sizeof s) == OMP_ERRCODE_OK)
        seen = s;
    answered = 1;
}

/* On thread 0, which holds what thread 1 waits for: asks thread 1's state. */
static void ask_the_waiter(void)
{
    while (!waiting)
        ;
    struct timespec pause = {0, 100 * 1000 * 1000}; /* thread 1 is in its wait by now */
    nanosleep(&pause, NULL);
    pthread_kill(waiter, SIGUSR1);
    while (!answered)
        ;
}

static void *asker_main(void *arg)
{
    ask_the_waiter();
    return arg;
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) { /* the session starts after the runtime (and pomp's tool) did */
#pragma omp parallel num_threads(2)
        waiting = 0;
    }
    api = (int (*)(void *))dlsym(RTLD_DEFAULT, "__omp_collector_api");
    if (!api || ask(OMP_REQ_START, NULL, 0) != OMP_ERRCODE_OK) {
        puts("no collector session");
        return 1;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGUSR1, &sa, NULL);
    omp_lock_t lock;
    omp_init_lock(&lock);
    volatile int inside = 0;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0)
            omp_set_lock(&lock);
#pragma omp barrier
        if (omp_get_thread_num() == 1) {
            waiter = pthread_self();
            waiting = 1;
            omp_set_lock(&lock);
            omp_unset_lock(&lock);
        } else {
            ask_the_waiter();
            omp_unset_lock(&lock);
        }
    }
    printf("lock wait: %d\n", (int)seen);
    answered = 0, waiting = 0, seen = -1;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
#pragma omp critical
            {
                inside = 1;
                ask_the_waiter();
            }
        } else {
            waiter = pthread_self();
            while (!inside)
                ;
            waiting = 1;
#pragma omp critical
            inside = 2;
        }
    }
    printf("critical wait: %d\n", (int)seen);
    /* a task that a thread runs inside the single's closing barrier: that
     * thread works (it was read as waiting in the barrier on libgomp while
     * the session's tasks went unwrapped); asked by a thread of its own */
    answered = 0, waiting = 0, seen = -1;
    pthread_t asker;
    pthread_create(&asker, NULL, asker_main, NULL);
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task
        {
            waiter = pthread_self();
            waiting = 1;
            while (!answered)
                ;
        }
    }
    pthread_join(asker, NULL);
    printf("task in a barrier: %d\n", (int)seen);
    /* a thread in a taskwait for a task another thread runs waits: EBAR
     * (LLVM libomp leaves it in work_parallel: it read THR_WORK_STATE) */
    answered = 0, waiting = 0, seen = -1;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 0) {
        waiter = pthread_self();
#pragma omp task
        {
            task_started = 1;
            ask_the_waiter();
        }
        while (!task_started)
            ;
        waiting = 1;
#pragma omp taskwait
    }
    printf("taskwait: %d\n", (int)seen);
    /* a thread that runs the task it waits for in its taskwait works (the
     * other thread keeps busy until the answer): the instrumentation reports
     * the task, the bridge's scope on top stays the wait, and an instrumented
     * build read THR_EBAR_STATE while its sampler counted work (a probe) */
    answered = 0, waiting = 0, seen = -1;
    pthread_create(&asker, NULL, asker_main, NULL);
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 0) {
#pragma omp task
        {
            waiter = pthread_self();
            waiting = 1;
            while (!answered)
                ;
        }
#pragma omp taskwait
    } else {
        while (!answered)
            ;
    }
    pthread_join(asker, NULL);
    printf("task in a taskwait: %d\n", (int)seen);
    /* a worker whose team joined waits for work, in no region: region id 0
     * (on libgomp it answered the ended region's) */
    struct sigaction sr = {.sa_handler = on_region_signal};
    sigaction(SIGUSR2, &sr, NULL);
    answered = 0;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1)
        waiter = pthread_self();
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    pthread_kill(waiter, SIGUSR2);
    while (!answered)
        ;
    printf("idle worker's region: %llu\n", (unsigned long long)idle_region);
    printf("idle worker's state: %d\n", (int)idle_state);
    omp_destroy_lock(&lock);
    return 0;
}
C
"$POMPCC" -fopenmp -O1 -I"$BUILD/include" waits.c -o waits 2>waits.err || { cat waits.err; fail "build waits.c"; }
state_number() { grep -o "$1 = [0-9]*" "$BUILD/include/omp_collector_api.h" | grep -o '[0-9]*$'; }
lkwt=$(state_number THR_LKWT_STATE) ctwt=$(state_number THR_CTWT_STATE) work=$(state_number THR_WORK_STATE)
idle=$(state_number THR_IDLE_STATE) ebar=$(state_number THR_EBAR_STATE)
[ "${E2E_RUNTIME:-}" = omp ] && ctwt=$lkwt # libomp 19 reports a critical's wait as a lock wait
for when in "" late; do # the session starts before the runtime did, or after
    POMP_SUMMARY=off ./waits $when > waits$when.txt 2>&1 || { cat waits$when.txt; fail "waits.c ran"; }
    assert_contains waits$when.txt "^lock wait: $lkwt\$" "${when:-early}: a thread waiting for a lock is in the lock-wait state"
    assert_contains waits$when.txt "^critical wait: $ctwt\$" "${when:-early}: a thread waiting to enter a critical is in a wait state"
    assert_contains waits$when.txt "^task in a barrier: $work\$" "${when:-early}: a thread running a task in a barrier works"
    assert_contains waits$when.txt "^taskwait: $ebar\$" "${when:-early}: a thread in a taskwait waits for tasks (EBAR)"
    assert_contains waits$when.txt "^task in a taskwait: $work\$" "${when:-early}: a thread running a task in its taskwait works"
    assert_contains waits$when.txt "^idle worker's region: 0\$" "${when:-early}: a worker waiting for work is in no region"
    assert_contains waits$when.txt "^idle worker's state: $idle\$" "${when:-early}: a worker waiting for work is idle (libomp and the libgomp bridge say: in the closing barrier)"
done

# A collector that registers the lock-wait event has the bridge follow every
# lock wait: a throttled omp_set_lock site of the instrumentation then keeps
# making its calls, so that the waits stay under the call's node (counted
# inline, 189,759 waits of 200,000 went beside it, timed, under the parallel
# region; a review). The session starts before the runtime.
cat > lkwt.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "omp_collector_api.h"
static long lkwt;
static void on_lkwt(OMP_COLLECTORAPI_EVENT e) { (void)e; __atomic_fetch_add(&lkwt, 1, __ATOMIC_RELAXED); }
static int collector_start(void)
{
    int (*api)(void *) = (int (*)(void *))dlsym(RTLD_DEFAULT, "__omp_collector_api");
    if (!api)
        return -1;
    int32_t list[32] = {0};
    list[0] = 16, list[1] = OMP_REQ_START;
    int32_t *r = list + 4, ev = OMP_EVENT_THR_BEGIN_LKWT;
    omp_collector_callback_t cb = on_lkwt;
    r[0] = 16 + 12, r[1] = OMP_REQ_REGISTER;
    memcpy(r + 4, &ev, 4);
    memcpy((char *)(r + 4) + 4, &cb, sizeof cb);
    return api(list) == 0 ? list[2] * 100 + r[2] : -2;
}
int main(void)
{
    printf("collector: %d\n", collector_start());
    omp_lock_t l;
    long a = 0;
    omp_init_lock(&l);
#pragma omp parallel num_threads(2)
    for (int i = 0; i < 100000; i++) {
        omp_set_lock(&l); /* HOT_SET */
        a += 1;
        omp_unset_lock(&l);
    }
    omp_destroy_lock(&l);
    printf("%ld\n", a);
    return 0;
}
C
"$POMPCC" -fopenmp -g -I"$BUILD/include" lkwt.c -o lkwt -ldl 2> lkwt.err || { cat lkwt.err; fail "build lkwt.c"; }
POMP_SUMMARY=off POMP_OUTPUT_DIR=lkwt.d ./lkwt > lkwt.txt 2>&1 || { cat lkwt.txt; fail "lkwt ran"; }
assert_eq "$(cat lkwt.txt)" "$(printf 'collector: 0\n200000')" "lkwt: the session started, the program's result"
hot=$(line_of lkwt.c HOT_SET) par=$(line_of lkwt.c 'omp parallel')
path_counts lkwt.d > lkwt.paths
grep -qx "parallel:$par/omp_set_lock:$hot 200000 0" lkwt.paths || { cat lkwt.paths; fail "lkwt: every set call counted"; }
! grep -q "^parallel:$par/wait:$hot " lkwt.paths || { cat lkwt.paths; fail "lkwt: no lock wait beside the call"; }

# The executor of a single gets THR_BEGIN_SINGLE and THR_END_SINGLE in pairs:
# libomp's libgomp layer reports no end of a single (GCC code on libomp), and
# the end the bridge supplies at the barrier came without the collector's
# event (20 begins, no end; a probe).
cat > single.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "omp_collector_api.h"
static long begins, ends;
static void on_single(OMP_COLLECTORAPI_EVENT e)
{
    __atomic_fetch_add(e == OMP_EVENT_THR_BEGIN_SINGLE ? &begins : &ends, 1, __ATOMIC_RELAXED);
}
int main(void)
{
    int (*api)(void *) = (int (*)(void *))dlsym(RTLD_DEFAULT, "__omp_collector_api");
    int32_t list[32] = {16, OMP_REQ_START};
    omp_collector_callback_t cb = on_single;
    for (int i = 0; i < 2; i++) {
        int32_t *r = list + 4 + 7 * i, ev = OMP_EVENT_THR_BEGIN_SINGLE + i;
        r[0] = 16 + 12, r[1] = OMP_REQ_REGISTER;
        memcpy(r + 4, &ev, 4);
        memcpy((char *)(r + 4) + 4, &cb, sizeof cb);
    }
    if (!api || api(list) != 0 || list[2] || list[6] || list[13])
        return 1;
    long n = 0;
    for (int i = 0; i < 20; i++) {
#pragma omp parallel num_threads(2)
#pragma omp single
        n++;
    }
    printf("%ld singles, begins %ld, ends %ld\n", n, begins, ends);
    return 0;
}
C
"$POMPCC" -fopenmp -I"$BUILD/include" single.c -o single -ldl 2> single.err || { cat single.err; fail "build single.c"; }
POMP_SUMMARY=off POMP_OUTPUT_DIR=single.d ./single > single.txt 2>&1 || { cat single.txt; fail "single ran"; }
assert_eq "$(cat single.txt)" "20 singles, begins 20, ends 20" "every THR_BEGIN_SINGLE has its THR_END_SINGLE"
