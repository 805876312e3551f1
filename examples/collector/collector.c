/* An example collector for the OpenMP collector API (seed 003 §5), as Sun's
 * performance tools used it: preloaded into a program (LD_PRELOAD), it finds
 * __omp_collector_api with dlsym, starts a session and registers for fork
 * events; at each fork it records the new region's id, its parent's, and the
 * master's call stack. A CPU-time timer per thread (started in each OpenMP
 * thread when it first leaves the idle state: OMP_EVENT_THR_END_IDLE) samples
 * the thread's OpenMP state and region id from a signal handler. At exit it prints the
 * forks and the samples, split into "OpenMP Work" and "OpenMP Wait" (§6).
 *
 * Build: cc -shared -fPIC -I<pomp>/include collector.c -o libcollector.so
 * Run:   LD_PRELOAD=./libcollector.so ./app    (app built with pompcc) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "omp_collector_api.h"

enum { MAX_FORKS = 4096, STACK_DEPTH = 16, SAMPLE_USEC = 1000 };

struct fork_record {
    uint64_t id, parent;
    int depth;
    void *stack[STACK_DEPTH];
};

static int (*api)(void *);
static struct fork_record forks[MAX_FORKS]; /* filled by the forking threads */
static unsigned nforks, lost_forks;
static unsigned long samples[THR_LAST_STATE], in_region_samples;

/* Request lists: entries [sz][request][ec][rsz][mem] ended by sz 0, in an
 * int-aligned buffer. Appends an entry with `mem` bytes of room (a multiple of
 * 4) and returns the entry. */
static int32_t *add(int32_t *list, size_t *used, int32_t request, size_t mem)
{
    int32_t *e = list + *used;
    e[0] = (int32_t)(16 + mem);
    e[1] = request;
    e[2] = e[3] = 0;
    *used += 4 + mem / 4;
    list[*used] = 0;
    return e;
}

static uint64_t ask_id(int32_t r)
{
    int32_t list[8];
    size_t used = 0;
    int32_t *e = add(list, &used, r, 8);
    uint64_t id = 0;
    if (api(list) == 0 && e[2] == OMP_ERRCODE_OK)
        memcpy(&id, e + 4, sizeof id);
    return id;
}

/* OMP_EVENT_FORK, on the master thread, before the team starts. */
static void on_fork(OMP_COLLECTORAPI_EVENT event)
{
    (void)event;
    unsigned i = __atomic_fetch_add(&nforks, 1, __ATOMIC_RELAXED);
    if (i >= MAX_FORKS) {
        __atomic_fetch_add(&lost_forks, 1, __ATOMIC_RELAXED);
        return;
    }
    forks[i].id = ask_id(OMP_REQ_CURRENT_PRID);
    forks[i].parent = ask_id(OMP_REQ_PARENT_PRID);
    forks[i].depth = backtrace(forks[i].stack, STACK_DEPTH);
}

/* SIGPROF: the state and region of the thread it interrupted. Both requests
 * are async-signal-safe; the list lives on the handler's stack. */
static void on_sample(int sig)
{
    (void)sig;
    int saved = errno;
    int32_t list[16];
    size_t used = 0;
    int32_t *state = add(list, &used, OMP_REQ_STATE, 12);
    int32_t *prid = add(list, &used, OMP_REQ_CURRENT_PRID, 8);
    if (api(list) == 0 && state[2] == OMP_ERRCODE_OK) {
        int32_t s = state[4];
        if (s > 0 && s < THR_LAST_STATE)
            __atomic_fetch_add(&samples[s], 1, __ATOMIC_RELAXED);
        uint64_t id;
        memcpy(&id, prid + 4, sizeof id);
        if (prid[2] == OMP_ERRCODE_OK && id != 0)
            __atomic_fetch_add(&in_region_samples, 1, __ATOMIC_RELAXED);
    }
    errno = saved;
}

/* A timer on this thread's CPU time that sends it SIGPROF: Linux delivers a
 * process-wide profiling signal to one thread only. */
static __thread int timed;
static void start_thread_timer(void)
{
    if (timed)
        return;
    timed = 1;
    struct sigevent sev = {.sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGPROF};
    sev._sigev_un._tid = (pid_t)syscall(SYS_gettid); /* sigev_notify_thread_id: glibc 2.36 lacks the name */
    timer_t t;
    struct itimerspec every = {{0, SAMPLE_USEC * 1000}, {0, SAMPLE_USEC * 1000}};
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &t) == 0)
        timer_settime(t, 0, &every, NULL);
}

/* OMP_EVENT_THR_END_IDLE: an OpenMP thread is put to work. */
static void on_work(OMP_COLLECTORAPI_EVENT event)
{
    (void)event;
    start_thread_timer();
}

__attribute__((constructor)) static void collector_start(void)
{
    api = (int (*)(void *))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API);
    if (!api) {
        fputs("collector: this program has no __omp_collector_api (not built with pompcc?)\n",
              stderr);
        return;
    }
    /* START and two REGISTERs in one list; each callback is packed after its event */
    int32_t list[32];
    size_t used = 0;
    int32_t *start = add(list, &used, OMP_REQ_START, 0);
    int32_t *reg = add(list, &used, OMP_REQ_REGISTER, 4 + sizeof(void *));
    int32_t *work = add(list, &used, OMP_REQ_REGISTER, 4 + sizeof(void *));
    void (*cb)(OMP_COLLECTORAPI_EVENT) = on_fork;
    reg[4] = OMP_EVENT_FORK;
    memcpy(reg + 5, &cb, sizeof cb);
    cb = on_work;
    work[4] = OMP_EVENT_THR_END_IDLE;
    memcpy(work + 5, &cb, sizeof cb);
    if (api(list) != 0 || start[2] != OMP_ERRCODE_OK || reg[2] != OMP_ERRCODE_OK ||
        work[2] != OMP_ERRCODE_OK) {
        fprintf(stderr, "collector: no session (START %d, REGISTER %d, %d)\n", start[2], reg[2],
                work[2]);
        api = NULL;
        return;
    }
    struct sigaction sa = {.sa_handler = on_sample, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPROF, &sa, NULL);
    start_thread_timer(); /* the initial thread */
}

static const char *state_name(int s)
{
    static const char *const names[THR_LAST_STATE] = {
        [THR_OVHD_STATE] = "overhead",        [THR_WORK_STATE] = "work",
        [THR_IBAR_STATE] = "implicit barrier", [THR_EBAR_STATE] = "explicit barrier",
        [THR_IDLE_STATE] = "idle",             [THR_SERIAL_STATE] = "serial",
        [THR_REDUC_STATE] = "reduction",       [THR_LKWT_STATE] = "lock wait",
        [THR_CTWT_STATE] = "critical wait",    [THR_ODWT_STATE] = "ordered wait",
        [THR_ATWT_STATE] = "atomic wait"};
    return names[s];
}

__attribute__((destructor)) static void collector_report(void)
{
    if (!api)
        return;
    signal(SIGPROF, SIG_IGN); /* the threads' timers may still fire */
    int32_t list[8];
    size_t used = 0;
    add(list, &used, OMP_REQ_STOP, 0);
    api(list);

    unsigned n = nforks < MAX_FORKS ? nforks : MAX_FORKS;
    unsigned nested = 0;
    for (unsigned i = 0; i < n; i++)
        nested += forks[i].parent != 0;
    fprintf(stderr, "collector: %u forks (%u nested, %u not kept)\n", nforks, nested, lost_forks);
    for (unsigned i = 0; i < n && i < 2; i++) {
        fprintf(stderr, "collector: fork of region %llu (parent %llu), master's call stack:\n",
                (unsigned long long)forks[i].id, (unsigned long long)forks[i].parent);
        backtrace_symbols_fd(forks[i].stack, forks[i].depth, STDERR_FILENO);
    }
    /* seed 003 §6: Work = serial, work, reduction; Wait = the waits, idle and overhead */
    unsigned long work = samples[THR_SERIAL_STATE] + samples[THR_WORK_STATE] +
                         samples[THR_REDUC_STATE],
                  total = 0;
    for (int s = 1; s < THR_LAST_STATE; s++) {
        total += samples[s];
        if (samples[s])
            fprintf(stderr, "collector: %8lu samples %s\n", samples[s], state_name(s));
    }
    fprintf(stderr, "collector: OpenMP Work %lu, OpenMP Wait %lu, in a parallel region %lu, "
                    "total %lu samples\n", work, total - work, in_region_samples, total);
}
