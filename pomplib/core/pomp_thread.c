#include "pomp_fd.h"
#include "pomp_thread.h"

#include <fcntl.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pomp_clock.h"
#include "pomp_control.h"
#include "pomp_handoff.h"
#include "pomp_lines.h"
#include "pomp_run.h" /* struct pomp_os_life */
#include "pomp_sampling.h"

#include <pomplib.h>

__thread struct pomp_thread *pomp_tls_thread __attribute__((tls_model("initial-exec")));
/* pomplib.h: the top frame's node of the thread's profile, for its inline
 * counters (published once the thread registered one). */
__thread const void *POMP_Fast_top __attribute__((tls_model("initial-exec")));
/* pomplib.h: set around a lock set call counted inline (POMP_Fast_lock_mark). */
__thread int POMP_Fast_lock_counted __attribute__((tls_model("initial-exec")));
/* pomplib.h: no task deferred on this thread since a task's execution began
 * on it (the task events, the bridges' creations; POMP_Fast_waited). */
__thread int POMP_Fast_children_done __attribute__((tls_model("initial-exec")));
/* pomplib.h: the inline counters of shared objects' code, libpomp's. */
__thread POMP_Fast_count *POMP_Fast_slots __attribute__((tls_model("initial-exec")));
POMP_Fast_count POMP_Fast_none[POMP_FAST_SLOTS];
static int fast_slots_taken;       /* slots assigned to translation units (atomic) */
static uint32_t fast_units_refused; /* units that found none left (atomic): said at the end */

int POMP_Fast_assign(int *base, int n)
{
    int b = __atomic_load_n(base, __ATOMIC_ACQUIRE);
    if (b != -1)
        return b;
    int taken = __atomic_load_n(&fast_slots_taken, __ATOMIC_RELAXED), got;
    do {
        got = n > 0 && taken <= POMP_FAST_SLOTS - n ? taken : -2;
    } while (got >= 0 && !__atomic_compare_exchange_n(&fast_slots_taken, &taken, taken + n, 1,
                                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    int expected = -1; /* another thread's first visit of the unit may come first: its base
                          stands (the slots taken here stay unused) */
    if (!__atomic_compare_exchange_n(base, &expected, got, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return expected;
    if (got < 0)
        __atomic_add_fetch(&fast_units_refused, 1, __ATOMIC_RELAXED);
    return got;
}

/* A thread's inline counters (pomp_thread_fast_register, below). */
enum { FAST_LIVE, FAST_ENDING, FAST_ENDED, FAST_FOLDING, FAST_FOLDED };

/* Every thread record, for the output at the end; written once per thread. */
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pomp_thread *threads_head;
static uint32_t threads_count;
/* Records whose OS thread ended, for the next new thread of their thread
 * number (mark_ended, take_over; pomp_handoff.h, which chains on more slots
 * where every one is taken: only where that allocation fails does a record
 * stay its OS thread's alone, as before takeovers). */
static struct pomp_handoff retired;

/* Who takes a record over: a new thread of the same thread number whose first
 * event is in the region the record's first one was (pomp_thread_register). */
struct role {
    int32_t thread_num;
    const struct POMP_Region_s *first_region;
};

static int same_role(const void *record, const void *arg)
{
    const struct pomp_thread *t = record;
    const struct role *r = arg;
    return t->omp_thread_num == r->thread_num && t->first_region == r->first_region;
}

/* When the calling OS thread began, as its runtime told (pomp_thread_os_begin):
 * CLOCK_MONOTONIC ns, 0 if not told. */
static __thread uint64_t os_thread_began_ns __attribute__((tls_model("initial-exec")));

void pomp_thread_os_begin(void) { os_thread_began_ns = pomp_monotonic_ns(); }

/* An OS thread's first event: where its life and its waits for a CPU start.
 * A thread that has run less than 1 ms waited for a CPU only to start (a
 * team's fresh thread, whose first event comes at once): its waits count from
 * its start, without the read of the kernel's figure, which cost a nested
 * program's 600 fresh threads a tenth of their time (one system call instead
 * of three and a /proc lookup). A thread whose runtime said it began less
 * than 1 ms ago has run less than that: not even that one system call, which
 * on a machine with more threads than CPUs let the team's spinning threads
 * take the CPU from the fresh one (a nested kernel on libgomp, 600 fresh
 * threads a repetition: 115 ms against 36 plain with it, 60 without); its
 * life then runs from that beginning too, as its waits do. */
static void note_os_thread_start(struct pomp_thread *t, pid_t os_tid)
{
    uint64_t now = pomp_monotonic_ns(), began = os_thread_began_ns;
    struct timespec ran;
    t->os_thread_start_ns = now;
    if (began && now - began < 1000000) {
        t->os_thread_start_ns = began;
        t->cpu_wait_at_start = 0;
    } else if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ran) == 0 && ran.tv_sec == 0 &&
               ran.tv_nsec < 1000000) {
        t->cpu_wait_at_start = 0;
    } else {
        t->cpu_wait_at_start = pomp_thread_cpu_wait_ns(os_tid);
    }
}

/* The calling thread's kernel id without a system call (gettid is one: see
 * note_os_thread_start): the C library's CPU-time clock of the thread
 * holds it, in the kernel's encoding of a thread's clock (CPUCLOCK_PID: the
 * id's complement shifted by 3, the low bits 6, per-thread scheduler clock). */
pid_t pomp_own_tid(void)
{
    clockid_t clock;
    if (pthread_getcpuclockid(pthread_self(), &clock) == 0 && (clock & 7) == 6)
        return (pid_t)~(clock >> 3);
    return gettid();
}

/* A new record with its profile and (when tracing) its event log, numbered
 * and listed; NULL if memory ran out. */
static struct pomp_thread *new_record(int32_t thread_id, pid_t os_tid, int32_t device,
                                      uint32_t host_thread)
{
    pomp_ensure_initialized();
    const struct pomp_config *cfg = pomp_config();
    /* its head (writing) and its profile's tail change at every event */
    struct pomp_thread *t = pomp_alloc_lines(sizeof *t);
    if (!t)
        return NULL;
    if (pomp_profile_init(&t->profile, cfg->profile_nodes, pomp_now()) != 0) {
        free(t);
        return NULL;
    }
    pomp_profile_set_throttle(&t->profile, cfg->throttle_visits, cfg->throttle_ns);
    pomp_profile_set_max_depth(&t->profile, cfg->profile_depth);
    t->profile.no_leaves = (uint8_t)pomp_sampling_is_on(); /* a sample finds its region's frame */
    if (cfg->trace)
        pomp_eventlog_alloc(&t->log, cfg->trace_events_per_thread);
    t->omp_thread_num = thread_id;
    t->os_tid = os_tid;
    t->device = device;
    t->host_thread = host_thread;
    /* once per OS thread, at its first event: its share of the run's waits for a CPU */
    if (device < 0)
        note_os_thread_start(t, os_tid);
    else
        t->cpu_wait_at_start = POMP_CPU_WAIT_UNKNOWN;
    t->cpu_wait_at_end = POMP_CPU_WAIT_UNKNOWN;
    t->os_threads = 1;
    t->os_first_ticks = t->profile.frames[0].start;
    pthread_mutex_lock(&threads_lock);
    t->index = threads_count++;
    t->next = threads_head;
    threads_head = t;
    pthread_mutex_unlock(&threads_lock);
    return t;
}

struct pomp_thread *pomp_thread_register_stream(int32_t device, uint32_t host_thread)
{
    return new_record(-1, 0, device, host_thread);
}

/* An OS thread's end, marked by a key's destructor (libgomp's nested teams'
 * fresh threads end with their team, as a thread-per-request server's do). */
static pthread_key_t end_key;
static int end_key_made;

/* At the thread's end or the run's, whichever comes first (the CAS: both may
 * come at once). At its own end, an OS thread that lived less than
 * POMP_CPU_WAIT_UNREAD_NS is not read: its wait counts 0, its life apart. */
static void note_cpu_wait_at_end(struct pomp_thread *t, int own_end)
{
    if (t->device >= 0 || t->cpu_wait_at_start == POMP_CPU_WAIT_UNKNOWN ||
        __atomic_load_n(&t->cpu_wait_at_end, __ATOMIC_RELAXED) != POMP_CPU_WAIT_UNKNOWN)
        return;
    uint64_t now_ns = pomp_monotonic_ns();
    uint64_t life = now_ns > t->os_thread_start_ns ? now_ns - t->os_thread_start_ns : 0;
    int unread = own_end && life < POMP_CPU_WAIT_UNREAD_NS;
    uint64_t unknown = POMP_CPU_WAIT_UNKNOWN;
    uint64_t waited = unread ? t->cpu_wait_at_start : pomp_thread_cpu_wait_ns(t->os_tid);
    if (!__atomic_compare_exchange_n(&t->cpu_wait_at_end, &unknown, waited, 0, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED))
        return;
    if (unread) {
        __atomic_add_fetch(&t->cpu_wait_unread, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&t->cpu_wait_unread_ns, life, __ATOMIC_RELAXED);
    } else {
        __atomic_add_fetch(&t->cpu_wait_life_ns, life, __ATOMIC_RELAXED);
    }
}

void pomp_threads_note_cpu_waits(void)
{
    uint32_t n;
    for (struct pomp_thread *t = pomp_thread_list(&n); t; t = t->next)
        note_cpu_wait_at_end(t, 0);
}

/* Whether the record of a thread whose OS thread ends can stand for the next
 * new thread of its thread number: nothing of it open (its frames, a leaf, its
 * inline counters, which the thread's end folded into it), no trace of its
 * own (a trace's location is one OS thread), measurement still on. Workers,
 * and threads of number 0 too: a server's per-request pthreads, each the
 * master of its own team (2,000 requests made 2,002 records, 44 MB against
 * the plain program's 2 MB, and a profile with a column for each). */
static int can_take_over(const struct pomp_thread *t)
{
    const struct pomp_profile *p = &t->profile;
    return t->device < 0 && t->omp_thread_num >= 0 && t->log.buf == NULL && p->depth == 1 &&
           !p->too_deep && p->leaf.region == NULL && p->nfast == 0 &&
           (!t->fast_keyed || __atomic_load_n(&t->fast_state, __ATOMIC_ACQUIRE) == FAST_ENDED) &&
           __atomic_load_n(&pomp_state, __ATOMIC_ACQUIRE) != POMP_STATE_STOPPED;
}

static void mark_ended(void *arg)
{
    struct pomp_thread *t = arg;
    /* the other keys' destructors of this round may still record events (a
     * bridge's thread end closes the worker's last barrier; the inline
     * counters fold): the end is marked in the next round, after them */
    if (!t->end_deferred) {
        t->end_deferred = 1;
        if (pthread_setspecific(end_key, t) == 0)
            return;
    }
    note_cpu_wait_at_end(t, 1);
    __atomic_store_n(&t->ended_at, pomp_now(), __ATOMIC_RELEASE);
    /* marked as written: the finalizer, which folds the inline counters this
     * reads, waits for it, or it sees measurement stopped */
    if (pomp_tls_thread != t || !pomp_thread_write_begin(t))
        return;
    int free_now = can_take_over(t);
    pomp_thread_write_end(t); /* before a taker marks it written (both would clear the mark) */
    if (free_now) {
        pomp_tls_thread = NULL; /* an event from here on makes or takes a record again */
        pomp_handoff_put(&retired, t);
    }
}

/* The OS threads a record keeps the lives of, at most (the rest: its span). */
#define POMP_OS_LIVES_MAX (1u << 16)

/* The life of the OS thread that held t until now, kept before the next one
 * takes it over: from its first event to the end of its work, its last timed
 * close (else its end). */
static void note_earlier_life(struct pomp_thread *t)
{
    uint32_t n = t->os_threads - 1;
    if (t->earlier_lives_lost)
        return;
    if (n == t->earlier_lives_cap) {
        uint32_t cap = n ? 2 * n : 8;
        struct pomp_os_life *grown =
            cap <= POMP_OS_LIVES_MAX ? realloc(t->earlier_lives, cap * sizeof *grown) : NULL;
        if (!grown) {
            t->earlier_lives_lost = 1;
            return;
        }
        t->earlier_lives = grown;
        t->earlier_lives_cap = cap;
    }
    uint64_t first = t->os_first_ticks, last = t->profile.last_closed;
    uint64_t ended = __atomic_load_n(&t->ended_at, __ATOMIC_ACQUIRE);
    if (last < first)
        last = ended > first ? ended : first;
    t->earlier_lives[n] = (struct pomp_os_life){first, last};
}

/* A record of the thread number whose OS thread ended, made the calling
 * thread's; NULL if there is none (or measurement stopped: the finalizer may
 * be reading them). Its figures go on: the new thread's events add to them,
 * its life runs from the first one's start to the last one's end, its waits
 * for a CPU are theirs added up. */
static struct pomp_thread *take_over(int32_t thread_id, const struct POMP_Region_s *region,
                                     pid_t os_tid)
{
    /* (not the initial thread: pomp-report tells it by its os_tid, the pid, and
     * takes it for the whole run, which an ended request thread's figures in
     * its record would have joined) */
    if (thread_id < 0 || os_tid == pomp_own_pid())
        return NULL;
    struct role role = {thread_id, region};
    struct pomp_thread *t = pomp_handoff_take(&retired, same_role, &role);
    if (!t)
        return NULL;
    if (!pomp_thread_write_begin(t)) /* (the finalizer merges it as it is) */
        return NULL;
    uint64_t waited = pomp_thread_cpu_wait_in_run(t);
    if (waited == POMP_CPU_WAIT_UNKNOWN)
        t->cpu_wait_lost = 1;
    else
        t->cpu_wait_before = waited;
    note_earlier_life(t);
    t->os_tid = os_tid;
    t->os_threads++;
    t->os_first_ticks = pomp_now();
    t->end_deferred = 0;
    t->fast_keyed = 0;
    __atomic_store_n(&t->fast_state, FAST_LIVE, __ATOMIC_RELAXED);
    t->profile.counted = NULL;
    note_os_thread_start(t, os_tid);
    __atomic_store_n(&t->cpu_wait_at_end, POMP_CPU_WAIT_UNKNOWN, __ATOMIC_RELAXED);
    __atomic_store_n(&t->ended_at, 0, __ATOMIC_RELEASE);
    pomp_thread_write_end(t);
    return t;
}

uint64_t pomp_thread_cpu_wait_ns(pid_t os_tid)
{
    char path[64], text[96];
    snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", (int)os_tid);
    /* (at 3 or above: a program started with 0-2 closed reads and writes no
     * file of pomp's there, pomp_fd.h) */
    int fd = pomp_fd_above_std(open(path, O_RDONLY | O_CLOEXEC));
    if (fd < 0)
        return POMP_CPU_WAIT_UNKNOWN;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return POMP_CPU_WAIT_UNKNOWN;
    text[n] = '\0';
    /* "time on a CPU, time waiting for one, time slices": ns, ns, count */
    char *end;
    strtoull(text, &end, 10);
    if (end == text || *end != ' ')
        return POMP_CPU_WAIT_UNKNOWN;
    const char *wait = end + 1;
    unsigned long long ns = strtoull(wait, &end, 10);
    return end == wait ? POMP_CPU_WAIT_UNKNOWN : (uint64_t)ns;
}

uint64_t pomp_thread_cpu_wait_in_run(const struct pomp_thread *t)
{
    if (t->device >= 0 || t->cpu_wait_lost || t->cpu_wait_at_start == POMP_CPU_WAIT_UNKNOWN)
        return POMP_CPU_WAIT_UNKNOWN;
    uint64_t end = __atomic_load_n(&t->cpu_wait_at_end, __ATOMIC_RELAXED);
    if (end == POMP_CPU_WAIT_UNKNOWN)
        return POMP_CPU_WAIT_UNKNOWN;
    return t->cpu_wait_before + (end > t->cpu_wait_at_start ? end - t->cpu_wait_at_start : 0);
}

static void make_end_key(void) { end_key_made = pthread_key_create(&end_key, mark_ended) == 0; }

/* A thread's record being made (its first event): a signal handler's event
 * then (a POMP region in the handler) is not recorded, and counted with the
 * first thread's interrupted events. It made a second record inside the
 * first one's malloc, which aborted (a probe; test_signals). */
static __thread int registering __attribute__((tls_model("initial-exec")));
static struct pomp_thread *thread_register(int32_t thread_id, const struct POMP_Region_s *region);
static uint64_t interrupted_registering;

uint64_t pomp_threads_interrupted_registering(void)
{
    return __atomic_load_n(&interrupted_registering, __ATOMIC_RELAXED);
}

struct pomp_thread *pomp_thread_register(int32_t thread_id, const struct POMP_Region_s *region)
{
    if (registering) {
        __atomic_add_fetch(&interrupted_registering, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    registering = 1;
    struct pomp_thread *t = thread_register(thread_id, region);
    registering = 0;
    return t;
}

static struct pomp_thread *thread_register(int32_t thread_id, const struct POMP_Region_s *region)
{
    static pthread_once_t end_once = PTHREAD_ONCE_INIT;
    pid_t os_tid = pomp_own_tid();
    struct pomp_thread *t = take_over(thread_id, region, os_tid);
    if (!t && (t = new_record(thread_id, os_tid, -1, 0)) != NULL)
        t->first_region = region;
    if (!t)
        return NULL;
    pthread_once(&end_once, make_end_key);
    if (end_key_made)
        pthread_setspecific(end_key, t);
    pomp_tls_thread = t;
    pomp_sampling_thread_begin(); /* threads the OMPT bridge did not announce */
    return t;
}

struct pomp_thread *pomp_thread_list(uint32_t *count)
{
    pthread_mutex_lock(&threads_lock);
    struct pomp_thread *t = threads_head;
    *count = threads_count;
    pthread_mutex_unlock(&threads_lock);
    return t;
}

/* Makes every running thread of the process pass a full memory barrier, so
 * that a writer's mark (pomp_thread_write_begin) and the stopped state are
 * seen in one order by both sides. */
static void barrier_all_threads(void)
{
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return; /* registered at the start (pomp_threads_prepare_quiesce) */
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return;
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0)
        return;
    /* no membarrier (an old kernel): a reordered store is visible within
     * nanoseconds; wait well past that */
    struct timespec pause = {0, 10 * 1000 * 1000};
    nanosleep(&pause, NULL);
}

void pomp_threads_prepare_quiesce(void)
{
    /* while the process has one thread the kernel registers it at once; later
     * it waits for every CPU (~10 ms at the end of a run) */
    (void)syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
}

int pomp_thread_interrupted(struct pomp_thread *t)
{
    __atomic_add_fetch(&t->interrupted_events, 1, __ATOMIC_RELAXED);
    return 0;
}

void pomp_threads_quiesce(void)
{
    barrier_all_threads();
    uint64_t deadline = pomp_monotonic_ns() + 1000000000u;
    uint32_t n, busy = 0;
    for (struct pomp_thread *t = pomp_thread_list(&n); t; t = t->next) {
        if (t == pomp_tls_thread)
            continue;
        while (__atomic_load_n(&t->writing, __ATOMIC_ACQUIRE) && pomp_monotonic_ns() < deadline)
            sched_yield();
        busy += __atomic_load_n(&t->writing, __ATOMIC_ACQUIRE) != 0;
    }
    if (busy)
        fprintf(stderr, "pomp: warning: %u thread%s still recording an event 1 s after the end of "
                        "measurement: %s figures may be off by that event\n",
                busy, busy == 1 ? " was" : "s were", busy == 1 ? "its" : "their");
}

/* ---- inline counters at a thread's end (pomp_thread_fast_register) ----
 * A thread's counters are in its TLS: whoever comes first, the thread's end
 * (the key's destructor) or the finalizer, takes them, and the other waits. */

static pthread_key_t fast_key;
static int fast_key_made;

static void fast_thread_end(void *arg)
{
    struct pomp_thread *t = arg;
    pomp_profile_fast_detach(&t->profile); /* POMP_Fast_top goes with the thread */
    uint32_t live = FAST_LIVE;
    if (!__atomic_compare_exchange_n(&t->fast_state, &live, FAST_ENDING, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        /* the finalizer reads the counters now: they must outlive its reading */
        while (__atomic_load_n(&t->fast_state, __ATOMIC_ACQUIRE) != FAST_FOLDED)
            sched_yield();
        return;
    }
    pomp_profile_fast_save(&t->profile);
    __atomic_store_n(&t->fast_state, FAST_ENDED, __ATOMIC_RELEASE);
    if (pomp_thread_write_begin(t)) { /* else the finalizer folds the saved counts */
        pomp_profile_fast_fold(&t->profile, 0);
        pomp_thread_write_end(t);
    }
    /* no site refers to them now: a thread-per-request server's ended
     * threads keep none */
    free(POMP_Fast_slots);
    POMP_Fast_slots = NULL;
}

static void make_fast_key(void) { fast_key_made = pthread_key_create(&fast_key, fast_thread_end) == 0; }

void pomp_thread_fast_register(struct pomp_thread *t, struct POMP_Fast_count *count,
                               struct POMP_Region_s *r, unsigned events, enum pomp_fast_what what)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    if (__atomic_load_n(&t->fast_state, __ATOMIC_RELAXED) != FAST_LIVE)
        return; /* ending, or measurement is over */
    if (!t->fast_keyed) {
        pthread_once(&once, make_fast_key);
        if (!fast_key_made || pthread_setspecific(fast_key, t) != 0)
            return; /* the site goes on through its POMP calls */
        t->fast_keyed = 1;
        pomp_profile_fast_attach(&t->profile, &POMP_Fast_top);
    }
    if (count >= POMP_Fast_none && count < POMP_Fast_none + POMP_FAST_SLOTS) {
        /* a shared object's site: its counter is this thread's slot (zeroed
         * pages: the ones touched only) */
        if (!POMP_Fast_slots)
            POMP_Fast_slots = calloc(POMP_FAST_SLOTS, sizeof *POMP_Fast_slots);
        if (!POMP_Fast_slots)
            return; /* the site goes on through its POMP calls */
        count = POMP_Fast_slots + (count - POMP_Fast_none);
    }
    pomp_profile_fast_register(&t->profile, count, r, events, what);
}

void pomp_threads_close_open(uint64_t end)
{
    uint32_t n;
    for (struct pomp_thread *t = pomp_thread_list(&n); t; t = t->next)
        pomp_profile_close_open(&t->profile, end);
}

void pomp_threads_fold_fast(void)
{
    uint32_t refused = __atomic_load_n(&fast_units_refused, __ATOMIC_RELAXED);
    if (refused)
        fprintf(stderr, "pomp: note: %u translation unit%s of shared objects found too few of the "
                        "%d inline counters left for %s sites (more sites than that in the shared "
                        "objects loaded, or one loaded again and again): %s atomic, critical and "
                        "task sites made their calls, counted all the same\n",
                refused, refused == 1 ? "" : "s", POMP_FAST_SLOTS, refused == 1 ? "its" : "their",
                refused == 1 ? "its" : "their");
    uint32_t n;
    for (struct pomp_thread *t = pomp_thread_list(&n); t; t = t->next) {
        /* the frames it closes from here on are not its owner's to publish */
        pomp_profile_fast_detach(&t->profile);
        uint32_t state = FAST_LIVE;
        if (__atomic_compare_exchange_n(&t->fast_state, &state, FAST_FOLDING, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            pomp_profile_fast_fold(&t->profile, t == pomp_tls_thread);
            __atomic_store_n(&t->fast_state, FAST_FOLDED, __ATOMIC_RELEASE);
            continue;
        }
        while (state == FAST_ENDING) { /* copying its counts */
            sched_yield();
            state = __atomic_load_n(&t->fast_state, __ATOMIC_ACQUIRE);
        }
        pomp_profile_fast_fold(&t->profile, 0);
    }
}
