/* pomplib.h: the POMP monitoring API (seed 002, Appendix C) as libpomp implements it.
 *
 * Types: the proposal's int32 and int64 are POMP_Int32 and POMP_Int64 (int32_t, int64_t). CTC string
 * parameters are `const char ctc[]` (the proposal's `char ctc[]` with const added,
 * so string literals can be passed without a cast). Every routine returns a POMP
 * error code (POMP_SUCCESS or one of the POMP_ERR_* values, see docs/api.md). */
#ifndef POMPLIB_H
#define POMPLIB_H
#if defined(__GNUC__)
/* Warnings are the user's code's: a project's -Werror with -Wold-style-cast or
 * -Wzero-as-null-pointer-constant (C++) must not fail on this header. */
#pragma GCC system_header
#endif

/* No system header is included: the instrumenter puts this header first in a
 * file, before the user's own feature macros (_GNU_SOURCE, ...) take effect. */
#if defined(__INT32_TYPE__) && defined(__INT64_TYPE__) && defined(__UINT64_TYPE__)
typedef __INT32_TYPE__ POMP_Int32;
typedef __INT64_TYPE__ POMP_Int64;
typedef __UINT64_TYPE__ POMP_Uint64;
#else
#include <stdint.h>
typedef int32_t POMP_Int32;
typedef int64_t POMP_Int64;
typedef uint64_t POMP_Uint64;
#endif

/* A value as POMP_Int64, in the code the instrumenter writes: a C++
 * static_cast, which -Wold-style-cast accepts, or a C cast. */
#ifdef __cplusplus
#define POMP_I64(x) static_cast<POMP_Int64>(x)
#else
#define POMP_I64(x) ((POMP_Int64)(x))
#endif

/* The null statement the instrumenter writes after a structured block that
 * ends with ';' (an unbraced loop or if body), before its own calls on the
 * same line: GCC's -Wmisleading-indentation takes those calls for the body's
 * unless a null statement comes first, and clang's -Wextra-semi-stmt warns of
 * a ';' written there, not of one a macro expands to. */
#define POMP_NULL_STATEMENT_ ;

/* A null pointer in the inserted code: C++'s -Wzero-as-null-pointer-constant
 * warns of a 0 there (a task's kept value, initialized: under -Werror the file
 * fell back to no instrumentation; a probe); __null is what GCC's and Clang's
 * NULL is before C++11. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define POMP_NULL_ nullptr
#elif defined(__cplusplus) && defined(__GNUC__)
#define POMP_NULL_ __null
#else
#define POMP_NULL_ ((void *)0)
#endif

/* No POMP routine throws: said so, so that a C++ caller needs no unwinding
 * path around each call (an instrumented C++ file that the plain compiler
 * gave no exception tables, linked by gcc, lacked __gxx_personality_v0). */
#if defined(__GNUC__)
#define POMP_NOTHROW_ __attribute__((__nothrow__))
#else
#define POMP_NOTHROW_
#endif
#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* libpomp is built with hidden visibility */
#endif

/* The version of the POMP API this library implements (the value of _POMP). */
#define POMP_API_VERSION 202611

/* A library handle: opaque, zero before initialization. */
typedef struct POMP_Region_s *POMP_Handle_t;

/* Error codes. */
#define POMP_SUCCESS            0
#define POMP_ERR_NO_CONTEXT     1  /* handle is zero and no CTC string was given */
#define POMP_ERR_BAD_CTC        2  /* the CTC string is malformed (region still created) */
#define POMP_ERR_NESTING        3  /* end/exit without the matching enter/begin on this thread */
#define POMP_ERR_FINALIZED      4  /* the library was finalized; the event was ignored */
#define POMP_ERR_NULL_ARGUMENT  5  /* a required pointer argument is NULL */
#define POMP_ERR_NO_MEMORY      6
#define POMP_ERR_DEPTH          7  /* region nesting deeper than the library records */
#define POMP_ERR_VALUES         8  /* bad value list: event recorded, values not (docs/api.md) */

/* Library control (section 3.6) and handles (section 3.2, Appendix A, B). */
POMP_Int32 POMP_Init(void) POMP_NOTHROW_;
POMP_Int32 POMP_Finalize(void) POMP_NOTHROW_;
/* The calling thread's id for the routines below (the instrumentation's
 * thread_id argument), from libpomp's thread record: safe in every state of
 * the OpenMP runtime, unlike a call of omp_get_thread_num() the program would
 * not make (docs/api.md). */
POMP_Int32 POMP_Thread_num(void) POMP_NOTHROW_;
/* A thread_id argument that asks libpomp to take the calling thread's number
 * itself (POMP_Thread_num, at the thread's first event only): what the
 * instrumentation passes, so that an event costs no extra call. */
#define POMP_THREAD_SELF (-2)
POMP_Int32 POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]) POMP_NOTHROW_;
/* Pause and resume measurement, for all threads. While off, no region is opened;
 * regions already open close as usual (docs/api.md). */
POMP_Int32 POMP_On(void) POMP_NOTHROW_;
POMP_Int32 POMP_Off(void) POMP_NOTHROW_;

/* Parallel group. */
POMP_Int32 POMP_Parallel_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int32 num_threads,
                               POMP_Int32 if_expr_result, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Parallel_begin(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Parallel_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Parallel_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;

/* Loop group. */
POMP_Int32 POMP_Loop_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int64 chunk_size,
                           POMP_Int64 init_iter, POMP_Int64 final_iter, POMP_Int64 incr,
                           const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Loop_chunk_begin(POMP_Handle_t handle, POMP_Int32 thread_id, POMP_Int64 init_iter,
                                 POMP_Int64 final_iter) POMP_NOTHROW_;
POMP_Int32 POMP_Loop_iter_begin(POMP_Handle_t handle, POMP_Int32 thread_id,
                                POMP_Int64 iter) POMP_NOTHROW_;
POMP_Int32 POMP_Loop_iter_event(POMP_Handle_t handle, POMP_Int32 thread_id,
                                POMP_Int64 iter) POMP_NOTHROW_;
POMP_Int32 POMP_Loop_iter_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Loop_chunk_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Loop_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;

/* Workshare group: workshare, sections, single. Section_begin takes the section
 * number before the thread id, as Appendix C writes it. */
POMP_Int32 POMP_Workshare_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Workshare_begin(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Workshare_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Workshare_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Sections_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                               const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Section_begin(POMP_Handle_t handle, POMP_Int32 section_num,
                              POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Section_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Sections_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Single_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                             const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Single_begin(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Single_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Single_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;

/* Sync group: critical, master, barriers, flush, atomic, ordered. */
POMP_Int32 POMP_Critical_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                               const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Critical_begin(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Critical_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Critical_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Master_begin(POMP_Handle_t *handle, POMP_Int32 thread_id,
                             const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Master_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Barrier_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                              const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Barrier_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Implicit_barrier_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                       const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Implicit_barrier_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Flush_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                            const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Atomic_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                             const char ctc[]) POMP_NOTHROW_;
/* Sites counted inline once throttled (docs/api.md, "Counted inline"): the
 * instrumentation gives each atomic, critical and task creation a counter in thread-local
 * storage and calls the *_fast forms below. Once the region is throttled
 * (POMP_THROTTLE), libpomp registers the counter on its call path: while the
 * thread's innermost open region is one the site was registered under
 * (POMP_Fast_top, the top of the thread's call-path stack, equals parent[k]),
 * a visit is counted by the inserted code alone: no call, no clock. Two call
 * paths at a time: a site reached from two (a task construct run inside
 * executions of two constructs: BOTS-style fib's two tasks) counts on both.
 * libpomp adds the counts to the call paths when the site registers on
 * another path, when the thread ends and at the end of measurement. */
typedef struct POMP_Fast_count {
    POMP_Uint64 visits[2];     /* counted inline under parent[k] since libpomp last took them
                                  (no long long: C90 programs include this header too) */
    const void *parent[2];     /* the call-path nodes it counts under, NULL: none; written
                                  by libpomp, on the counter's own thread */
} POMP_Fast_count;
/* Bit 0 (POMP_FAST_COUNTING): measurement is on (not after POMP_Off or the
 * end): counters count only then. Bit 1 (POMP_FAST_FINAL_WAITS): besides, a
 * taskwait in a final task may be counted inline (POMP_Fast_waited). Bit 2
 * (POMP_FAST_DONE_WAITS): so may one whose task deferred no child
 * (POMP_Fast_children_done). 0 or 1
 * in bit 0 alone is what an expression `(x != 0) & POMP_Fast_on` relies on.
 * Written by libpomp. (Named anew when POMP_Fast_count changed shape,
 * 2026-12-02: an object compiled by an earlier pompcc does not link with this
 * libpomp, rather than count into a counter of the old size.) */
extern int POMP_Fast_on;
/* 1 while the value events of the runtime's query and setting routines
 * (POMP_Get_thread_num_event, ...: POMP_RUNTIME=Event only) may be recorded:
 * 1 until libpomp read the levels, then 0 at any other level. The inserted
 * code makes the call only then: made at every call, the event that records
 * nothing kept GCC from hoisting omp_get_thread_num() out of a loop (a
 * per-thread histogram 1.6-2.3 times its plain time; a probe). Written by
 * libpomp, once, when it reads the levels (at the latest at the first such
 * call, which then records or not as the levels say): const to the program,
 * so that a loop reads it once, not after each call it guards (a call may
 * change a variable; 3 instructions an iteration of a 6-instruction
 * histogram loop). */
#ifdef POMP_LIBRARY_BUILD_
extern int POMP_Value_events;
#else
extern const int POMP_Value_events;
#endif
/* (a function: a variable named in a construct's body under default(none)
 * would have to be listed) */
static __inline__ int POMP_Value_events_on(void)
{
#if defined(__GNUC__)
    return __builtin_expect(POMP_Value_events, 0);
#else
    return POMP_Value_events;
#endif
}
#define POMP_FAST_COUNTING 1
#define POMP_FAST_FINAL_WAITS 2
#define POMP_FAST_DONE_WAITS 4
#if defined(__GNUC__)
/* The calling thread's innermost open region's call-path node, once one of
 * its sites was registered (else NULL), its lowest bit set where that region
 * is a task's execution (POMP_Fast_task_counted). Written by libpomp on
 * every region's enter and exit of that thread. */
extern __thread const void *POMP_Fast_top __attribute__((__tls_model__("initial-exec")));
/* 1 while no task was deferred on this thread since the execution of a task
 * began on it (its begin sets it, its end and a deferred creation clear it:
 * libpomp's task events and the bridges, which see every creation); 0 before
 * any. Tied tasks nest on their thread, so at a taskwait 1 says the current
 * task deferred no child: each ran at once (if(0), included, undeferred),
 * and the taskwait waits for nothing. Read only under POMP_FAST_DONE_WAITS,
 * which libpomp sets where a bridge sees every creation and no task is
 * untied (POMP_Fast_waited). */
extern __thread int POMP_Fast_children_done __attribute__((__tls_model__("initial-exec")));
/* The counters of code compiled for a shared object (PIC, not PIE), which
 * dlclose may unload, and its thread-local storage with it (libpomp read and
 * wrote counters it had registered there at the end: a plugin loaded again
 * crashed the program at exit): they are libpomp's, POMP_FAST_SLOTS per
 * thread (POMP_Fast_slots, NULL until the thread's first registered one;
 * POMP_Fast_none, never written, stands for them until then). A translation
 * unit's n counters are slots base..base+n-1, assigned at its first visit
 * (its base: -1 before, -2 once none were left: its sites make their calls). */
#define POMP_FAST_SLOTS 8192
extern __thread POMP_Fast_count *POMP_Fast_slots __attribute__((__tls_model__("initial-exec")));
extern POMP_Fast_count POMP_Fast_none[POMP_FAST_SLOTS];
int POMP_Fast_assign(int *base, int n) POMP_NOTHROW_;
static __inline__ POMP_Fast_count *POMP_Fast_slot(int *base, int n, int i)
{
    POMP_Fast_count *slots;
    int b = __atomic_load_n(base, __ATOMIC_RELAXED);
    if (__builtin_expect(b < 0, 0)) {
        if (b == -2)
            return 0;
        b = POMP_Fast_assign(base, n);
        if (b < 0)
            return 0;
    }
    slots = POMP_Fast_slots;
    return (slots ? slots : POMP_Fast_none) + b + i;
}
/* One visit more on the counter's path k. One thread writes the count;
 * libpomp may read it from another at the end. */
static __inline__ void POMP_Fast_add_(POMP_Fast_count *count, int k)
{
    __atomic_store_n(&count->visits[k], __atomic_load_n(&count->visits[k], __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
}
/* Which of the counter's paths top is (0 or 1; on: it may count at all), or
 * -1. Both compared, no branch between them: a site reached from two paths
 * by turns (a task creation inside executions of two task constructs nested
 * in each other, each counted inline on its own root: fib's) mispredicted
 * the branch that took the first path first, a few nanoseconds a visit.
 * (Never both: libpomp registers a path once.) */
static __inline__ int POMP_Fast_path_(const POMP_Fast_count *count, const void *top, int on)
{
    int on0 = count->parent[0] == top, on1 = count->parent[1] == top;
    return __builtin_expect((on0 | on1) & on, 1) ? on1 : -1;
}
/* 1: this visit is counted (skip the site's POMP calls); 0: make them. */
static __inline__ int POMP_Fast_counted(POMP_Fast_count *count)
{
    const void *top;
    int k;
    if (!count) /* no counter left for it (POMP_Fast_slot) */
        return 0;
    top = POMP_Fast_top;
    k = POMP_Fast_path_(count, top, (top != 0) & __atomic_load_n(&POMP_Fast_on, __ATOMIC_RELAXED));
    if (k < 0)
        return 0;
    POMP_Fast_add_(count, k);
    return 1;
}
/* The same for a task's execution: counted where the thread's innermost open
 * region is an execution of a task (POMP_Fast_top's lowest bit: libpomp
 * marks a task's frame so), of any construct, once the counter is registered
 * (parent[0]): an included task, run at once inside the task that created
 * it, whose time is that task's as a function's is its caller's. And (slot
 * 1) where the innermost open region is the one the construct's creations
 * are counted inline in, no wait open (parent[1]): an undeferred task run at
 * once in its creation, whose time is that region's, as its creation's is.
 * A counted execution's body runs with its task root as POMP_Fast_top
 * (parent[0], libpomp's value for that root): what it counts inline (the
 * tasks it creates, its taskwaits) counts on the task's own paths, as in a
 * timed execution, not on those of the task it ran in (a fib with an
 * if-clause cutoff counted a third of one site's creations under the other;
 * before 2026-12-04). *before keeps POMP_Fast_top as it was, for
 * POMP_Fast_task_done. */
static __inline__ int POMP_Fast_task_counted(POMP_Fast_count *count, const void **before)
{
    const void *top, *root;
    int on;
    if (!count)
        return 0;
    top = POMP_Fast_top;
    root = count->parent[0];
    on = __atomic_load_n(&POMP_Fast_on, __ATOMIC_RELAXED);
    if (__builtin_expect((root != 0) & ((int)((__UINTPTR_TYPE__)top & 1)) & on, 1))
        POMP_Fast_add_(count, 0);
    else if ((count->parent[1] == top) & (top != 0) & (root != 0) & on)
        POMP_Fast_add_(count, 1);
    else
        return 0;
    *before = top;
    POMP_Fast_top = root;
    return 1;
}
/* The end of an execution POMP_Fast_task_counted counted: POMP_Fast_top as
 * it was before, where the body left it as it was during it (the root, read
 * again from the counter: one value fewer kept across the body); else a
 * region opened in the body made the rest of the execution a frame, which
 * libpomp closes (the call). */
void POMP_Fast_task_unwind(const void *before) POMP_NOTHROW_;
static __inline__ int POMP_Fast_task_done(const POMP_Fast_count *count, const void *before)
{
    if (__builtin_expect(POMP_Fast_top == count->parent[0], 1))
        POMP_Fast_top = before;
    else
        POMP_Fast_task_unwind(before);
    return 0;
}
/* The OpenMP runtime's omp_in_final under a name of pomp's own, so that this
 * header declares nothing omp.h declares (its declaration differs by runtime
 * and language: noexcept, calling convention). */
extern int POMP_omp_in_final_(void) __asm__("omp_in_final");
/* A taskwait in a final task waits for nothing: every task a final task
 * creates is included, run to its end at its creation (a task with a detach
 * clause or a target task is not: libpomp then turns POMP_FAST_FINAL_WAITS
 * off); so does one whose task deferred no child (POMP_Fast_children_done:
 * a recursion below its if-clause cutoff). Such a taskwait is counted inline
 * from its first visit on a call path, its time nil: 1, counted (skip the
 * calls); 2, waiting for nothing, not counted on this path yet (the calls,
 * and the exit offers the counter); 0, the calls (a wait that may wait). The
 * runtime's answer is asked only where libpomp allows it, one call of a few
 * loads. */
static __inline__ int POMP_Fast_waited(POMP_Fast_count *count)
{
    const void *top;
    int k, on;
    if (!count)
        return 0;
    on = __atomic_load_n(&POMP_Fast_on, __ATOMIC_RELAXED);
    if (!((on & POMP_FAST_DONE_WAITS) && POMP_Fast_children_done) &&
        !((on & POMP_FAST_FINAL_WAITS) && POMP_omp_in_final_()))
        return 0;
    top = POMP_Fast_top;
    k = POMP_Fast_path_(count, top, top != 0);
    if (k < 0)
        return 2;
    POMP_Fast_add_(count, k);
    return 1;
}
/* 1 while a lock set site's call (omp_set_lock, omp_set_nest_lock) that is
 * counted inline runs, else 0: set and cleared around the call by the
 * inserted code (POMP_Fast_lock_mark). A bridge that follows the runtime's
 * lock waits leaves that call's acquisition alone: its wait is the counted
 * call's own, untimed, time (docs/api.md, "Counted inline"). Libpomp's. */
extern __thread int POMP_Fast_lock_counted __attribute__((__tls_model__("initial-exec")));
#define POMP_Fast_lock_mark(counted) ((void)(POMP_Fast_lock_counted = (counted)))
#else
#define POMP_Fast_counted(count) 0
#define POMP_Fast_task_counted(count, before) 0
#define POMP_Fast_task_done(count, before) 0
#define POMP_Fast_waited(count) 0
#define POMP_Fast_lock_mark(counted) ((void)0)
#endif
/* What the instrumentation inserts: the thread id argument is not evaluated
 * for a counted visit. fast: POMP_Fast_counted's answer at the critical's
 * enter, kept for its other events. */
#define POMP_Atomic_event_fast(handle, thread_id, ctc, count)                                    \
    (POMP_Fast_counted(count) ? POMP_SUCCESS : POMP_Atomic_event_slow(handle, thread_id, ctc, count))
#define POMP_Critical_enter_fast(fast, handle, thread_id, ctc)                                   \
    ((fast) ? POMP_SUCCESS : POMP_Critical_enter_slow(handle, thread_id, ctc))
#define POMP_Critical_begin_fast(fast, handle, thread_id)                                        \
    ((fast) ? POMP_SUCCESS : POMP_Critical_begin_slow(handle, thread_id))
#define POMP_Critical_end_fast(fast, handle, thread_id)                                          \
    ((fast) ? POMP_SUCCESS : POMP_Critical_end_slow(handle, thread_id))
#define POMP_Critical_exit_fast(fast, handle, thread_id, count)                                  \
    ((fast) ? POMP_SUCCESS : POMP_Critical_exit_slow(handle, thread_id, count))
/* A simd loop (enter/exit around it): counted inline once throttled, its
 * calls a few hundred instructions around a loop of a few (a dot product of 8
 * in a sparse matrix-vector product: 2.2-4.7 times its plain time; a probe).
 * fast: POMP_Fast_counted's answer at the enter, kept for the exit. */
#define POMP_Simd_enter_fast(fast, handle, thread_id, chunk_size, init_iter, final_iter, incr,   \
                             ctc)                                                               \
    ((fast) ? POMP_SUCCESS                                                                      \
            : POMP_Simd_enter_slow(handle, thread_id, chunk_size, init_iter, final_iter, incr,  \
                                   ctc))
#define POMP_Simd_exit_fast(fast, handle, thread_id, count)                                      \
    ((fast) ? POMP_SUCCESS : POMP_Simd_exit_slow(handle, thread_id, count))
/* An ordered block, as a critical (a schedule(dynamic) loop's ordered part,
 * throttled, still made four calls an iteration: 1.5-2.9 times; a probe). */
#define POMP_Ordered_enter_fast(fast, handle, thread_id, ctc)                                    \
    ((fast) ? POMP_SUCCESS : POMP_Ordered_enter_slow(handle, thread_id, ctc))
#define POMP_Ordered_begin_fast(fast, handle, thread_id)                                         \
    ((fast) ? POMP_SUCCESS : POMP_Ordered_begin_slow(handle, thread_id))
#define POMP_Ordered_end_fast(fast, handle, thread_id)                                           \
    ((fast) ? POMP_SUCCESS : POMP_Ordered_end_slow(handle, thread_id))
#define POMP_Ordered_exit_fast(fast, handle, thread_id, count)                                   \
    ((fast) ? POMP_SUCCESS : POMP_Ordered_exit_slow(handle, thread_id, count))
/* A master or masked block (its begin and end): counted inline once
 * throttled (a masked block of a few ns took 20-40 ns; a probe). */
#define POMP_Master_begin_fast(fast, handle, thread_id, ctc)                                     \
    ((fast) ? POMP_SUCCESS : POMP_Master_begin_slow(handle, thread_id, ctc))
#define POMP_Master_end_fast(fast, handle, thread_id, count)                                     \
    ((fast) ? POMP_SUCCESS : POMP_Master_end_slow(handle, thread_id, count))
#define POMP_Masked_begin_fast(fast, handle, thread_id, ctc)                                     \
    ((fast) ? POMP_SUCCESS : POMP_Masked_begin_slow(handle, thread_id, ctc))
#define POMP_Masked_end_fast(fast, handle, thread_id, count)                                     \
    ((fast) ? POMP_SUCCESS : POMP_Masked_end_slow(handle, thread_id, count))
/* A task's creation (enter/exit around the task construct, on the creating
 * thread). */
#define POMP_Task_enter_fast(fast, handle, thread_id, ctc)                                       \
    ((fast) ? POMP_SUCCESS : POMP_Task_enter_slow(handle, thread_id, ctc))
#define POMP_Task_exit_fast(fast, handle, thread_id, count)                                      \
    ((fast) ? POMP_SUCCESS : POMP_Task_exit_slow(handle, thread_id, count))
#define POMP_Task_enter_id_fast(fast, handle, thread_id, task_id, ctc)                           \
    ((fast) ? POMP_SUCCESS : POMP_Task_enter_id_slow(handle, thread_id, task_id, ctc))
/* A task's execution (begin/end, inside the task): counted inline once the
 * construct is throttled when it runs directly inside an execution of a task
 * on the thread (an included task: final, if(0), undeferred; the execution it
 * runs in holds its time, as it holds a function's); count is the
 * execution's own counter, not the creation's. fast: POMP_Fast_task_counted's
 * answer at the begin, before what it kept. */
#define POMP_Task_begin_id_fast(fast, handle, thread_id, task_id, count)                         \
    ((fast) ? POMP_SUCCESS : POMP_Task_begin_id_slow(handle, thread_id, task_id, count))
#define POMP_Task_end_fast(fast, count, before, handle, thread_id)                               \
    ((fast) ? POMP_Fast_task_done(count, before) : POMP_Task_end_slow(handle, thread_id))
/* A taskwait: fast is POMP_Fast_waited's answer at its enter. */
#define POMP_Taskwait_enter_fast(fast, handle, thread_id, ctc)                                   \
    ((fast) == 1 ? POMP_SUCCESS : POMP_Taskwait_enter(handle, thread_id, ctc))
#define POMP_Taskwait_exit_fast(fast, handle, thread_id, count)                                  \
    ((fast) == 1   ? POMP_SUCCESS                                                                \
     : (fast) == 2 ? POMP_Taskwait_exit_slow(handle, thread_id, count)                           \
                   : POMP_Taskwait_exit(handle, thread_id))
POMP_Int32 POMP_Ordered_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                              const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Ordered_begin(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Ordered_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Ordered_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;

/* User group: functions (call site: enter/exit; body: begin/end) and user regions. */
POMP_Int32 POMP_Function_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                               const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Function_begin(POMP_Handle_t *handle, POMP_Int32 thread_id,
                               const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Function_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Function_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Function_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                               const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_User_region_begin(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                  const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_User_region_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_User_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                           const char ctc[]) POMP_NOTHROW_;

/* User regions and events with values (the proposal's open issue of §3.3 and
 * §3.5, resolved in docs/api.md): nvalues integers recorded with the event, for
 * each position the count, sum, minimum and maximum per call path and thread.
 * The CTC string may name them: beginValues=, endValues=, eventValues=. */
#define POMP_MAX_VALUES 8
POMP_Int32 POMP_User_region_begin_values(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                         POMP_Int32 nvalues, const POMP_Int64 values[],
                                         const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_User_region_end_values(POMP_Handle_t handle, POMP_Int32 thread_id,
                                       POMP_Int32 nvalues, const POMP_Int64 values[]) POMP_NOTHROW_;
POMP_Int32 POMP_User_event_values(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                  POMP_Int32 nvalues, const POMP_Int64 values[],
                                  const char ctc[]) POMP_NOTHROW_;

/* Runtime group (Tables 6-8). lock_id is the lock's address: a copy of an
 * omp_lock_t, as Appendix C passes it, cannot tell two locks apart. */
POMP_Int32 POMP_Init_lock_event(POMP_Handle_t *handle, POMP_Int32 thread_id, const void *lock_id,
                                const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Destroy_lock_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                   const void *lock_id, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Set_lock_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, const void *lock_id,
                               const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Set_lock_exit(POMP_Handle_t handle, POMP_Int32 thread_id,
                              const void *lock_id) POMP_NOTHROW_;
POMP_Int32 POMP_Set_lock_event(POMP_Handle_t *handle, POMP_Int32 thread_id, const void *lock_id,
                               const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Unset_lock_event(POMP_Handle_t *handle, POMP_Int32 thread_id, const void *lock_id,
                                 const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Test_lock_event(POMP_Handle_t *handle, POMP_Int32 thread_id, const void *lock_id,
                                POMP_Int32 was_lock_set, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Init_nest_lock_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                     const void *lock_id, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Destroy_nest_lock_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                        const void *lock_id, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Set_nest_lock_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                    const void *lock_id, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Set_nest_lock_exit(POMP_Handle_t handle, POMP_Int32 thread_id,
                                   const void *lock_id) POMP_NOTHROW_;
POMP_Int32 POMP_Set_nest_lock_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                    const void *lock_id, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Unset_nest_lock_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                      const void *lock_id, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Test_nest_lock_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                     const void *lock_id, POMP_Int32 was_lock_set,
                                     const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Set_num_threads_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                      POMP_Int32 num_threads, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Get_num_threads_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                      POMP_Int32 num_threads, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Get_max_threads_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                      POMP_Int32 num_threads, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Get_thread_num_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                     POMP_Int32 thread_num, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Get_num_procs_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                    POMP_Int32 num_procs, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_In_parallel_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                  POMP_Int32 is_parallel, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Set_dynamic_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                  POMP_Int32 is_dynamic, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Get_dynamic_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                  POMP_Int32 is_dynamic, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Set_nested_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                 POMP_Int32 is_nested, const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Get_nested_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                 POMP_Int32 is_nested, const char ctc[]) POMP_NOTHROW_;

/* Constructs the proposal predates (OpenMP 3.0 to 5.2), in the proposal's style:
 * enter/exit around the construct on the encountering thread, begin/end around
 * the structured block on the executing thread, single events for stand-alone
 * directives. Groups and levels: docs/api.md. The loop-like constructs take the
 * RTC values of Loop_enter (seed 002 §3.3). */
POMP_Int32 POMP_Masked_begin(POMP_Handle_t *handle, POMP_Int32 thread_id,
                             const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Masked_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Doacross_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                               const char ctc[]) POMP_NOTHROW_;
/* A doacross wait (ordered depend(sink: ...), doacross(sink: ...)): enter/exit
 * around it, as around a barrier; depend(source) is an event. */
POMP_Int32 POMP_Doacross_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                               const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Doacross_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
/* An atomic whose x is larger than 8 bytes (long double, a complex double,
 * __int128), which the compilers update under a lock: enter/exit around it,
 * as around a critical (its time is the wait for the lock); any other atomic
 * is an event after it (POMP_Atomic_event). */
POMP_Int32 POMP_Atomic_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                             const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Atomic_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Cancel_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                             const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Cancellation_point_event(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                         const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Scope_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                            const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Scope_begin(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Scope_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Scope_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Teams_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                            const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Teams_begin(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Teams_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Teams_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Simd_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int64 chunk_size,
                           POMP_Int64 init_iter, POMP_Int64 final_iter, POMP_Int64 incr,
                           const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Simd_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Loop_construct_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                     POMP_Int64 chunk_size, POMP_Int64 init_iter,
                                     POMP_Int64 final_iter, POMP_Int64 incr,
                                     const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Loop_construct_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Distribute_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                 POMP_Int64 chunk_size, POMP_Int64 init_iter,
                                 POMP_Int64 final_iter, POMP_Int64 incr,
                                 const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Distribute_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Task_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                           const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Task_begin(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Task_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Task_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
/* Task ids (docs/api.md): Task_enter_id writes the id of the task it creates
 * into *task_id when the creation goes into a trace, and leaves it alone
 * otherwise (the instrumentation sets it to 0 first); the task's
 * Task_begin_id records it, so that the trace links the task's creation to
 * its execution, on whichever thread. */
typedef POMP_Uint64 POMP_Task_id;
POMP_Int32 POMP_Task_enter_id(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Task_id *task_id,
                              const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Task_begin_id(POMP_Handle_t handle, POMP_Int32 thread_id,
                              POMP_Task_id task_id) POMP_NOTHROW_;
POMP_Int32 POMP_Taskloop_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int64 chunk_size,
                               POMP_Int64 init_iter, POMP_Int64 final_iter, POMP_Int64 incr,
                               const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Taskloop_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Taskwait_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                               const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Taskwait_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Taskgroup_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Taskgroup_begin(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Taskgroup_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Taskgroup_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Taskyield_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Taskyield_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Target_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                             const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Target_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Target_data_enter(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                  const char ctc[]) POMP_NOTHROW_;
POMP_Int32 POMP_Target_data_begin(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Target_data_end(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;
POMP_Int32 POMP_Target_data_exit(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_;

/* The calls a counted site makes while it is not counted (its first visits,
 * another call path, measurement off), declared cold. Atomic_event_slow,
 * Critical_exit_slow and Task_exit_slow are POMP_Atomic_event,
 * POMP_Critical_exit and POMP_Task_exit that also offer libpomp the site's
 * counter (switched on once the region is throttled; an atomic's from its
 * first execution), as does Task_begin_id_slow for a task's executions; the
 * others are aliases of the routines of the same name
 * without _slow. A call clobbers every
 * caller-saved register, SSE registers included, and in a hot loop (an atomic
 * in a force loop) a call the compiler thinks likely makes it keep the loop's
 * sums and constants in memory on the counted path too (issue 16: 5 % of an
 * MD force loop; under 1 % declared cold): told that the call is rare, it
 * saves registers around the call only. They are libpomp's own symbols, not
 * wrappers in the program, so a sample taken in them is the measurement's. */
#if defined(__GNUC__) && !defined(POMP_LIBRARY_BUILD_)
#define POMP_COLD_ __attribute__((__cold__))
#else
#define POMP_COLD_
#endif
POMP_Int32 POMP_Atomic_event_slow(POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[],
                                  POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Critical_enter_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                    const char ctc[]) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Critical_begin_slow(POMP_Handle_t handle,
                                    POMP_Int32 thread_id) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Critical_end_slow(POMP_Handle_t handle,
                                  POMP_Int32 thread_id) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Critical_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id,
                                   POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Task_enter_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                const char ctc[]) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Ordered_enter_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                   const char ctc[]) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Ordered_begin_slow(POMP_Handle_t handle,
                                   POMP_Int32 thread_id) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Ordered_end_slow(POMP_Handle_t handle,
                                 POMP_Int32 thread_id) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Ordered_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id,
                                  POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Master_begin_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                  const char ctc[]) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Master_end_slow(POMP_Handle_t handle, POMP_Int32 thread_id,
                                POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Masked_begin_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                  const char ctc[]) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Masked_end_slow(POMP_Handle_t handle, POMP_Int32 thread_id,
                                POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Simd_enter_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                POMP_Int64 chunk_size, POMP_Int64 init_iter, POMP_Int64 final_iter,
                                POMP_Int64 incr, const char ctc[]) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Simd_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id,
                               POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Task_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id,
                               POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Task_enter_id_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                   POMP_Task_id *task_id,
                                   const char ctc[]) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Task_begin_id_slow(POMP_Handle_t handle, POMP_Int32 thread_id,
                                   POMP_Task_id task_id,
                                   POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Task_end_slow(POMP_Handle_t handle, POMP_Int32 thread_id) POMP_NOTHROW_ POMP_COLD_;
/* A taskwait in a final task may wait from now on, for the rest of the run:
 * the program holds a task construct with a detach clause, a target task
 * (target ... nowait) or an asynchronous device copy (omp_target_memcpy_async),
 * which the runtime may defer in a final task (LLVM libomp does). The
 * instrumentation calls it from a constructor of each file that holds one
 * (POMP_Fast_waited then makes the calls); idempotent, no lock. */
void POMP_Final_waits_may_wait(void) POMP_NOTHROW_;
/* A taskwait's in a final task: POMP_Taskwait_exit, that also offers the
 * site's counter (POMP_Fast_waited). */
POMP_Int32 POMP_Taskwait_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id,
                                   POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
/* A lock call site's: POMP_Set_lock_exit and POMP_Unset_lock_event (and the
 * nest lock's) that also offer the site's counter once the region is
 * throttled; the site's other calls are the plain routines. */
POMP_Int32 POMP_Set_lock_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id,
                                   const void *lock_id,
                                   POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Set_nest_lock_exit_slow(POMP_Handle_t handle, POMP_Int32 thread_id,
                                        const void *lock_id,
                                        POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
/* The same for a set site that marks its counted calls (POMP_Fast_lock_mark):
 * its counter is offered while a bridge follows the runtime's lock waits too
 * (a _slow one's is not then: objects instrumented before the mark, whose
 * counted calls the bridge cannot tell from a call left to the runtime). */
POMP_Int32 POMP_Set_lock_exit_marked(POMP_Handle_t handle, POMP_Int32 thread_id,
                                     const void *lock_id,
                                     POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Set_nest_lock_exit_marked(POMP_Handle_t handle, POMP_Int32 thread_id,
                                          const void *lock_id,
                                          POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Unset_lock_event_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                      const void *lock_id, const char ctc[],
                                      POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Unset_nest_lock_event_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                           const void *lock_id, const char ctc[],
                                           POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
/* A test site's (omp_test_lock, omp_test_nest_lock): the test's event, that
 * also offers the site's counter (from its first execution when no trace is
 * written: a test never waits). */
POMP_Int32 POMP_Test_lock_event_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                     const void *lock_id, POMP_Int32 was_lock_set,
                                     const char ctc[],
                                     POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
POMP_Int32 POMP_Test_nest_lock_event_slow(POMP_Handle_t *handle, POMP_Int32 thread_id,
                                          const void *lock_id, POMP_Int32 was_lock_set,
                                          const char ctc[],
                                          POMP_Fast_count *count) POMP_NOTHROW_ POMP_COLD_;
#undef POMP_COLD_

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
