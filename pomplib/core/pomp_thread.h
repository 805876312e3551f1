/* Thread records: one per thread that ever recorded an event, numbered in the
 * order threads first appeared (not by omp_get_thread_num, which repeats across
 * teams). Found through a thread-local pointer; registered once under a lock. */
#ifndef POMP_THREAD_H
#define POMP_THREAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pomp_clock.h"
#include "pomp_control.h"
#include "pomp_device_ops.h" /* POMP_STREAM_DEVICE_TRACE */
#include "pomp_eventlog.h"
#include "pomp_levels.h"
#include "pomp_profile.h"
#include "pomp_region.h"

struct pomp_os_life; /* pomp_run.h */

struct pomp_thread {
    uint32_t index;             /* 0, 1, ... in order of first event */
    int32_t omp_thread_num;     /* thread_id argument of the thread's first event */
    pid_t os_tid;
    int32_t device;             /* -1: an OS thread; else a device stream (below) of this device */
    uint32_t writing;           /* an event source is changing this record now (atomic) */
    uint64_t interrupted_events; /* events of a signal handler that came while the thread was
                                    changing its record (inside another event): not recorded */
    uint32_t host_thread;       /* a device stream: the index of the thread that issues its work */
    uint32_t fast_state;        /* its inline counters at its end and at the finalizer (atomic) */
    uint8_t fast_keyed;         /* its end is announced (pomp_thread_fast_register) */
    uint32_t task_ids;          /* task ids it gave (pomp_thread_next_task_id); its own thread only */
    uint64_t team_instance;     /* the team instance it joined last, set by a bridge (0: not
                                   known): the trace record of its Parallel_begin names it */
    uint64_t ended_at;          /* ticks when the OS thread ended (0: it ran to the end; atomic):
                                   threads that never ran at once share a place in the run's
                                   figures (pomp-report) */
    uint64_t cpu_wait_at_start; /* ns its OS thread had waited for a CPU (runnable, not running)
                                   at its first event; 0 where it had run less than 1 ms
                                   then (its waits count from its start); POMP_CPU_WAIT_UNKNOWN:
                                   not known */
    uint64_t cpu_wait_at_end;   /* the same at its end or the run's, whichever came first
                                   (atomic; POMP_CPU_WAIT_UNKNOWN: neither yet, or not known) */
    /* A record stands for OS threads one after another: a thread whose OS
     * thread ended is taken over by the next new thread of the same thread
     * number (libgomp's nested teams start fresh threads on every execution,
     * a server a pthread per request; each would otherwise make and keep
     * records of its own). */
    uint32_t os_threads;        /* the OS threads it stood for (1, 2, ...) */
    const struct POMP_Region_s *first_region; /* the region of its first OS thread's first
                                   event (NULL: not known there): it is handed over only to a
                                   thread whose first event is in the same region, one of the
                                   same role (libgomp's fresh threads of a middle team fork
                                   inner teams, those of an inner team do not: one record of
                                   both mixed a master's shares and a worker's, and an inner
                                   region read longer than the run; a probe) */
    uint64_t os_first_ticks;    /* the present one's first event */
    struct pomp_os_life *earlier_lives; /* the earlier ones', each's first event and the end of
                                   its work (os_threads - 1 of them; grown at a take-over): the
                                   run's places count them apart, where the record's whole
                                   span overlapped another's as two records alternated (6
                                   places for 4; a probe) */
    uint32_t earlier_lives_cap;
    uint8_t earlier_lives_lost; /* memory ran out, or POMP_OS_LIVES_MAX: the span stands */
    uint8_t end_deferred;       /* its end's key destructor asked for the next round */
    uint8_t cpu_wait_lost;      /* an earlier OS thread's wait was not known */
    uint64_t cpu_wait_before;   /* ns the earlier OS threads waited for a CPU */
    uint64_t os_thread_start_ns; /* CLOCK_MONOTONIC at its OS thread's first event, or at its
                                    beginning where its runtime told it (pomp_thread_os_begin) */
    uint64_t cpu_wait_life_ns;  /* the lives of its OS threads whose waits were read, to their
                                   end or the run's (atomic) */
    uint32_t cpu_wait_unread;   /* OS threads that ended within POMP_CPU_WAIT_UNREAD_NS of
                                   their first event: their waits not read (atomic) */
    uint64_t cpu_wait_unread_ns; /* their lives (atomic) */
    struct pomp_thread *next;   /* all threads, newest first */
    struct pomp_eventlog log;
    struct pomp_profile profile;
};

extern __thread struct pomp_thread *pomp_tls_thread __attribute__((tls_model("initial-exec")));

/* The calling thread's record, made or taken over at its first event, of
 * region (NULL: not known there). */
struct pomp_thread *pomp_thread_register(int32_t thread_id, const struct POMP_Region_s *region);
/* The calling OS thread has just begun (a runtime's thread-begin callback of
 * a worker, which the runtime makes and announces as it starts):
 * if its first event comes within 1 ms, it is not asked how long it ran
 * before, and its life counts from its beginning (note_os_thread_start in
 * pomp_thread.c). */
void pomp_thread_os_begin(void);
/* The calling thread's kernel id, without a system call where the C library
 * allows (see pomp_thread.c); gettid() elsewhere. */
pid_t pomp_own_tid(void);

/* The time an OS thread of this process has waited for a CPU since it started
 * (the kernel's run delay, /proc/self/task/TID/schedstat): a thread that was
 * runnable but not running (more threads than CPUs, another process, two
 * threads bound to one CPU), which its profile counts as work or as a wait. ns,
 * or POMP_CPU_WAIT_UNKNOWN (a kernel without scheduler statistics). open and read, no
 * FILE stream: called from a thread's end. */
uint64_t pomp_thread_cpu_wait_ns(pid_t os_tid);
/* At the end of the run: the threads still running note their waits for a
 * CPU so far (the others did at their end). */
void pomp_threads_note_cpu_waits(void);
/* What t waited for a CPU from its first event to its end or to the run's
 * (ns, POMP_CPU_WAIT_UNKNOWN). */
uint64_t pomp_thread_cpu_wait_in_run(const struct pomp_thread *t);
/* An OS thread that ends this soon after its first event (ns) is not asked
 * its wait for a CPU: the read (open, read, close of a /proc file) was most of
 * what a nested team's fresh thread cost under pomp. Its life is said apart. */
#define POMP_CPU_WAIT_UNREAD_NS 1000000u

static inline struct pomp_thread *pomp_thread_self(int32_t thread_id,
                                                   const struct POMP_Region_s *region)
{
    struct pomp_thread *t = pomp_tls_thread;
    if (__builtin_expect(t == NULL, 0))
        t = pomp_thread_register(thread_id, region);
    return t;
}

/* Every change of a thread's record (profile, log, values) is bracketed by
 * these, so that the finalizer merges the records once no thread writes them:
 * the writer marks its record, then looks at the state again, and writes
 * nothing once measurement has stopped (a thread still running when another
 * one calls exit()). The finalizer stores the state, makes every running thread
 * pass a full barrier (membarrier), then waits until no record is marked
 * (pomp_threads_quiesce): the writer's side costs two plain stores and a load. */
/* An event of a signal handler (a POMP region in it) that came while its
 * thread was inside another event: counted, not recorded (written, it
 * changed the record the interrupted event was changing: frames overwritten,
 * a malloc inside malloc; a probe's abort). Returns 0. */
int pomp_thread_interrupted(struct pomp_thread *t) __attribute__((cold, noinline));
/* Such events that came while their thread's record was being made (no
 * record to count them in yet). */
uint64_t pomp_threads_interrupted_registering(void);

static inline __attribute__((always_inline)) int pomp_thread_write_begin(struct pomp_thread *t)
{
    if (__builtin_expect(__atomic_load_n(&t->writing, __ATOMIC_RELAXED), 0) && !pomp_tls_finalizing)
        return pomp_thread_interrupted(t);
    __atomic_store_n(&t->writing, 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the finalizer's membarrier is the hardware fence */
    if (__builtin_expect(__atomic_load_n(&pomp_state, __ATOMIC_RELAXED) == POMP_STATE_STOPPED, 0) &&
        !pomp_tls_finalizing) {
        __atomic_store_n(&t->writing, 0, __ATOMIC_RELEASE);
        pomp_note_event_after_stop(); /* (a runtime's event in a fork()ed child) */
        return 0;
    }
    return 1;
}

static inline __attribute__((always_inline)) void pomp_thread_write_end(struct pomp_thread *t)
{
    __atomic_store_n(&t->writing, 0, __ATOMIC_RELEASE);
}

/* After the state became POMP_STATE_STOPPED: returns once no other thread is
 * inside pomp_thread_write_begin/end (the calling thread is not waited for: a
 * signal may have interrupted it there). Threads that stay inside longer than
 * a second (stopped by a debugger) are said and not waited for. */
void pomp_threads_quiesce(void);
/* At the start of measurement: makes pomp_threads_quiesce cheap. */
void pomp_threads_prepare_quiesce(void);

/* Where r is throttled or the thread is inside a throttled region: whether an
 * event of the given phase still needs a timestamp.
 * A task's execution (the begin and end of a task root) is timed: a
 * task construct is throttled by its creations. The end or exit of a frame
 * that was timed when it opened is timed too (r throttled meanwhile, by a
 * recursion into it or another thread), so that its time holds its
 * children's and its trace records pair; and so is the begin of the block of
 * a construct entered timed (a critical throttled by another thread while this
 * one waited to enter it: its block's end was traced without its begin; a
 * probe). */
static inline int pomp_thread_throttled_needs_time(const struct pomp_thread *t,
                                                   const struct POMP_Region_s *r,
                                                   enum pomp_phase phase)
{
    const struct pomp_profile *p = &t->profile;
    if (r->task_root && (phase == POMP_PHASE_BEGIN || phase == POMP_PHASE_END))
        return 1;
    if (p->too_deep || p->depth <= 1)
        return 0;
    const struct pomp_frame *top = &p->frames[p->depth - 1];
    if (top->region != r || top->untimed || top->skipped)
        return 0;
    return phase == POMP_PHASE_END || phase == POMP_PHASE_EXIT ||
           (phase == POMP_PHASE_BEGIN && top->entered && !top->in_body);
}

static inline int pomp_thread_maybe_untimed(const struct pomp_thread *t,
                                            const struct POMP_Region_s *r)
{
    return __atomic_load_n(&r->throttled, __ATOMIC_RELAXED) || (t->profile.untimed && !r->task_root);
}

/* The timestamp of an event of region r on thread t, or POMP_UNTIMED where it
 * needs none: r is throttled, or the thread is inside a throttled region. */
static inline __attribute__((always_inline)) uint64_t
pomp_thread_clock(const struct pomp_thread *t, const struct POMP_Region_s *r, enum pomp_phase phase)
{
    if (__builtin_expect(pomp_thread_maybe_untimed(t, r), 0))
        return pomp_thread_throttled_needs_time(t, r, phase) ? pomp_now() : POMP_UNTIMED;
    return pomp_now();
}

/* The same for an event whose time the caller read already (a runtime's
 * report: the bridges read the clock once for several records, and some
 * close at an earlier time): `when`, or POMP_UNTIMED, so that a throttled
 * region's events reported by the runtime are counted, not timed and not
 * traced, as the instrumentation's are. */
static inline __attribute__((always_inline)) uint64_t
pomp_thread_time_of(const struct pomp_thread *t, const struct POMP_Region_s *r,
                    enum pomp_phase phase, uint64_t when)
{
    if (__builtin_expect(pomp_thread_maybe_untimed(t, r), 0) &&
        !pomp_thread_throttled_needs_time(t, r, phase))
        return POMP_UNTIMED;
    return when;
}

/* Task ids, which link a task's creation record to its execution's (the
 * trace record's arg; docs/output.md): the thread's index (18 bits) above its
 * own count of ids (32 bits, from 1, skipping 0 when it wraps). Unique in a
 * run without a shared counter, for 2^18 threads and 2^32 tasks each; 50
 * bits, so that a runtime task's one word of tool data holds an id beside a
 * region number and a bit (ompt-bridge/bridge_task.c). Made only for a trace. */
#define POMP_TASK_ID_BITS 50
#define POMP_TASK_ID_THREAD_BITS 18

static inline uint64_t pomp_thread_next_task_id(struct pomp_thread *t)
{
    uint32_t n = ++t->task_ids;
    if (__builtin_expect(n == 0, 0))
        n = ++t->task_ids;
    uint64_t thread = t->index & ((1u << POMP_TASK_ID_THREAD_BITS) - 1);
    return thread << (POMP_TASK_ID_BITS - POMP_TASK_ID_THREAD_BITS) | n;
}

/* now, or the end of the last flush of thread t's trace buffer where that is
 * later: an event recorded after a flush that it set off (or that an earlier
 * record of the same instant did) ends no frame before it, so that the flush,
 * a child of the frame on top, stays inside its parent. A bridge's record of a
 * time known before (a worker's end of a team share at its master's join)
 * reached back into it (children over their parent, own time wrapped below 0;
 * a probe). 0 without a trace; an untimed event (UINT64_MAX) is never below it. */
static inline uint64_t pomp_thread_not_before_flush(const struct pomp_thread *t, uint64_t now)
{
    return __builtin_expect(now < t->log.flushed_at, 0) ? t->log.flushed_at : now;
}

/* One event on thread t's call-path profile and, when tracing, its log: what
 * every event source (POMP routines, the OMPT bridge) does once it has its
 * region and timestamp. Returns a POMP error code, or POMP_PROFILE_SKIPPED
 * when the event changed no figure (and was not logged). new_task: the event
 * creates a task (else NULL): where its record goes into the log and task
 * executions are recorded (POMP_TASK=BeginEnd), it gets a new task id for arg,
 * which *new_task receives (else it is left alone). So a
 * profile without a trace pays nothing for ids, and an id always has its
 * creation record. _marked: the caller holds the record marked
 * (pomp_thread_write_begin); pomp_thread_record_creating marks it itself. */
static inline __attribute__((always_inline)) int32_t
pomp_thread_record_marked(struct pomp_thread *t, struct POMP_Region_s *r, uint64_t now,
                          enum pomp_phase phase, int off, unsigned kind, unsigned group,
                          uint64_t arg, uint64_t *new_task)
{
    int32_t rc;
    /* Not before a flush of the trace buffer that an earlier record of the
     * same instant set off (a bridge records a critical's enter and its wait's
     * with one clock read): the flush's frame ended then, and a record with
     * the older time reached back into it (children over their parent, the
     * flush counted twice, the log out of time order). */
    now = pomp_thread_not_before_flush(t, now);
    switch (phase) {
    case POMP_PHASE_ENTER: rc = pomp_profile_enter(&t->profile, r, now, off); break;
    case POMP_PHASE_BEGIN: {
        struct POMP_Region_s *adopted_from = NULL;
        rc = pomp_profile_begin(&t->profile, r, now, off, &adopted_from);
        if (__builtin_expect(rc == POMP_PROFILE_ADOPTED, 0)) {
            rc = POMP_SUCCESS;
            /* the runtime reports this block too: counted inline (no begin),
             * the runtime's frame would stay its own, each block counted twice */
            if (!__atomic_load_n(&r->keep_entering, __ATOMIC_RELAXED))
                __atomic_store_n(&r->keep_entering, 1, __ATOMIC_RELAXED);
            /* the runtime's masked block (the one kind adoptable: bridge_on_masked)
             * ends in the log where the instrumentation's begins: it stayed open
             * to the team's end, every later construct drawn inside it (a probe) */
            if (now != POMP_UNTIMED && t->log.buf)
                pomp_eventlog_put(&t->log, now, adopted_from->id, POMP_EV_MASTER_END,
                                  POMP_PHASE_END, group, 0);
        }
        break;
    }
    case POMP_PHASE_END: rc = pomp_profile_end(&t->profile, r, now); break;
    case POMP_PHASE_EXIT: rc = pomp_profile_exit(&t->profile, r, now); break;
    default:
        rc = pomp_profile_event(&t->profile, r, now, off, kind == POMP_EV_LOOP_ITER_EVENT);
        break;
    }
    if (__builtin_expect(now == POMP_UNTIMED, 0)) { /* throttled: no place in a trace */
        t->profile.untimed_events++;
    } else if (__builtin_expect(rc != POMP_PROFILE_SKIPPED, 1) && t->log.buf) {
        /* an id only where a task's execution records one to pair it with
         * (not under POMP_TASK=EnterExit: trace.json drew each creation's flow
         * arrow to nowhere; a probe) */
        if (new_task && pomp_level_records(POMP_GROUP_TASK, POMP_LEVEL_BEGINEND))
            arg = *new_task = pomp_thread_next_task_id(t);
        else if (kind == POMP_EV_PARALLEL_BEGIN)
            arg = t->team_instance; /* which team: two of one region at once (nesting) */
        pomp_eventlog_put(&t->log, now, r->id, kind, phase, group, arg);
    }
    return rc;
}

static inline __attribute__((always_inline)) int32_t
pomp_thread_record_creating(struct pomp_thread *t, struct POMP_Region_s *r, uint64_t now,
                            enum pomp_phase phase, int off, unsigned kind, unsigned group,
                            uint64_t arg, uint64_t *new_task)
{
    if (__builtin_expect(!pomp_thread_write_begin(t), 0))
        return POMP_PROFILE_SKIPPED; /* measurement stopped */
    int32_t rc = pomp_thread_record_marked(t, r, now, phase, off, kind, group, arg, new_task);
    pomp_thread_write_end(t);
    return rc;
}

static inline __attribute__((always_inline)) int32_t
pomp_thread_record(struct pomp_thread *t, struct POMP_Region_s *r, uint64_t now,
                   enum pomp_phase phase, int off, unsigned kind, unsigned group, uint64_t arg)
{
    return pomp_thread_record_creating(t, r, now, phase, off, kind, group, arg, NULL);
}

/* A wait or a task's creation counted without a frame (pomp_profile_leaf_open),
 * from tick start: only while the thread writes no trace. Returns 1 if it is
 * open; 0: record it with enter and exit instead. construct: an instrumented
 * construct's enter. */
static inline int pomp_thread_leaf_open_marked(struct pomp_thread *t, struct POMP_Region_s *r,
                                               uint64_t start, int construct)
{
    return !t->log.buf && pomp_profile_leaf_open(&t->profile, r, start, construct);
}

/* The same where the record is not marked yet (pomp_thread_write_begin). */
static inline int pomp_thread_leaf_open(struct pomp_thread *t, struct POMP_Region_s *r,
                                        uint64_t start, int construct)
{
    if (t->log.buf || !pomp_thread_write_begin(t))
        return 0;
    int open = pomp_thread_leaf_open_marked(t, r, start, construct);
    pomp_thread_write_end(t);
    return open;
}

/* The block of region r's frame on top of thread t, ended, goes on to now:
 * the code the compiler put after the structured block (a reduction's
 * combine, lastprivate copies), which is the block's work, not the closing
 * barrier's wait; and back to start where that is earlier than its begin (not
 * 0): the private copies made before the block (pomp_profile_extend_block). */
static inline void pomp_thread_extend_block(struct pomp_thread *t, const struct POMP_Region_s *r,
                                            uint64_t start, uint64_t now)
{
    if (!pomp_thread_write_begin(t))
        return;
    pomp_profile_extend_block(&t->profile, r, start, now);
    pomp_thread_write_end(t);
}

/* Closes the leaf open on thread t (of region r) at now. */
static inline void pomp_thread_leaf_close(struct pomp_thread *t, struct POMP_Region_s *r,
                                          uint64_t now)
{
    if (!pomp_thread_write_begin(t))
        return;
    pomp_profile_leaf_close(&t->profile, r, now);
    pomp_thread_write_end(t);
}

/* The task execution of region r on top of thread t is a runtime's helper, not
 * a task of the program (pomp_profile_uncount_begin). */
static inline void pomp_thread_uncount_task(struct pomp_thread *t, const struct POMP_Region_s *r)
{
    if (pomp_thread_write_begin(t)) {
        pomp_profile_uncount_begin(&t->profile, r);
        pomp_thread_write_end(t);
    }
}

/* A later part of task region r's execution on thread t (pomp_profile_resume:
 * an untied task resumed after a task scheduling point), at `now`, a timestamp
 * (a task's execution is always timed). Logged as a begin of r, which the
 * part's end closes on this thread's trace. Returns as pomp_thread_record. */
static inline int32_t pomp_thread_resume(struct pomp_thread *t, struct POMP_Region_s *r,
                                         uint64_t now, int off, unsigned kind, unsigned group,
                                         uint64_t arg)
{
    if (__builtin_expect(!pomp_thread_write_begin(t), 0))
        return POMP_PROFILE_SKIPPED; /* measurement stopped */
    int32_t rc = pomp_profile_resume(&t->profile, r, now, off);
    if (__builtin_expect(rc != POMP_PROFILE_SKIPPED, 1) && t->log.buf)
        pomp_eventlog_put(&t->log, now, r->id, kind, POMP_PHASE_BEGIN, group, arg);
    pomp_thread_write_end(t);
    return rc;
}

/* Registers the inline counter of a site of region r (pomp_profile_fast_register)
 * and makes sure the thread's end saves the counts: the counters live in the
 * thread's TLS, which goes with it. On the owner thread, outside the hot path
 * (once per site and enclosing frame). */
void pomp_thread_fast_register(struct pomp_thread *t, struct POMP_Fast_count *count,
                               struct POMP_Region_s *r, unsigned events, enum pomp_fast_what what);

/* The finalizer, after pomp_threads_quiesce: adds every thread's inline counts
 * to its profile (reading the counters of threads still running; waiting for a
 * thread that is ending to save its own). */
void pomp_threads_fold_fast(void);

/* The finalizer, after the sources closed what the runtime left open: closes
 * every thread's frames still open at the end of measurement (end, in ticks;
 * pomp_profile_close_open). */
void pomp_threads_close_open(uint64_t end);

/* A device stream: the timeline of what one host thread had a device do
 * (kernels, transfers), recorded by that host thread alone, so it needs no
 * lock. It is a thread record without an OS thread: its profile and event log
 * become a column of the profile and a location of the traces. Registered
 * once per (host thread, device), under the same lock as a thread. */
struct pomp_thread *pomp_thread_register_stream(int32_t device, uint32_t host_thread);

/* All registered threads, newest first, and their number. */
struct pomp_thread *pomp_thread_list(uint32_t *count);

#endif
