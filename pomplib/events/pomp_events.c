/* The POMP event routines (seed 002, Appendix C). Each checks its group's level
 * (one load, one test), resolves its handle, takes a raw timestamp and updates
 * the calling thread's own profile and event log: no lock, no allocation, no
 * system call on this path. The run-time context values (RTC) are accepted as
 * Appendix C defines them; the profile does not keep them yet. */
#define POMP_LIBRARY_BUILD_ /* the _slow routines: cold for their callers, not compiled as cold here */
#include <pomplib.h>

#include "pomp_clock.h"
#include "pomp_record.h"

/* Short names of enum pomp_phase (pomp_eventlog.h). */
#define PHASE_ENTER POMP_PHASE_ENTER
#define PHASE_BEGIN POMP_PHASE_BEGIN
#define PHASE_END POMP_PHASE_END
#define PHASE_EXIT POMP_PHASE_EXIT
#define PHASE_EVENT POMP_PHASE_EVENT

/* Levels (Appendix C, last column) under which each kind of routine records. */
enum {
    EE = POMP_LEVEL_ENTEREXIT,
    BE = POMP_LEVEL_BEGINEND,
    EV = POMP_LEVEL_EVENT,
    ENTER_EXIT = EE | BE,                     /* "EnterExit or BeginEnd" */
    BEGIN_END = BE,
    LOOP_ENTER_EXIT = EE | POMP_LEVEL_CHUNKS | POMP_LEVEL_ITEREVENT | POMP_LEVEL_ITERBEGINEND,
    SYNC_SINGLE = EV | EE | BE,               /* atomic, flush: any level but none */
    RUNTIME_BOTH = EE | EV,                   /* "EnterExit or Event" */
};

/* An event that follows a mutex's acquisition (a critical's or ordered
 * block's begin, a lock set's exit or event, a test lock's event): its time
 * is read after the acquisition completed (pomp_clock_settle), so that a
 * trace never shows it before the previous holder's release. kind is a
 * constant in every routine: the test folds away. */
static inline int acquires_mutex(enum pomp_event_kind kind)
{
    switch (kind) {
    case POMP_EV_CRITICAL_BEGIN: case POMP_EV_ORDERED_BEGIN:
    case POMP_EV_SET_LOCK_EXIT: case POMP_EV_SET_NEST_LOCK_EXIT:
    case POMP_EV_SET_LOCK_EVENT: case POMP_EV_SET_NEST_LOCK_EVENT:
    case POMP_EV_TEST_LOCK_EVENT: case POMP_EV_TEST_NEST_LOCK_EVENT:
        return 1;
    default:
        return 0;
    }
}

/* first: the construct's first event, which gets the handle's address and may
 * initialize it from ctc; the later events get the handle itself. arg goes to
 * the trace record (lock address, num_threads, task id). new_task: a task's
 * creation, whose trace record gets a new task id, stored there (else left as
 * it was: the instrumentation's 0; pomp_thread_record_creating); NULL for
 * every other event. */
static inline __attribute__((always_inline)) POMP_Int32
record_any(int first, POMP_Handle_t *handle_ptr, POMP_Handle_t handle, const char *ctc,
           POMP_Int32 thread_id, enum pomp_phase phase, enum pomp_event_kind kind,
           enum pomp_group group, unsigned levels, uint64_t arg, POMP_Task_id *new_task, int leaf)
{
    if (!pomp_level_wants(group, levels))
        return POMP_SUCCESS;
    /* The state before the handle: a stopped or disabled library (a fork()ed
     * child too, whose registry lock may be held forever) creates no region. */
    int state = __atomic_load_n(&pomp_state, __ATOMIC_RELAXED);
    if (__builtin_expect(state != POMP_STATE_ON, 0)) {
        if (state == POMP_STATE_UNINITIALIZED) { /* another thread is initializing */
            pomp_ensure_initialized();
            state = __atomic_load_n(&pomp_state, __ATOMIC_ACQUIRE);
        }
        if (state == POMP_STATE_STOPPED) {
            pomp_note_event_after_stop();
            if (first)
                pomp_note_construct_after_exit(ctc);
            return POMP_ERR_FINALIZED;
        }
        if (state == POMP_STATE_DISABLED)
            return POMP_SUCCESS;
    }
    int off = state == POMP_STATE_OFF;
    POMP_Int32 rc = POMP_SUCCESS;
    struct POMP_Region_s *r = first ? pomp_region_resolve(handle_ptr, ctc, &rc) : handle;
    if (__builtin_expect(r == NULL, 0))
        return first ? rc : POMP_ERR_NO_CONTEXT;
    if (__builtin_expect(r->filtered_out, 0)) { /* POMP_FILTER_*, decided when the region was made */
        if (!__atomic_load_n(&r->filtered_ran, __ATOMIC_RELAXED))
            __atomic_store_n(&r->filtered_ran, 1, __ATOMIC_RELAXED);
        if (!r->filtered_frame || phase == POMP_PHASE_EVENT)
            return rc;
        off = 1; /* a frame that records nothing, as while paused: the bridge finds it */
    }
    struct pomp_thread *t = pomp_tls_thread;
    if (__builtin_expect(t == NULL, 0)) /* the thread's first event */
        t = pomp_thread_register(thread_id == POMP_THREAD_SELF ? POMP_Thread_num() : thread_id, r);
    if (__builtin_expect(t == NULL, 0))
        return POMP_ERR_NO_MEMORY;
    /* from the clock on, the thread's record is read and written: marked, so that
     * a finalizer (exit() on another thread) waits for it (pomp_thread.h) */
    if (__builtin_expect(!pomp_thread_write_begin(t), 0))
        return rc; /* measurement stopped */
    if (acquires_mutex(kind) && t->log.buf) /* (a trace is written) */
        pomp_clock_settle();
    uint64_t now = r->filtered_out ? 0 : pomp_thread_clock(t, r, phase);
    /* a wait or a task's creation: without a frame where it can */
    if (leaf && phase == PHASE_ENTER && !off && pomp_thread_leaf_open_marked(t, r, now, 1)) {
        pomp_thread_write_end(t);
        return rc;
    }
    if (leaf && phase == PHASE_EXIT && pomp_profile_leaf_is(&t->profile, r)) {
        /* timed at its enter: timed at its exit, throttled since or not */
        pomp_profile_leaf_close(&t->profile, r, now == POMP_UNTIMED ? pomp_now() : now);
        pomp_thread_write_end(t);
        return rc;
    }
    POMP_Int32 prc = pomp_thread_record_marked(t, r, now, phase, off, kind, group, arg, new_task);
    pomp_thread_write_end(t);
    if (__builtin_expect(prc == POMP_PROFILE_SKIPPED, 0))
        return rc;
    return rc != POMP_SUCCESS ? rc : prc;
}

static inline __attribute__((always_inline)) POMP_Int32
record_task(int first, POMP_Handle_t *handle_ptr, POMP_Handle_t handle, const char *ctc,
            POMP_Int32 thread_id, enum pomp_phase phase, enum pomp_event_kind kind,
            enum pomp_group group, unsigned levels, uint64_t arg, POMP_Task_id *new_task)
{
    return record_any(first, handle_ptr, handle, ctc, thread_id, phase, kind, group, levels, arg,
                      new_task, 0);
}

static inline __attribute__((always_inline)) POMP_Int32
record_arg(int first, POMP_Handle_t *handle_ptr, POMP_Handle_t handle, const char *ctc,
           POMP_Int32 thread_id, enum pomp_phase phase, enum pomp_event_kind kind,
           enum pomp_group group, unsigned levels, uint64_t arg)
{
    return record_task(first, handle_ptr, handle, ctc, thread_id, phase, kind, group, levels, arg,
                       NULL);
}

static inline __attribute__((always_inline)) POMP_Int32
record(int first, POMP_Handle_t *handle_ptr, POMP_Handle_t handle, const char *ctc,
       POMP_Int32 thread_id, enum pomp_phase phase, enum pomp_event_kind kind,
       enum pomp_group group, unsigned levels)
{
    return record_arg(first, handle_ptr, handle, ctc, thread_id, phase, kind, group, levels, 0);
}

/* The two shapes most routines have. */
#define FIRST_EVENT(name, id, group, levels, phase)                                             \
    POMP_Int32 POMP_##name(POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[])       \
    {                                                                                           \
        return record(1, handle, NULL, ctc, thread_id, phase, POMP_EV_##id, group, levels);     \
    }
#define LATER_EVENT(name, id, group, levels, phase)                                             \
    POMP_Int32 POMP_##name(POMP_Handle_t handle, POMP_Int32 thread_id)                          \
    {                                                                                           \
        return record(0, NULL, handle, NULL, thread_id, phase, POMP_EV_##id, group, levels);    \
    }

/* The same for the enter and exit of a wait or a task's creation (leaf). */
#define FIRST_LEAF(name, id, group, levels)                                                     \
    POMP_Int32 POMP_##name(POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[])       \
    {                                                                                           \
        return record_any(1, handle, NULL, ctc, thread_id, PHASE_ENTER, POMP_EV_##id, group,    \
                          levels, 0, NULL, 1);                                                  \
    }
#define LATER_LEAF(name, id, group, levels)                                                     \
    POMP_Int32 POMP_##name(POMP_Handle_t handle, POMP_Int32 thread_id)                          \
    {                                                                                           \
        return record_any(0, NULL, handle, NULL, thread_id, PHASE_EXIT, POMP_EV_##id, group,    \
                          levels, 0, NULL, 1);                                                  \
    }

/* ---- Parallel ---- */
POMP_Int32 POMP_Parallel_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int32 num_threads,
                               POMP_Int32 if_expr_result, const char ctc[])
{
    (void)if_expr_result;
    return record_arg(1, handle, NULL, ctc, thread_id, PHASE_ENTER, POMP_EV_PARALLEL_ENTER,
                      POMP_GROUP_PARALLEL, ENTER_EXIT, num_threads > 0 ? (uint64_t)num_threads : 0);
}
LATER_EVENT(Parallel_begin, PARALLEL_BEGIN, POMP_GROUP_PARALLEL, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Parallel_end, PARALLEL_END, POMP_GROUP_PARALLEL, BEGIN_END, PHASE_END)
LATER_EVENT(Parallel_exit, PARALLEL_EXIT, POMP_GROUP_PARALLEL, ENTER_EXIT, PHASE_EXIT)

/* ---- Loop: chunks and iterations are begin/end of the loop's own region ---- */
POMP_Int32 POMP_Loop_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int64 chunk_size,
                           POMP_Int64 init_iter, POMP_Int64 final_iter, POMP_Int64 incr,
                           const char ctc[])
{
    (void)chunk_size;
    (void)init_iter;
    (void)final_iter;
    (void)incr;
    return record(1, handle, NULL, ctc, thread_id, PHASE_ENTER, POMP_EV_LOOP_ENTER,
                  POMP_GROUP_LOOP, LOOP_ENTER_EXIT);
}
POMP_Int32 POMP_Loop_chunk_begin(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Int64 init_iter,
                                 POMP_Int64 final_iter)
{
    (void)init_iter;
    (void)final_iter;
    return record(0, NULL, handle, NULL, thread_id, PHASE_BEGIN, POMP_EV_LOOP_CHUNK_BEGIN,
                  POMP_GROUP_LOOP, POMP_LEVEL_CHUNKS);
}
POMP_Int32 POMP_Loop_iter_begin(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Int64 iter)
{
    (void)iter;
    return record(0, NULL, handle, NULL, thread_id, PHASE_BEGIN, POMP_EV_LOOP_ITER_BEGIN,
                  POMP_GROUP_LOOP, POMP_LEVEL_ITERBEGINEND);
}
POMP_Int32 POMP_Loop_iter_event(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Int64 iter)
{
    (void)iter;
    return record(0, NULL, handle, NULL, thread_id, PHASE_EVENT, POMP_EV_LOOP_ITER_EVENT,
                  POMP_GROUP_LOOP, POMP_LEVEL_ITEREVENT);
}
LATER_EVENT(Loop_iter_end, LOOP_ITER_END, POMP_GROUP_LOOP, POMP_LEVEL_ITERBEGINEND, PHASE_END)
LATER_EVENT(Loop_chunk_end, LOOP_CHUNK_END, POMP_GROUP_LOOP, POMP_LEVEL_CHUNKS, PHASE_END)
LATER_EVENT(Loop_exit, LOOP_EXIT, POMP_GROUP_LOOP, LOOP_ENTER_EXIT, PHASE_EXIT)

/* ---- Workshare ---- */
FIRST_EVENT(Workshare_enter, WORKSHARE_ENTER, POMP_GROUP_WORKSHARE, ENTER_EXIT, PHASE_ENTER)
LATER_EVENT(Workshare_begin, WORKSHARE_BEGIN, POMP_GROUP_WORKSHARE, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Workshare_end, WORKSHARE_END, POMP_GROUP_WORKSHARE, BEGIN_END, PHASE_END)
LATER_EVENT(Workshare_exit, WORKSHARE_EXIT, POMP_GROUP_WORKSHARE, ENTER_EXIT, PHASE_EXIT)
FIRST_EVENT(Sections_enter, SECTIONS_ENTER, POMP_GROUP_WORKSHARE, ENTER_EXIT, PHASE_ENTER)
POMP_Int32 POMP_Section_begin(POMP_Handle_t handle, POMP_Int32 section_num, POMP_Int32 thread_id)
{
    (void)section_num;
    return record(0, NULL, handle, NULL, thread_id, PHASE_BEGIN, POMP_EV_SECTION_BEGIN,
                  POMP_GROUP_WORKSHARE, BEGIN_END);
}
LATER_EVENT(Section_end, SECTION_END, POMP_GROUP_WORKSHARE, BEGIN_END, PHASE_END)
LATER_EVENT(Sections_exit, SECTIONS_EXIT, POMP_GROUP_WORKSHARE, ENTER_EXIT, PHASE_EXIT)
FIRST_EVENT(Single_enter, SINGLE_ENTER, POMP_GROUP_WORKSHARE, ENTER_EXIT, PHASE_ENTER)
LATER_EVENT(Single_begin, SINGLE_BEGIN, POMP_GROUP_WORKSHARE, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Single_end, SINGLE_END, POMP_GROUP_WORKSHARE, BEGIN_END, PHASE_END)
LATER_EVENT(Single_exit, SINGLE_EXIT, POMP_GROUP_WORKSHARE, ENTER_EXIT, PHASE_EXIT)

/* ---- Sync ---- */
FIRST_EVENT(Critical_enter, CRITICAL_ENTER, POMP_GROUP_SYNC, ENTER_EXIT, PHASE_ENTER)
LATER_EVENT(Critical_begin, CRITICAL_BEGIN, POMP_GROUP_SYNC, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Critical_end, CRITICAL_END, POMP_GROUP_SYNC, BEGIN_END, PHASE_END)
LATER_EVENT(Critical_exit, CRITICAL_EXIT, POMP_GROUP_SYNC, ENTER_EXIT, PHASE_EXIT)
FIRST_EVENT(Master_begin, MASTER_BEGIN, POMP_GROUP_SYNC, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Master_end, MASTER_END, POMP_GROUP_SYNC, BEGIN_END, PHASE_END)
FIRST_LEAF(Barrier_enter, BARRIER_ENTER, POMP_GROUP_SYNC, ENTER_EXIT)
LATER_LEAF(Barrier_exit, BARRIER_EXIT, POMP_GROUP_SYNC, ENTER_EXIT)
FIRST_LEAF(Implicit_barrier_enter, IMPLICIT_BARRIER_ENTER, POMP_GROUP_SYNC, ENTER_EXIT)
LATER_LEAF(Implicit_barrier_exit, IMPLICIT_BARRIER_EXIT, POMP_GROUP_SYNC, ENTER_EXIT)
FIRST_EVENT(Flush_event, FLUSH_EVENT, POMP_GROUP_SYNC, SYNC_SINGLE, PHASE_EVENT)
FIRST_EVENT(Atomic_event, ATOMIC_EVENT, POMP_GROUP_SYNC, SYNC_SINGLE, PHASE_EVENT)
/* The same events for a site with an inline counter: once the region is
 * throttled, the counter takes the site's next visits on this call path. */
static __attribute__((noinline, cold)) void offer_fast_count(POMP_Handle_t r, POMP_Fast_count *count,
                                                             unsigned events,
                                                             enum pomp_fast_what what,
                                                             enum pomp_group group, unsigned levels)
{
    struct pomp_thread *t = pomp_tls_thread;
    if (!count || !t || __atomic_load_n(&pomp_state, __ATOMIC_RELAXED) != POMP_STATE_ON ||
        !pomp_level_wants(group, levels) || !pomp_thread_write_begin(t))
        return;
    pomp_thread_fast_register(t, count, r, events, what);
    pomp_thread_write_end(t);
}

/* After a site's recorded event (rc): once its region r is throttled, the
 * site's counter is offered. */
static inline __attribute__((always_inline)) void
offer_when_throttled(POMP_Handle_t r, POMP_Int32 rc, POMP_Fast_count *count, unsigned events,
                     enum pomp_fast_what what, enum pomp_group group, unsigned levels)
{
    if (__builtin_expect(r && __atomic_load_n(&r->throttled, __ATOMIC_RELAXED), 0) &&
        rc == POMP_SUCCESS)
        offer_fast_count(r, count, events, what, group, levels);
}

/* An event without duration (an atomic, a test of a lock): without a trace to
 * place it in, nothing of it is timed, and its site is counted inline from
 * its first execution (unless POMP_THROTTLE=off asks for every event through
 * the calls). */
static void offer_event_count(POMP_Handle_t r, POMP_Int32 rc, POMP_Fast_count *count,
                              enum pomp_group group, unsigned levels)
{
    const struct pomp_config *cfg = pomp_config();
    if (r && rc == POMP_SUCCESS && !cfg->trace && cfg->throttle_visits)
        offer_fast_count(r, count, 1, POMP_FAST_VISIT, group, levels);
    else
        offer_when_throttled(r, rc, count, 1, POMP_FAST_VISIT, group, levels);
}

POMP_Int32 POMP_Atomic_event_slow(POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[],
                                   POMP_Fast_count *count)
{
    POMP_Int32 rc = record(1, handle, NULL, ctc, thread_id, PHASE_EVENT, POMP_EV_ATOMIC_EVENT,
                           POMP_GROUP_SYNC, SYNC_SINGLE);
    offer_event_count(handle ? *handle : NULL, rc, count, POMP_GROUP_SYNC, SYNC_SINGLE);
    return rc;
}

/* The exit of a site with an inline counter: once its region is throttled,
 * the counter is offered (events: POMP events a visit stands for). */
static inline __attribute__((always_inline)) POMP_Int32
exit_count_arg(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Fast_count *count,
               enum pomp_event_kind kind, enum pomp_group group, unsigned events,
               enum pomp_fast_what what, int leaf, uint64_t arg)
{
    POMP_Int32 rc = record_any(0, NULL, handle, NULL, thread_id, PHASE_EXIT, kind, group,
                               ENTER_EXIT, arg, NULL, leaf);
    offer_when_throttled(handle, rc, count, events, what, group, ENTER_EXIT);
    return rc;
}

static inline __attribute__((always_inline)) POMP_Int32
exit_count(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Fast_count *count,
           enum pomp_event_kind kind, enum pomp_group group, unsigned events,
           enum pomp_fast_what what, int leaf)
{
    return exit_count_arg(handle, thread_id, count, kind, group, events, what, leaf, 0);
}

POMP_Int32 POMP_Critical_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Fast_count *count)
{
    return exit_count(handle, thread_id, count, POMP_EV_CRITICAL_EXIT, POMP_GROUP_SYNC, 4,
                      POMP_FAST_VISIT_BEGIN, 0);
}

/* A master or masked block with an inline counter: once throttled, the
 * counter takes the site's next blocks on this call path (a begin and an end
 * each). */
#define BLOCK_END_SLOW(name, id)                                                                \
    POMP_Int32 POMP_##name##_slow(POMP_Handle_t handle, POMP_Int32 thread_id,                   \
                                  POMP_Fast_count *count)                                       \
    {                                                                                           \
        POMP_Int32 rc = record(0, NULL, handle, NULL, thread_id, PHASE_END, POMP_EV_##id,       \
                               POMP_GROUP_SYNC, BEGIN_END);                                     \
        offer_when_throttled(handle, rc, count, 2, POMP_FAST_BEGIN, POMP_GROUP_SYNC, BEGIN_END); \
        return rc;                                                                              \
    }
BLOCK_END_SLOW(Master_end, MASTER_END)
BLOCK_END_SLOW(Masked_end, MASKED_END)
#undef BLOCK_END_SLOW

FIRST_EVENT(Ordered_enter, ORDERED_ENTER, POMP_GROUP_SYNC, ENTER_EXIT, PHASE_ENTER)
LATER_EVENT(Ordered_begin, ORDERED_BEGIN, POMP_GROUP_SYNC, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Ordered_end, ORDERED_END, POMP_GROUP_SYNC, BEGIN_END, PHASE_END)
LATER_EVENT(Ordered_exit, ORDERED_EXIT, POMP_GROUP_SYNC, ENTER_EXIT, PHASE_EXIT)
POMP_Int32 POMP_Ordered_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Fast_count *count)
{
    return exit_count(handle, thread_id, count, POMP_EV_ORDERED_EXIT, POMP_GROUP_SYNC, 4,
                      POMP_FAST_VISIT_BEGIN, 0);
}

/* ---- User: Function_event is the cheap alternative to begin/end (level Event
 * only); User_event has no alternative and records under Event and BeginEnd. ---- */
FIRST_EVENT(Function_enter, FUNCTION_ENTER, POMP_GROUP_USER, ENTER_EXIT, PHASE_ENTER)
FIRST_EVENT(Function_begin, FUNCTION_BEGIN, POMP_GROUP_USER, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Function_end, FUNCTION_END, POMP_GROUP_USER, BEGIN_END, PHASE_END)
LATER_EVENT(Function_exit, FUNCTION_EXIT, POMP_GROUP_USER, ENTER_EXIT, PHASE_EXIT)
FIRST_EVENT(Function_event, FUNCTION_EVENT, POMP_GROUP_USER, EV, PHASE_EVENT)
FIRST_EVENT(User_region_begin, USER_REGION_BEGIN, POMP_GROUP_USER, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(User_region_end, USER_REGION_END, POMP_GROUP_USER, BEGIN_END, PHASE_END)
FIRST_EVENT(User_event, USER_EVENT, POMP_GROUP_USER, EV | BE, PHASE_EVENT)

/* ---- Runtime: locks ---- */
#define LOCK_EVENT(name, id, levels, phase)                                                     \
    POMP_Int32 POMP_##name(POMP_Handle_t *handle, POMP_Int32 thread_id, const void *lock_id,    \
                           const char ctc[])                                                    \
    {                                                                                           \
        return record_arg(1, handle, NULL, ctc, thread_id, phase, POMP_EV_##id,                 \
                          POMP_GROUP_RUNTIME, levels, (uintptr_t)lock_id);                      \
    }
LOCK_EVENT(Init_lock_event, INIT_LOCK_EVENT, RUNTIME_BOTH, PHASE_EVENT)
LOCK_EVENT(Destroy_lock_event, DESTROY_LOCK_EVENT, RUNTIME_BOTH, PHASE_EVENT)
LOCK_EVENT(Set_lock_enter, SET_LOCK_ENTER, EE, PHASE_ENTER)
LOCK_EVENT(Set_lock_event, SET_LOCK_EVENT, EV, PHASE_EVENT)
LOCK_EVENT(Unset_lock_event, UNSET_LOCK_EVENT, RUNTIME_BOTH, PHASE_EVENT)
LOCK_EVENT(Init_nest_lock_event, INIT_NEST_LOCK_EVENT, RUNTIME_BOTH, PHASE_EVENT)
LOCK_EVENT(Destroy_nest_lock_event, DESTROY_NEST_LOCK_EVENT, RUNTIME_BOTH, PHASE_EVENT)
LOCK_EVENT(Set_nest_lock_enter, SET_NEST_LOCK_ENTER, EE, PHASE_ENTER)
LOCK_EVENT(Set_nest_lock_event, SET_NEST_LOCK_EVENT, EV, PHASE_EVENT)
LOCK_EVENT(Unset_nest_lock_event, UNSET_NEST_LOCK_EVENT, RUNTIME_BOTH, PHASE_EVENT)

POMP_Int32 POMP_Set_lock_exit(POMP_Handle_t handle, POMP_Int32 thread_id, const void *lock_id)
{
    return record_arg(0, NULL, handle, NULL, thread_id, PHASE_EXIT, POMP_EV_SET_LOCK_EXIT,
                      POMP_GROUP_RUNTIME, EE, (uintptr_t)lock_id);
}
POMP_Int32 POMP_Set_nest_lock_exit(POMP_Handle_t handle, POMP_Int32 thread_id, const void *lock_id)
{
    return record_arg(0, NULL, handle, NULL, thread_id, PHASE_EXIT, POMP_EV_SET_NEST_LOCK_EXIT,
                      POMP_GROUP_RUNTIME, EE, (uintptr_t)lock_id);
}

/* A lock call site with an inline counter (omp_set_lock's enter and exit, its
 * acquisition event only at the Event level; omp_unset_lock's event): once
 * its region is throttled, the counter takes the site's next calls on this
 * call path, as a critical's (a set's wait is its time, untimed from then on,
 * and pomp-report says so). Never while tracing: a trace pairs each lock's
 * acquisitions and releases, and a traced lock site is never throttled. The
 * _slow set site of an object instrumented before the mark (below) not while
 * a bridge follows the runtime's lock waits either (pomp_fast_lock_sets_allowed):
 * the bridge cannot tell its counted calls' acquisitions, whose waits would go
 * beside the call. */
#define SET_LOCK_EXIT_SLOW(name, id)                                                            \
    POMP_Int32 POMP_##name##_slow(POMP_Handle_t handle, POMP_Int32 thread_id,                   \
                                  const void *lock_id, POMP_Fast_count *count)                  \
    {                                                                                           \
        return exit_count_arg(handle, thread_id, pomp_fast_lock_sets_allowed() ? count : NULL,  \
                              POMP_EV_##id, POMP_GROUP_RUNTIME, 2, POMP_FAST_VISIT, 0,          \
                              (uintptr_t)lock_id);                                              \
    }
SET_LOCK_EXIT_SLOW(Set_lock_exit, SET_LOCK_EXIT)
SET_LOCK_EXIT_SLOW(Set_nest_lock_exit, SET_NEST_LOCK_EXIT)
#undef SET_LOCK_EXIT_SLOW
/* A set site that marks its counted calls (POMP_Fast_lock_mark): a bridge
 * following the lock waits leaves a marked call's acquisition alone, so its
 * counter is offered then too: a throttled set site no longer makes its calls
 * (and the bridge's, each acquisition: a hot lock loop in a program with
 * another lock call left to the runtime took 10 times its plain time). */
#define SET_LOCK_EXIT_MARKED(name, id)                                                          \
    POMP_Int32 POMP_##name##_marked(POMP_Handle_t handle, POMP_Int32 thread_id,                 \
                                    const void *lock_id, POMP_Fast_count *count)                \
    {                                                                                           \
        return exit_count_arg(handle, thread_id, count, POMP_EV_##id, POMP_GROUP_RUNTIME, 2,    \
                              POMP_FAST_VISIT, 0, (uintptr_t)lock_id);                          \
    }
SET_LOCK_EXIT_MARKED(Set_lock_exit, SET_LOCK_EXIT)
SET_LOCK_EXIT_MARKED(Set_nest_lock_exit, SET_NEST_LOCK_EXIT)
#undef SET_LOCK_EXIT_MARKED
#define UNSET_LOCK_SLOW(name, id)                                                               \
    POMP_Int32 POMP_##name##_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,                  \
                                  const void *lock_id, const char ctc[],                        \
                                  POMP_Fast_count *count)                                       \
    {                                                                                           \
        POMP_Int32 rc = record_arg(1, handle, NULL, ctc, thread_id, PHASE_EVENT, POMP_EV_##id,  \
                                   POMP_GROUP_RUNTIME, RUNTIME_BOTH, (uintptr_t)lock_id);       \
        offer_when_throttled(handle ? *handle : NULL, rc, count, 1, POMP_FAST_VISIT,            \
                             POMP_GROUP_RUNTIME, RUNTIME_BOTH);                                 \
        return rc;                                                                              \
    }
UNSET_LOCK_SLOW(Unset_lock_event, UNSET_LOCK_EVENT)
UNSET_LOCK_SLOW(Unset_nest_lock_event, UNSET_NEST_LOCK_EVENT)
#undef UNSET_LOCK_SLOW

#define TEST_LOCK_EVENT(name, id)                                                               \
    POMP_Int32 POMP_##name(POMP_Handle_t *handle, POMP_Int32 thread_id, const void *lock_id,    \
                           POMP_Int32 was_lock_set, const char ctc[])                           \
    {                                                                                           \
        /* the trace sees an acquisition only when the test took the lock */                  \
        return record_arg(1, handle, NULL, ctc, thread_id, PHASE_EVENT, POMP_EV_##id,           \
                          POMP_GROUP_RUNTIME, RUNTIME_BOTH,                                     \
                          was_lock_set ? (uintptr_t)lock_id : 0);                               \
    }
TEST_LOCK_EVENT(Test_lock_event, TEST_LOCK_EVENT)
TEST_LOCK_EVENT(Test_nest_lock_event, TEST_NEST_LOCK_EVENT)
#undef TEST_LOCK_EVENT
/* A test site with an inline counter: a test never waits, an event without
 * duration as an atomic is, counted inline from its first execution when no
 * trace is written (a trace takes the lock's acquisitions from these events).
 * Before (2026-12-06) each throttled test made its call, about 120
 * instructions a poll of a spin-on-test loop (a probe). */
#define TEST_LOCK_SLOW(name)                                                                    \
    POMP_Int32 POMP_##name##_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,                  \
                                  const void *lock_id, POMP_Int32 was_lock_set,                 \
                                  const char ctc[], POMP_Fast_count *count)                     \
    {                                                                                           \
        POMP_Int32 rc = POMP_##name(handle, thread_id, lock_id, was_lock_set, ctc);             \
        offer_event_count(handle ? *handle : NULL, rc, count, POMP_GROUP_RUNTIME,               \
                          RUNTIME_BOTH);                                                        \
        return rc;                                                                              \
    }
TEST_LOCK_SLOW(Test_lock_event)
TEST_LOCK_SLOW(Test_nest_lock_event)
#undef TEST_LOCK_SLOW

/* ---- Runtime: the other API calls (Table 8), single events with the value set or returned ---- */
#define VALUE_EVENT(name, id)                                                                   \
    POMP_Int32 POMP_##name(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int32 value,       \
                           const char ctc[])                                                    \
    {                                                                                           \
        (void)value;                                                                            \
        return record(1, handle, NULL, ctc, thread_id, PHASE_EVENT, POMP_EV_##id,               \
                      POMP_GROUP_RUNTIME, EV);                                                  \
    }
VALUE_EVENT(Set_num_threads_event, SET_NUM_THREADS_EVENT)
VALUE_EVENT(Get_num_threads_event, GET_NUM_THREADS_EVENT)
VALUE_EVENT(Get_max_threads_event, GET_MAX_THREADS_EVENT)
VALUE_EVENT(Get_thread_num_event, GET_THREAD_NUM_EVENT)
VALUE_EVENT(Get_num_procs_event, GET_NUM_PROCS_EVENT)
VALUE_EVENT(In_parallel_event, IN_PARALLEL_EVENT)
VALUE_EVENT(Set_dynamic_event, SET_DYNAMIC_EVENT)
VALUE_EVENT(Get_dynamic_event, GET_DYNAMIC_EVENT)
VALUE_EVENT(Set_nested_event, SET_NESTED_EVENT)
VALUE_EVENT(Get_nested_event, GET_NESTED_EVENT)

/* ---- Constructs the proposal predates (docs/api.md): the same shapes, new names ---- */
FIRST_EVENT(Masked_begin, MASKED_BEGIN, POMP_GROUP_SYNC, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Masked_end, MASKED_END, POMP_GROUP_SYNC, BEGIN_END, PHASE_END)
FIRST_EVENT(Doacross_event, DOACROSS_EVENT, POMP_GROUP_SYNC, SYNC_SINGLE, PHASE_EVENT)
/* a doacross wait: a leaf, as a barrier (no frame: nothing runs inside it) */
FIRST_LEAF(Doacross_enter, DOACROSS_ENTER, POMP_GROUP_SYNC, ENTER_EXIT)
LATER_LEAF(Doacross_exit, DOACROSS_EXIT, POMP_GROUP_SYNC, ENTER_EXIT)
/* an atomic the compiler takes a lock for (more than 8 bytes): a leaf, its
 * time the wait for the lock and the update; at every level an atomic's
 * event records at (at Event it vanished where the other atomics count) */
FIRST_LEAF(Atomic_enter, ATOMIC_ENTER, POMP_GROUP_SYNC, SYNC_SINGLE)
LATER_LEAF(Atomic_exit, ATOMIC_EXIT, POMP_GROUP_SYNC, SYNC_SINGLE)
FIRST_EVENT(Cancel_event, CANCEL_EVENT, POMP_GROUP_SYNC, SYNC_SINGLE, PHASE_EVENT)
FIRST_EVENT(Cancellation_point_event, CANCELLATION_POINT_EVENT, POMP_GROUP_SYNC, SYNC_SINGLE,
            PHASE_EVENT)
FIRST_EVENT(Scope_enter, SCOPE_ENTER, POMP_GROUP_WORKSHARE, ENTER_EXIT, PHASE_ENTER)
LATER_EVENT(Scope_begin, SCOPE_BEGIN, POMP_GROUP_WORKSHARE, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Scope_end, SCOPE_END, POMP_GROUP_WORKSHARE, BEGIN_END, PHASE_END)
LATER_EVENT(Scope_exit, SCOPE_EXIT, POMP_GROUP_WORKSHARE, ENTER_EXIT, PHASE_EXIT)
FIRST_EVENT(Teams_enter, TEAMS_ENTER, POMP_GROUP_PARALLEL, ENTER_EXIT, PHASE_ENTER)
LATER_EVENT(Teams_begin, TEAMS_BEGIN, POMP_GROUP_PARALLEL, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Teams_end, TEAMS_END, POMP_GROUP_PARALLEL, BEGIN_END, PHASE_END)
LATER_EVENT(Teams_exit, TEAMS_EXIT, POMP_GROUP_PARALLEL, ENTER_EXIT, PHASE_EXIT)

/* Loop-like constructs: Loop_enter's RTC values, accepted and not kept yet. */
#define LOOP_LIKE_ENTER(name, id, group, levels)                                                \
    POMP_Int32 POMP_##name(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int64 chunk_size,  \
                           POMP_Int64 init_iter, POMP_Int64 final_iter, POMP_Int64 incr,        \
                           const char ctc[])                                                    \
    {                                                                                           \
        (void)chunk_size;                                                                       \
        (void)init_iter;                                                                        \
        (void)final_iter;                                                                       \
        (void)incr;                                                                             \
        return record(1, handle, NULL, ctc, thread_id, PHASE_ENTER, POMP_EV_##id, group,        \
                      levels);                                                                  \
    }
LOOP_LIKE_ENTER(Simd_enter, SIMD_ENTER, POMP_GROUP_LOOP, LOOP_ENTER_EXIT)
LATER_EVENT(Simd_exit, SIMD_EXIT, POMP_GROUP_LOOP, LOOP_ENTER_EXIT, PHASE_EXIT)
/* A simd loop with an inline counter: once throttled, the counter takes the
 * site's next visits on this call path (an enter and an exit each). */
POMP_Int32 POMP_Simd_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Fast_count *count)
{
    POMP_Int32 rc = record(0, NULL, handle, NULL, thread_id, PHASE_EXIT, POMP_EV_SIMD_EXIT,
                           POMP_GROUP_LOOP, LOOP_ENTER_EXIT);
    offer_when_throttled(handle, rc, count, 2, POMP_FAST_VISIT, POMP_GROUP_LOOP, LOOP_ENTER_EXIT);
    return rc;
}
LOOP_LIKE_ENTER(Loop_construct_enter, LOOP_CONSTRUCT_ENTER, POMP_GROUP_LOOP, LOOP_ENTER_EXIT)
LATER_EVENT(Loop_construct_exit, LOOP_CONSTRUCT_EXIT, POMP_GROUP_LOOP, LOOP_ENTER_EXIT, PHASE_EXIT)
LOOP_LIKE_ENTER(Distribute_enter, DISTRIBUTE_ENTER, POMP_GROUP_LOOP, LOOP_ENTER_EXIT)
LATER_EVENT(Distribute_exit, DISTRIBUTE_EXIT, POMP_GROUP_LOOP, LOOP_ENTER_EXIT, PHASE_EXIT)

/* Tasks: enter/exit on the thread that creates the task, begin/end on the
 * thread that executes its body (possibly another one, later, inside whatever
 * region that thread has open: docs/api.md). */
FIRST_LEAF(Task_enter, TASK_ENTER, POMP_GROUP_TASK, ENTER_EXIT)
/* A task's begin and end on the thread that runs it: no child deferred yet,
 * then the flag of the task it ran inside again (POMP_Fast_children_done),
 * kept here for 64 levels of timed executions (deeper: 0, its taskwaits
 * timed). Tied tasks begin and end on one thread, nested; an untied one
 * turns the flag's use off for good. An execution counted inline changes
 * nothing: its deferred children clear its creator's flag too, which only
 * makes a taskwait timed. The thread's own, as the flag is. */
enum { DONE_SAVED = 64 };
static __thread uint8_t done_saved[DONE_SAVED] __attribute__((tls_model("initial-exec")));
static __thread uint32_t done_depth __attribute__((tls_model("initial-exec")));

static inline void task_children_begin(void)
{
    uint32_t d = done_depth;
    if (d < DONE_SAVED)
        done_saved[d] = (uint8_t)POMP_Fast_children_done;
    done_depth = d + 1;
    POMP_Fast_children_done = 1;
}

static inline void task_children_end(void)
{
    uint32_t d = done_depth;
    if (!d) { /* an end whose begin was on another thread (untied) */
        POMP_Fast_children_done = 0;
        return;
    }
    done_depth = --d;
    POMP_Fast_children_done = d < DONE_SAVED ? done_saved[d] : 0;
}

POMP_Int32 POMP_Task_begin(POMP_Handle_t handle, POMP_Int32 thread_id)
{
    task_children_begin();
    return record(0, NULL, handle, NULL, thread_id, PHASE_BEGIN, POMP_EV_TASK_BEGIN,
                  POMP_GROUP_TASK, BEGIN_END);
}
POMP_Int32 POMP_Task_end(POMP_Handle_t handle, POMP_Int32 thread_id)
{
    task_children_end();
    return record(0, NULL, handle, NULL, thread_id, PHASE_END, POMP_EV_TASK_END, POMP_GROUP_TASK,
                  BEGIN_END);
}
LATER_LEAF(Task_exit, TASK_EXIT, POMP_GROUP_TASK, ENTER_EXIT)
/* The same with the task's id (docs/api.md, "Task ids"): the creation makes
 * it, the instrumentation hands it to the task (firstprivate), the execution's
 * begin records it, so that a trace links the two. A NULL task_id: no id. */
POMP_Int32 POMP_Task_enter_id(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Task_id *task_id,
                              const char ctc[])
{
    return record_any(1, handle, NULL, ctc, thread_id, PHASE_ENTER, POMP_EV_TASK_ENTER,
                      POMP_GROUP_TASK, ENTER_EXIT, 0, task_id, 1);
}
POMP_Int32 POMP_Task_begin_id(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Task_id task_id)
{
    task_children_begin();
    return record_arg(0, NULL, handle, NULL, thread_id, PHASE_BEGIN, POMP_EV_TASK_BEGIN,
                      POMP_GROUP_TASK, BEGIN_END, task_id);
}
/* A creation of a throttled task construct: its counter takes the next
 * creations on this path. */
POMP_Int32 POMP_Task_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Fast_count *count)
{
    return exit_count(handle, thread_id, count, POMP_EV_TASK_EXIT, POMP_GROUP_TASK, 2,
                      POMP_FAST_VISIT, 1);
}
/* The end of an execution counted inline whose body opened a region: the
 * frame libpomp made of the rest of it closes (pomp_profile_inline_task_end),
 * and POMP_Fast_top is what it was before the execution. */
void POMP_Fast_task_unwind(const void *before)
{
    struct pomp_thread *t = pomp_tls_thread;
    if (t && pomp_thread_write_begin(t)) {
        pomp_profile_inline_task_end(&t->profile, pomp_now());
        pomp_thread_write_end(t);
    }
    POMP_Fast_top = before;
}

/* An execution of a throttled task construct: the execution's counter takes
 * the next executions that run directly inside an execution of a task on
 * this thread (a task's root on top: an included task, as a recursion's with
 * final; POMP_Fast_task_counted, pomp_profile_fast_register), and those
 * that run at once where the construct's creations count inline. */
POMP_Int32 POMP_Task_begin_id_slow(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Task_id task_id,
                                   POMP_Fast_count *count)
{
    POMP_Int32 rc = POMP_Task_begin_id(handle, thread_id, task_id);
    if (count && !count->parent[0]) /* registered once: it counts inside any task */
        offer_when_throttled(handle, rc, count, 2, POMP_FAST_EXECUTION, POMP_GROUP_TASK, BEGIN_END);
    /* and where it runs at once in its creation, the creation counted inline
     * (POMP_Fast_task_counted's slot 1): offered only where it began so,
     * not in a wait (the few loads of pomp_profile_begun_in_place, where the
     * offer's calls cost a timed task in a taskwait ~150 instructions) */
    const struct pomp_thread *t = pomp_tls_thread;
    if (count && t && handle && rc == POMP_SUCCESS &&
        __atomic_load_n(&handle->throttled, __ATOMIC_RELAXED) && pomp_profile_begun_in_place(&t->profile))
        offer_fast_count(handle, count, 2, POMP_FAST_EXECUTION_IN_PLACE, POMP_GROUP_TASK, BEGIN_END);
    return rc;
}
LOOP_LIKE_ENTER(Taskloop_enter, TASKLOOP_ENTER, POMP_GROUP_TASK, ENTER_EXIT)
LATER_EVENT(Taskloop_exit, TASKLOOP_EXIT, POMP_GROUP_TASK, ENTER_EXIT, PHASE_EXIT)
FIRST_LEAF(Taskwait_enter, TASKWAIT_ENTER, POMP_GROUP_TASK, ENTER_EXIT)
LATER_LEAF(Taskwait_exit, TASKWAIT_EXIT, POMP_GROUP_TASK, ENTER_EXIT)
/* A taskwait in a final task, not counted inline on this path yet: it waited
 * for nothing (its tasks were included, complete), so its counter takes the
 * next visits on the path at once, as an atomic's does (POMP_Fast_waited;
 * libpomp allows it only without a trace and with the throttle on). */
void POMP_Final_waits_may_wait(void) { pomp_fast_final_waits_stop(); }

POMP_Int32 POMP_Taskwait_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Fast_count *count)
{
    POMP_Int32 rc = POMP_Taskwait_exit(handle, thread_id);
    if (handle && rc == POMP_SUCCESS &&
        (__atomic_load_n(&POMP_Fast_on, __ATOMIC_RELAXED) & (POMP_FAST_FINAL_WAITS | POMP_FAST_DONE_WAITS)))
        offer_fast_count(handle, count, 2, POMP_FAST_VISIT, POMP_GROUP_TASK, ENTER_EXIT);
    return rc;
}
FIRST_EVENT(Taskgroup_enter, TASKGROUP_ENTER, POMP_GROUP_TASK, ENTER_EXIT, PHASE_ENTER)
LATER_EVENT(Taskgroup_begin, TASKGROUP_BEGIN, POMP_GROUP_TASK, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Taskgroup_end, TASKGROUP_END, POMP_GROUP_TASK, BEGIN_END, PHASE_END)
LATER_EVENT(Taskgroup_exit, TASKGROUP_EXIT, POMP_GROUP_TASK, ENTER_EXIT, PHASE_EXIT)
FIRST_EVENT(Taskyield_enter, TASKYIELD_ENTER, POMP_GROUP_TASK, ENTER_EXIT, PHASE_ENTER)
LATER_EVENT(Taskyield_exit, TASKYIELD_EXIT, POMP_GROUP_TASK, ENTER_EXIT, PHASE_EXIT)

/* Target: the host side only (pomp never instruments code that may run on a device). */
FIRST_EVENT(Target_enter, TARGET_ENTER, POMP_GROUP_TARGET, ENTER_EXIT, PHASE_ENTER)
LATER_EVENT(Target_exit, TARGET_EXIT, POMP_GROUP_TARGET, ENTER_EXIT, PHASE_EXIT)
FIRST_EVENT(Target_data_enter, TARGET_DATA_ENTER, POMP_GROUP_TARGET, ENTER_EXIT, PHASE_ENTER)
LATER_EVENT(Target_data_begin, TARGET_DATA_BEGIN, POMP_GROUP_TARGET, BEGIN_END, PHASE_BEGIN)
LATER_EVENT(Target_data_end, TARGET_DATA_END, POMP_GROUP_TARGET, BEGIN_END, PHASE_END)
LATER_EVENT(Target_data_exit, TARGET_DATA_EXIT, POMP_GROUP_TARGET, ENTER_EXIT, PHASE_EXIT)
/* ---- User regions and events with values (docs/api.md): recorded like the
 * routines without values; the values then go to the call-path node that event
 * counted on (pomp_profile.counted), in the thread's own pool. ---- */
static inline void values_forget_counted(void)
{
    struct pomp_thread *t = pomp_tls_thread;
    if (t)
        t->profile.counted = NULL;
}

static inline int values_bad(POMP_Int32 n, const POMP_Int64 *values)
{
    return n < 0 || n > POMP_MAX_VALUES || (n > 0 && values == NULL);
}

static inline POMP_Int32 values_record(POMP_Int32 rc, enum pomp_value_kind kind, POMP_Int32 n,
                                       const POMP_Int64 *values)
{
    if (values_bad(n, values))
        return rc != POMP_SUCCESS ? rc : POMP_ERR_VALUES;
    struct pomp_thread *t = pomp_tls_thread;
    if (t && t->profile.counted && pomp_thread_write_begin(t)) { /* NULL: the event was not recorded */
        if (n > 0)
            pomp_values_add(&t->profile.values, t->profile.counted, kind, n, values);
        t->profile.counted = NULL;
        pomp_thread_write_end(t);
    }
    return rc;
}

POMP_Int32 POMP_User_region_begin_values(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                         POMP_Int32 nvalues, const POMP_Int64 values[],
                                         const char ctc[])
{
    values_forget_counted();
    POMP_Int32 rc = record(1, handle, NULL, ctc, thread_id, PHASE_BEGIN,
                           POMP_EV_USER_REGION_BEGIN, POMP_GROUP_USER, BEGIN_END);
    return values_record(rc, POMP_VALUES_BEGIN, nvalues, values);
}

POMP_Int32 POMP_User_region_end_values(POMP_Handle_t handle, POMP_Int32 thread_id,
                                       POMP_Int32 nvalues, const POMP_Int64 values[])
{
    values_forget_counted();
    POMP_Int32 rc = record(0, NULL, handle, NULL, thread_id, PHASE_END, POMP_EV_USER_REGION_END,
                           POMP_GROUP_USER, BEGIN_END);
    return values_record(rc, POMP_VALUES_END, nvalues, values);
}

POMP_Int32 POMP_User_event_values(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                  POMP_Int32 nvalues, const POMP_Int64 values[], const char ctc[])
{
    values_forget_counted();
    POMP_Int32 rc = record(1, handle, NULL, ctc, thread_id, PHASE_EVENT, POMP_EV_USER_EVENT,
                           POMP_GROUP_USER, EV | BE);
    return values_record(rc, POMP_VALUES_EVENT, nvalues, values);
}

/* The calls of counted sites while they are not counted that plain
 * instrumentation makes too (pomplib.h): the same routines under the names the
 * inserted code declares cold. */
#define SLOW_ALIAS(slow, routine, params) POMP_Int32 slow params __attribute__((alias(#routine)));
SLOW_ALIAS(POMP_Critical_enter_slow, POMP_Critical_enter,
           (POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[]))
SLOW_ALIAS(POMP_Critical_begin_slow, POMP_Critical_begin, (POMP_Handle_t handle, POMP_Int32 thread_id))
SLOW_ALIAS(POMP_Critical_end_slow, POMP_Critical_end, (POMP_Handle_t handle, POMP_Int32 thread_id))
SLOW_ALIAS(POMP_Task_enter_slow, POMP_Task_enter,
           (POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[]))
SLOW_ALIAS(POMP_Task_enter_id_slow, POMP_Task_enter_id,
           (POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Task_id *task_id, const char ctc[]))
SLOW_ALIAS(POMP_Task_end_slow, POMP_Task_end, (POMP_Handle_t handle, POMP_Int32 thread_id))
SLOW_ALIAS(POMP_Ordered_enter_slow, POMP_Ordered_enter,
           (POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[]))
SLOW_ALIAS(POMP_Ordered_begin_slow, POMP_Ordered_begin, (POMP_Handle_t handle, POMP_Int32 thread_id))
SLOW_ALIAS(POMP_Ordered_end_slow, POMP_Ordered_end, (POMP_Handle_t handle, POMP_Int32 thread_id))
SLOW_ALIAS(POMP_Master_begin_slow, POMP_Master_begin,
           (POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[]))
SLOW_ALIAS(POMP_Masked_begin_slow, POMP_Masked_begin,
           (POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[]))
SLOW_ALIAS(POMP_Simd_enter_slow, POMP_Simd_enter,
           (POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int64 chunk_size,
            POMP_Int64 init_iter, POMP_Int64 final_iter, POMP_Int64 incr, const char ctc[]))
#undef SLOW_ALIAS
