/* Worksharing: loops (begin, each chunk handed out, end and its barrier),
 * doacross loops and their waits and posts, sections, ordered. A loop's
 * begin is its first GOMP_loop_*_start (in a combined parallel loop, the
 * implicit task's begin: gomp_team.c); every start or next that hands out
 * iterations is a chunk (the tool's dispatch); the loop ends at
 * GOMP_loop_end*, whose barrier (unless nowait) is the workshare's implicit
 * barrier. Static loops without a chunk size call no entry point: GCC
 * computes their iterations inline (docs/gomp.md). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "gomp_bridge.h"

/* libgomp's (not interposed). */
extern int omp_get_num_threads(void);

/* (GOMP_ACTIVE first: it starts the tool where this is the program's first
 * OpenMP call, an orphaned loop called before any parallel region, which
 * was lost with its chunks, its end and barrier reported: pomprun showed no
 * loop, pompcc's loop no chunk; a probe) */
static inline int loops_followed(void)
{
    return GOMP_ACTIVE() && (GOMP_CB(work) != NULL || GOMP_CB(dispatch) != NULL);
}

static void work(ompt_work_t type, ompt_scope_endpoint_t endpoint, const void *codeptr)
{
    ompt_callback_work_t cb = GOMP_CB(work);
    struct gomp_thread_state *t = &gomp_tls;
    if (cb)
        cb(type, endpoint, gomp_team_data(t), t->task, 0, codeptr);
}

static void chunk(uint64_t start, uint64_t iterations)
{
    ompt_callback_dispatch_t cb = GOMP_CB(dispatch);
    struct gomp_thread_state *t = &gomp_tls;
    ompt_dispatch_chunk_t c = {.start = start, .iterations = iterations};
    if (cb)
        cb(gomp_team_data(t), t->task, ompt_dispatch_ws_loop_chunk, (ompt_data_t){.ptr = &c});
}

/* A loop's start: libgomp's call, the work begin, and the first chunk if
 * it hands one out (istart and iend: long or unsigned long long; GCC 9's
 * generic start passes iend == NULL to set the loop up only); `before`: a
 * statement first, whether the loop is followed or not. */
#define LOOP_START_WITH(name, type, params, args, before)                                       \
    GOMP_EXPORT bool name params                                                                \
    {                                                                                           \
        before;                                                                                 \
        if (!loops_followed())                                                                  \
            return REAL(name) args;                                                             \
        const void *codeptr = GOMP_CALLER();                                                    \
        bool more = REAL(name) args;                                                            \
        work(type, ompt_scope_begin, codeptr);                                                  \
        if (more && istart && iend)                                                             \
            chunk((uint64_t)*istart, (uint64_t)(*iend - *istart));                              \
        return more;                                                                            \
    }
#define LOOP_START(name, type, params, args) LOOP_START_WITH(name, type, params, args, (void)0)
#define LOOP_NEXT(name, T)                                                                     \
    GOMP_EXPORT bool name(T *istart, T *iend)                                                   \
    {                                                                                           \
        bool more = REAL(name)(istart, iend);                                                   \
        if (more && GOMP_CB(dispatch))                                                          \
            chunk((uint64_t)*istart, (uint64_t)(*iend - *istart));                              \
        return more;                                                                            \
    }
#define LOOP_LONG(kind, type)                                                                  \
    LOOP_START(GOMP_loop_##kind##_start, type,                                                  \
               (long start, long end, long incr, long chunk_size, long *istart, long *iend),    \
               (start, end, incr, chunk_size, istart, iend))                                    \
    LOOP_NEXT(GOMP_loop_##kind##_next, long)
#define LOOP_LONG_RUNTIME(kind, type)                                                          \
    LOOP_START(GOMP_loop_##kind##_start, type,                                                  \
               (long start, long end, long incr, long *istart, long *iend),                     \
               (start, end, incr, istart, iend))                                                \
    LOOP_NEXT(GOMP_loop_##kind##_next, long)
#define LOOP_ULL(kind, type)                                                                   \
    LOOP_START(GOMP_loop_ull_##kind##_start, type,                                              \
               (bool up, gomp_ull start, gomp_ull end, gomp_ull incr, gomp_ull chunk_size,      \
                gomp_ull *istart, gomp_ull *iend),                                              \
               (up, start, end, incr, chunk_size, istart, iend))                                \
    LOOP_NEXT(GOMP_loop_ull_##kind##_next, gomp_ull)
#define LOOP_ULL_RUNTIME(kind)                                                                 \
    LOOP_START(GOMP_loop_ull_##kind##_start, ompt_work_loop_other,                              \
               (bool up, gomp_ull start, gomp_ull end, gomp_ull incr, gomp_ull *istart,         \
                gomp_ull *iend),                                                                \
               (up, start, end, incr, istart, iend))                                            \
    LOOP_NEXT(GOMP_loop_ull_##kind##_next, gomp_ull)
/* GCC 9's generic start (schedule modifiers, reductions, conditional lastprivate) */
#define LOOP_GENERIC(name)                                                                     \
    LOOP_START(name, ompt_work_loop_other,                                                      \
               (long start, long end, long incr, long sched, long chunk_size, long *istart,     \
                long *iend, uintptr_t *reductions, void **mem),                                 \
               (start, end, incr, sched, chunk_size, istart, iend, reductions, mem))

LOOP_LONG(static, ompt_work_loop_static)
LOOP_LONG(dynamic, ompt_work_loop_dynamic)
LOOP_LONG(guided, ompt_work_loop_guided)
LOOP_LONG(nonmonotonic_dynamic, ompt_work_loop_dynamic)
LOOP_LONG(nonmonotonic_guided, ompt_work_loop_guided)
LOOP_LONG(ordered_static, ompt_work_loop_static)
LOOP_LONG(ordered_dynamic, ompt_work_loop_dynamic)
LOOP_LONG(ordered_guided, ompt_work_loop_guided)
LOOP_LONG_RUNTIME(runtime, ompt_work_loop_other)
LOOP_LONG_RUNTIME(nonmonotonic_runtime, ompt_work_loop_other)
LOOP_LONG_RUNTIME(maybe_nonmonotonic_runtime, ompt_work_loop_other)
LOOP_LONG_RUNTIME(ordered_runtime, ompt_work_loop_other)
LOOP_ULL(static, ompt_work_loop_static)
LOOP_ULL(dynamic, ompt_work_loop_dynamic)
LOOP_ULL(guided, ompt_work_loop_guided)
LOOP_ULL(nonmonotonic_dynamic, ompt_work_loop_dynamic)
LOOP_ULL(nonmonotonic_guided, ompt_work_loop_guided)
/* Every unsigned long long form GCC 12 calls: a loop whose bounds do not fit
 * a long (an index from 2^63 up). The runtime, ordered and generic ones were
 * not interposed before: such loops ran unreported under pomprun, silently,
 * and their chunks were lost in a pompcc build (a probe: 2 of 6 loops). */
LOOP_ULL_RUNTIME(runtime)
LOOP_ULL_RUNTIME(nonmonotonic_runtime)
LOOP_ULL_RUNTIME(maybe_nonmonotonic_runtime)
LOOP_ULL(ordered_static, ompt_work_loop_static)
LOOP_ULL(ordered_dynamic, ompt_work_loop_dynamic)
LOOP_ULL(ordered_guided, ompt_work_loop_guided)
LOOP_ULL_RUNTIME(ordered_runtime)
LOOP_GENERIC(GOMP_loop_start)
LOOP_GENERIC(GOMP_loop_ordered_start)
#define LOOP_GENERIC_ULL(name)                                                                 \
    LOOP_START(name, ompt_work_loop_other,                                                      \
               (bool up, gomp_ull start, gomp_ull end, gomp_ull incr, long sched,               \
                gomp_ull chunk_size, gomp_ull *istart, gomp_ull *iend, uintptr_t *reductions,   \
                void **mem),                                                                    \
               (up, start, end, incr, sched, chunk_size, istart, iend, reductions, mem))
LOOP_GENERIC_ULL(GOMP_loop_ull_start)
LOOP_GENERIC_ULL(GOMP_loop_ull_ordered_start)

/* Doacross loops (ordered(n) with depend(sink)/depend(source), or
 * doacross(...)): loops whose bounds are the n dimensions' iteration counts.
 * Each thread's start keeps n, the number of arguments of its
 * GOMP_doacross_wait calls (below). */
#define DOACROSS_START(name, type, params, args)                                               \
    LOOP_START_WITH(name, type, params, args, gomp_tls.doacross = ncounts)
#define LOOP_DOACROSS(kind, type, T)                                                           \
    DOACROSS_START(GOMP_loop_##kind##_start, type,                                              \
                   (unsigned ncounts, T *counts, T chunk_size, T *istart, T *iend),             \
                   (ncounts, counts, chunk_size, istart, iend))
#define LOOP_DOACROSS_RUNTIME(kind, T)                                                         \
    DOACROSS_START(GOMP_loop_##kind##_start, ompt_work_loop_other,                              \
                   (unsigned ncounts, T *counts, T *istart, T *iend),                           \
                   (ncounts, counts, istart, iend))
#define LOOP_DOACROSS_GENERIC(name, T)                                                         \
    DOACROSS_START(name, ompt_work_loop_other,                                                  \
                   (unsigned ncounts, T *counts, long sched, T chunk_size, T *istart, T *iend,  \
                    uintptr_t *reductions, void **mem),                                         \
                   (ncounts, counts, sched, chunk_size, istart, iend, reductions, mem))

LOOP_DOACROSS(doacross_static, ompt_work_loop_static, long)
LOOP_DOACROSS(doacross_dynamic, ompt_work_loop_dynamic, long)
LOOP_DOACROSS(doacross_guided, ompt_work_loop_guided, long)
LOOP_DOACROSS_RUNTIME(doacross_runtime, long)
LOOP_DOACROSS(ull_doacross_static, ompt_work_loop_static, gomp_ull)
LOOP_DOACROSS(ull_doacross_dynamic, ompt_work_loop_dynamic, gomp_ull)
LOOP_DOACROSS(ull_doacross_guided, ompt_work_loop_guided, gomp_ull)
LOOP_DOACROSS_RUNTIME(ull_doacross_runtime, gomp_ull)
LOOP_DOACROSS_GENERIC(GOMP_loop_doacross_start, long)
LOOP_DOACROSS_GENERIC(GOMP_loop_ull_doacross_start, gomp_ull)

/* The end of a loop or sections: the construct ends, then its barrier
 * (barrier_end with what barrier_begin returned). libomp reports GCC's
 * worksharing barriers as implementation barriers without a code address:
 * so does the bridge, so that both runtimes give the same profile. */
static inline int ends_followed(void) { return GOMP_ACTIVE(); }

static int32_t barrier_begin(ompt_work_t type, const void *codeptr)
{
    work(type, ompt_scope_end, codeptr);
    gomp_sync(ompt_sync_region_barrier_implementation, ompt_scope_begin, NULL);
    return gomp_wait_begin(&gomp_tls, ompt_state_wait_barrier_implicit_workshare, 0);
}

static void barrier_end(int32_t old)
{
    gomp_wait_end(&gomp_tls, old);
    gomp_sync(ompt_sync_region_barrier_implementation, ompt_scope_end, NULL);
}

#define WORK_END_VOID(name, type)                                                              \
    GOMP_EXPORT void name(void)                                                                 \
    {                                                                                           \
        if (!ends_followed()) {                                                                 \
            REAL(name)();                                                                       \
            return;                                                                             \
        }                                                                                       \
        const void *codeptr = GOMP_CALLER();                                                    \
        int32_t old = barrier_begin(type, codeptr);                                             \
        REAL(name)();                                                                           \
        barrier_end(old);                                                              \
    }
#define WORK_END_NOWAIT(name, type)                                                            \
    GOMP_EXPORT void name(void)                                                                 \
    {                                                                                           \
        if (loops_followed())                                                                   \
            work(type, ompt_scope_end, GOMP_CALLER());                                          \
        REAL(name)();                                                                           \
    }
WORK_END_VOID(GOMP_loop_end, ompt_work_loop)
WORK_END_VOID(GOMP_sections_end, ompt_work_sections)
WORK_END_NOWAIT(GOMP_loop_end_nowait, ompt_work_loop)
WORK_END_NOWAIT(GOMP_sections_end_nowait, ompt_work_sections)

/* The same in a parallel region with a cancel parallel in it (GCC calls these
 * there), cancelled or not: the barrier's wait, up to the cancellation, is the
 * barrier's (unwrapped, a sections' wait read as its own work) */
#define WORK_END_CANCEL(name, type)                                                            \
    GOMP_EXPORT bool name(void)                                                                 \
    {                                                                                           \
        if (!ends_followed())                                                                   \
            return REAL(name)();                                                                \
        const void *codeptr = GOMP_CALLER();                                                    \
        int32_t old = barrier_begin(type, codeptr);                                             \
        bool cancelled = REAL(name)();                                                          \
        barrier_end(old);                                                                       \
        return cancelled;                                                                       \
    }
WORK_END_CANCEL(GOMP_loop_end_cancel, ompt_work_loop)
WORK_END_CANCEL(GOMP_sections_end_cancel, ompt_work_sections)

/* The end of a loop or sections with task reductions (reduction(task, ...),
 * GCC 9), after its GOMP_*_end: libgomp waits for the construct's
 * in_reduction tasks, then (unless cancelled) for the team. Reported as an
 * implementation barrier at the call, as libomp reports the team's part. */
/* An entry point of one argument, returning nothing, whose call waits at a
 * team barrier: reported as an implementation barrier at the call. */
#define VOID_CALL_AS_BARRIER(name, type, arg)                                                  \
    GOMP_EXPORT void name(type arg)                                                            \
    {                                                                                          \
        if (!ends_followed()) {                                                                \
            REAL(name)(arg);                                                                   \
            return;                                                                            \
        }                                                                                      \
        const void *codeptr = GOMP_CALLER();                                                   \
        int32_t old = gomp_sync_wait_begin(ompt_sync_region_barrier_implementation,            \
                                           ompt_state_wait_barrier_implementation, codeptr);   \
        REAL(name)(arg);                                                                       \
        gomp_sync_wait_end(ompt_sync_region_barrier_implementation, codeptr, old);             \
    }

VOID_CALL_AS_BARRIER(GOMP_workshare_task_reduction_unregister, bool, cancelled)

/* sections begin; GOMP_sections2_start (GCC 9) also sets up task
 * reductions (reduction(task, ...)) or conditional lastprivate. */
#define SECTIONS_START(name, params, args)                                                     \
    GOMP_EXPORT unsigned name params                                                            \
    {                                                                                           \
        if (loops_followed())                                                                   \
            work(ompt_work_sections, ompt_scope_begin, GOMP_CALLER());                          \
        return REAL(name) args;                                                                 \
    }
SECTIONS_START(GOMP_sections_start, (unsigned count), (count))
SECTIONS_START(GOMP_sections2_start, (unsigned count, uintptr_t *reductions, void **mem),
               (count, reductions, mem))

/* single: the thread that executes the block begins it here and ends it at
 * its next barrier (gomp_single_end); the others begin and end at once, as
 * libomp reports GCC's single. */
GOMP_EXPORT bool GOMP_single_start(void)
{
    if (!GOMP_ACTIVE() || !GOMP_CB(work)) /* (the program's first OpenMP call: loops_followed) */
        return REAL(GOMP_single_start)();
    const void *codeptr = GOMP_CALLER();
    bool executes = REAL(GOMP_single_start)();
    struct gomp_thread_state *t = &gomp_tls;
    if (executes && t->nesting <= GOMP_MAX_NESTING) {
        work(ompt_work_single_executor, ompt_scope_begin, codeptr);
        t->single_codeptr[t->nesting] = codeptr; /* (a return address: never NULL) */
    } else if (executes) { /* nested too deep to be followed: no block */
        work(ompt_work_single_executor, ompt_scope_begin, codeptr);
        work(ompt_work_single_executor, ompt_scope_end, codeptr);
    } else {
        work(ompt_work_single_other, ompt_scope_begin, codeptr);
        work(ompt_work_single_other, ompt_scope_end, codeptr);
    }
    return executes;
}

/* single copyprivate: GCC calls GOMP_single_copy_start instead, in which the
 * threads that do not execute the block wait for the one that does (to
 * copy its values: libgomp's team barrier; the executor returns at once, with
 * NULL). Reported as an implementation barrier at the call, as GOMP_barrier
 * is, on every thread (the executor's of no time): the wait was lost, a
 * single's 90 ms read 0.4 ms. The executor's block is the single, as
 * GOMP_single_start's, from there to GOMP_single_copy_end, which hands the
 * values over at a barrier of its own; the others' single begins and ends at
 * once, as libomp reports GCC's single (no single at all before: a probe). */
GOMP_EXPORT void *GOMP_single_copy_start(void)
{
    if (!ends_followed())
        return REAL(GOMP_single_copy_start)();
    const void *codeptr = GOMP_CALLER();
    int32_t old = gomp_sync_wait_begin(ompt_sync_region_barrier_implementation,
                                       ompt_state_wait_barrier_implementation, codeptr);
    void *data = REAL(GOMP_single_copy_start)();
    gomp_sync_wait_end(ompt_sync_region_barrier_implementation, codeptr, old);
    if (!GOMP_CB(work))
        return data;
    struct gomp_thread_state *t = &gomp_tls;
    if (!data && t->nesting <= GOMP_MAX_NESTING) { /* ends at GOMP_single_copy_end */
        work(ompt_work_single_executor, ompt_scope_begin, codeptr);
        t->single_codeptr[t->nesting] = codeptr;
    } else {
        ompt_work_t kind = data ? ompt_work_single_other : ompt_work_single_executor;
        work(kind, ompt_scope_begin, codeptr);
        work(kind, ompt_scope_end, codeptr);
    }
    return data;
}

/* The executor hands its values over: its block ended (gomp_sync_wait_begin
 * ends a single due), and it waits at a barrier for the others to take them. */
VOID_CALL_AS_BARRIER(GOMP_single_copy_end, void *, data)

void gomp_single_end(struct gomp_thread_state *t)
{
    const void *codeptr = t->single_codeptr[t->nesting];
    t->single_codeptr[t->nesting] = NULL;
    work(ompt_work_single_executor, ompt_scope_end, codeptr);
}

/* ---- doacross: ordered depend(sink: ...) and depend(source) ---- */

/* libomp reports a doacross wait (after it) and post (before it) as the
 * dependences of the current task: the iteration vector, of type sink or
 * source; nothing in a team of one thread, where nothing waits. So does the
 * bridge. The wait's time stays the loop's, as on libomp. */
static void doacross_dependences(ompt_callback_dependences_t cb, ompt_dependence_type_t type,
                                 const uint64_t *vec, unsigned n)
{
    if (omp_get_num_threads() < 2)
        return;
    ompt_dependence_t deps[GOMP_DOACROSS_MAX];
    for (unsigned i = 0; i < n; i++)
        deps[i] = (ompt_dependence_t){.variable.value = vec[i], .dependence_type = type};
    cb(gomp_tls.task, deps, (int)n);
}

/* GOMP_doacross_wait is variadic: one argument per dimension of the loop.
 * The wrapper reads as many as its loop's start said (gomp_tls.doacross) and
 * passes libgomp 4 or 65, the unused ones 0 (libgomp reads the loop's number). */
static __attribute__((noreturn, cold, noinline)) void doacross_too_many(unsigned n)
{
    fprintf(stderr, "pomp: a doacross loop of %u dimensions: the libgomp bridge forwards "
                    "GOMP_doacross_wait for at most %d (docs/gomp.md)\n",
            n, GOMP_DOACROSS_MAX);
    abort();
}

#define ARGS8(r, i) r[i], r[i + 1], r[i + 2], r[i + 3], r[i + 4], r[i + 5], r[i + 6], r[i + 7]
#define ARGS64(r)                                                                              \
    ARGS8(r, 0), ARGS8(r, 8), ARGS8(r, 16), ARGS8(r, 24), ARGS8(r, 32), ARGS8(r, 40),           \
        ARGS8(r, 48), ARGS8(r, 56)

/* The wait, then its dependences; the post's dependences, then the post. */
#define DOACROSS(wait, post, T)                                                                \
    GOMP_EXPORT void wait(T first, ...)                                                         \
    {                                                                                           \
        unsigned n = gomp_tls.doacross;                                                         \
        T r[GOMP_DOACROSS_MAX - 1];                                                             \
        va_list ap;                                                                             \
        va_start(ap, first);                                                                    \
        if (__builtin_expect(n <= 4, 1)) {                                                      \
            r[0] = r[1] = r[2] = 0;                                                             \
            for (unsigned i = 1; i < n; i++)                                                    \
                r[i - 1] = va_arg(ap, T);                                                       \
            va_end(ap);                                                                         \
            REAL(wait)(first, r[0], r[1], r[2]);                                                \
        } else {                                                                                \
            if (n > GOMP_DOACROSS_MAX)                                                          \
                doacross_too_many(n);                                                           \
            for (unsigned i = 1; i < GOMP_DOACROSS_MAX; i++)                                    \
                r[i - 1] = i < n ? va_arg(ap, T) : 0;                                           \
            va_end(ap);                                                                         \
            REAL(wait)(first, ARGS64(r));                                                       \
        }                                                                                       \
        ompt_callback_dependences_t cb = GOMP_ACTIVE() ? GOMP_CB(dependences) : NULL;           \
        if (cb) {                                                                               \
            uint64_t vec[GOMP_DOACROSS_MAX] = {(uint64_t)first};                                \
            for (unsigned i = 1; i < n; i++)                                                    \
                vec[i] = (uint64_t)r[i - 1];                                                    \
            doacross_dependences(cb, ompt_dependence_type_sink, vec, n ? n : 1);                \
        }                                                                                       \
    }                                                                                           \
    GOMP_EXPORT void post(T *counts)                                                            \
    {                                                                                           \
        unsigned n = gomp_tls.doacross;                                                         \
        ompt_callback_dependences_t cb = GOMP_ACTIVE() ? GOMP_CB(dependences) : NULL;           \
        if (cb && n && n <= GOMP_DOACROSS_MAX) {                                                \
            uint64_t vec[GOMP_DOACROSS_MAX];                                                    \
            for (unsigned i = 0; i < n; i++)                                                    \
                vec[i] = (uint64_t)counts[i];                                                   \
            doacross_dependences(cb, ompt_dependence_type_source, vec, n);                      \
        }                                                                                       \
        REAL(post)(counts);                                                                     \
    }
DOACROSS(GOMP_doacross_wait, GOMP_doacross_post, long)
DOACROSS(GOMP_doacross_ull_wait, GOMP_doacross_ull_post, gomp_ull)
