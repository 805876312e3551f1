/* The libgomp bridge: what libgomp does not tell a tool, told in OMPT's
 * terms. libgomp has no OMPT; this library (libpomp-gomp.so, linked before
 * libgomp by pompcc, LD_PRELOADed by pomprun) interposes its entry points,
 * wraps the outlined functions and task functions they are handed, and plays
 * the runtime's part of OMPT for libpomp's OMPT tool (ompt-bridge/): it starts
 * the tool through ompt_start_tool, offers ompt_set_callback, ompt_get_state
 * and ompt_get_task_info, and calls the registered callbacks where libomp
 * would. Both runtimes therefore feed one model through one tool
 * (docs/gomp.md). It includes nothing of libpomp but the public OMPT
 * interface (and writes one flag of libpomp's, below).
 *
 * Mutable state: the callbacks the tool registered (written by
 * ompt_set_callback, read relaxed on every wrapper), each thread's state
 * (thread-local, below), and the joins of recent teams (gomp_team.c). */
#ifndef POMP_GOMP_BRIDGE_H
#define POMP_GOMP_BRIDGE_H

#include <omp-tools.h>
#include <stdint.h>

#include "gomp_real.h"

#define GOMP_EXPORT __attribute__((visibility("default")))

/* The one thing of libpomp's the bridge touches besides OMPT (pomplib.h's,
 * declared here so that nothing else of libpomp is included): cleared on the
 * creating thread where a task may be deferred (GOMP_task with its if clause
 * true or a detach event, GOMP_taskloop), so that a taskwait of a task that
 * deferred none is counted inline (POMP_Fast_waited). A store, where an OMPT
 * task_create callback at every creation would cost a call that a pompcc
 * build's tasks do not make otherwise (gomp_task.c). */
extern __thread int POMP_Fast_children_done __attribute__((tls_model("initial-exec")));

/* The callbacks libpomp's tool registered, by ompt_callbacks_t (NULL: not
 * registered; gomp_tool.c says which events the bridge can report). */
enum { GOMP_CALLBACKS = 64 };
extern ompt_callback_t gomp_callbacks[GOMP_CALLBACKS];

/* Whether the bridge is at work: 1 once libpomp's tool started on libgomp,
 * 0 before the first entry point was called (the tool starts then, as libomp
 * starts it when it initializes), -1 when it will not (measurement off, not
 * on libgomp, or finalized). Thread states (sampling, the collector API) are
 * kept whenever it works, but for mutex waits only while they are read
 * (gomp_mutex_path); callbacks are made where the tool registered them. */
extern int gomp_active;
int gomp_start(void);
/* The tool samples thread states and task frames (it looked up
 * ompt_get_task_info): tasks are wrapped for their state even when no task
 * callback is registered. */
extern int gomp_states_sampled;
/* Thread states are read: sampled, or a collector API session started
 * ("pomp_gomp_keep_states"): tasks are wrapped so that a thread running one
 * reads as working, not as the wait it runs it in. Derived from those by
 * gomp_watch_update. */
extern int gomp_states_read;
/* What a mutex wrapper (critical, atomic, locks, ordered) does first, one
 * load deciding it: GOMP_MUTEX_FORWARD, the bridge started (libgomp's entry
 * points resolved) and nothing watches mutexes, or it was finalized: call
 * libgomp's function straight away, so that a throttled critical in a tight
 * loop costs what it costs without the bridge; anything else (not started
 * yet, or watched): look closer. Mutexes are watched while a mutex callback is
 * registered or the thread states are read (sampling, or a collector API
 * session: the tool calls the entry point it looks up as
 * "pomp_gomp_keep_states" when one starts, docs/gomp.md). Recomputed by
 * gomp_watch_update, which the tool's start and end call too. */
enum { GOMP_MUTEX_DECIDE = 0, GOMP_MUTEX_FORWARD = 1 };
extern int gomp_mutex_path;
/* The same for GOMP_task: GOMP_TASK_FORWARD, started and no task is followed
 * (or finalized), or the tool measures the tasks through the instrumentation
 * and no untied construct needs asking about; GOMP_TASK_FORWARD_TIED, the
 * same but untied tasks are asked about (gomp_untied_split); anything else:
 * look closer (gomp_task.c). */
enum { GOMP_TASK_DECIDE = 0, GOMP_TASK_FORWARD = 1, GOMP_TASK_FORWARD_TIED = 2 };
extern int gomp_task_path;
/* The same for GOMP_taskwait: 1 (forward), started, the tool measures
 * taskwaits through the instrumentation (gomp_tasks_instrumented: a pompcc
 * build, which reports no taskwait of code not built with it, as it follows
 * none of that code's tasks) and nothing reads thread states, or no sync
 * region callback, or finalized; else 0 (look closer). */
extern int gomp_taskwait_forward;
void gomp_watch_update(void);
/* The tool measures task constructs and taskwaits through the
 * instrumentation (a pompcc build: it calls the entry point
 * "pomp_gomp_tasks_instrumented" when it starts): GOMP_task need not wrap its
 * tasks for task_create/task_schedule, only for thread states, and for the
 * untied tasks the tool follows (it gives a task it does not follow empty
 * data at task_create: gomp_task.c); GOMP_taskwait need not report its wait. */
extern int gomp_tasks_instrumented;
/* Of those, some untied task constructs leave their body without events (the
 * tool says so through the entry point "pomp_gomp_untied_split" once it knows
 * of one): only then does GOMP_task ask the tool about an untied task at its
 * creation; otherwise it forwards it as a tied one. */
extern int gomp_untied_split;
/* OMP_CANCELLATION is true (libgomp's, read once when the tool starts):
 * libgomp then discards a cancelled task only when the program gave it no
 * copy function, and wrapping would give it one (gomp_task.c). */
extern int gomp_cancellation;
/* Tasks the tool follows that ran unwrapped (unmeasured), by why (said at
 * finalization): under OMP_CANCELLATION without a copy function of the
 * program's (libgomp then discards a cancelled task only without one), and
 * detachable tasks (libgomp writes the event handle into the first word of
 * the task's block, where the wrapper's head is). */
enum { GOMP_UNWRAPPED_CANCELLATION, GOMP_UNWRAPPED_DETACH, GOMP_UNWRAPPED_CASES };
extern uint64_t gomp_unwrapped_tasks[GOMP_UNWRAPPED_CASES];
static inline int gomp_on(void)
{
    int s = __atomic_load_n(&gomp_active, __ATOMIC_ACQUIRE);
    return __builtin_expect(s == 1, 1) ? 1 : s == 0 ? gomp_start() : 0;
}
#define GOMP_ACTIVE() gomp_on()

/* The bridge is at work and mutexes are watched (started: the path is
 * FORWARD exactly when nothing watches them). */
static inline int gomp_mutexes_watched(void)
{
    return GOMP_ACTIVE() &&
           __atomic_load_n(&gomp_mutex_path, __ATOMIC_RELAXED) != GOMP_MUTEX_FORWARD;
}

/* A registered callback, or NULL (one relaxed load), of its OMPT type. */
#define GOMP_CB_AS(event, type) ((type)__atomic_load_n(&gomp_callbacks[event], __ATOMIC_RELAXED))
#define GOMP_CB(name) GOMP_CB_AS(ompt_callback_##name, ompt_callback_##name##_t)
#define GOMP_CB_MUTEX(name) GOMP_CB_AS(ompt_callback_##name, ompt_callback_mutex_t)

/* A wait of this thread in libgomp: state and sync region (kind; 0: none)
 * around the call of libgomp's function (barriers, taskwait, taskgroup end):
 * gomp_sync_wait, or gomp_sync_wait_begin before a call that takes
 * arguments and gomp_sync_wait_end (with what begin returned) after it. */
void gomp_sync_wait(ompt_sync_region_t kind, int32_t state, const void *codeptr,
                    void (*real)(void));
int32_t gomp_sync_wait_begin(ompt_sync_region_t kind, int32_t state, const void *codeptr);
void gomp_sync_wait_end(ompt_sync_region_t kind, const void *codeptr, int32_t old);
#define GOMP_SYNC_WAIT(name, kind, state)                                                      \
    GOMP_EXPORT void name(void)                                                                 \
    {                                                                                           \
        if (!GOMP_ACTIVE())                                                                     \
            REAL(name)();                                                                       \
        else                                                                                    \
            gomp_sync_wait(kind, state, GOMP_CALLER(), REAL(name));                             \
    }

enum { GOMP_MAX_NESTING = 8 }; /* team memberships tracked per thread (deeper: not reported) */
enum { GOMP_DOACROSS_MAX = 65 }; /* dimensions of a doacross loop whose waits the bridge forwards */

/* A thread's state. Static TLS (the library is loaded with the program, never
 * by dlopen), read by the sampler's signal handler: only plain stores. */
struct gomp_thread_state {
    uint8_t started;            /* thread_begin reported */
    uint8_t pending;            /* a worker whose team's closing barrier is not reported ended */
    int32_t state;              /* ompt_state_t, for ompt_get_state */
    ompt_wait_id_t wait_id;
    uint32_t nesting;           /* team memberships open */
    uint32_t tasks_made;        /* GOMP_task and taskloop calls of this thread (wrapping): a team
                                   of one that made none has no closing barrier to report */
    uint32_t doacross;          /* dimensions of the doacross loop this thread runs (the number
                                   of arguments of GOMP_doacross_wait; kept across forks) */
    ompt_data_t *task;          /* the task running now (implicit or explicit), NULL: initial */
    struct gomp_dependences_wait *dependences_wait; /* GOMP_task's wait for an undeferred
                                   task's dependences, until the task starts (gomp_task.c) */
    ompt_data_t initial_task;
    ompt_frame_t frame;         /* for ompt_get_task_info: invoked by the runtime or not */
    ompt_data_t team[GOMP_MAX_NESTING];     /* each membership's parallel_data (a copy) */
    ompt_data_t implicit[GOMP_MAX_NESTING]; /* each membership's implicit task */
    const void *team_code[GOMP_MAX_NESTING]; /* each membership's outlined function (code address) */
    const void *single_codeptr[GOMP_MAX_NESTING + 1]; /* at nesting n, the single block this
                                   thread executes in its team, NULL if none: its work end is due
                                   at that team's next barrier (a parallel region inside the block
                                   has barriers of its own) */
};
extern __thread struct gomp_thread_state gomp_tls __attribute__((tls_model("initial-exec")));

/* At a worker's first team (gomp_team.c): its end will be reported as the
 * thread's end (thread_end), when libgomp ends the thread. */
void gomp_thread_watch_exit(struct gomp_thread_state *t);

/* This library's code (set at load): a return address inside it is the
 * bridge's trampoline, which an outlined function tail-called an entry point
 * from (GCC -O2 ends a parallel region's function with `jmp GOMP_barrier`). */
extern uintptr_t gomp_own_code_lo, gomp_own_code_hi;

/* The task function of the explicit task running on thread t, wrapped by the
 * bridge (its code address), or NULL: an implicit or the initial task. */
const void *gomp_running_task_code(const struct gomp_thread_state *t);

/* An entry point's caller as the program's code: the return address, or where
 * that address is the bridge's trampoline (the user's function tail-called
 * the entry point: GCC -O2 ends a task's function that ends in a taskwait
 * with `jmp GOMP_taskwait`) the function the trampoline called: the running
 * wrapped task's, else the innermost team's outlined function. */
static inline const void *gomp_user_code(const void *ra)
{
    uintptr_t a = (uintptr_t)ra;
    if (__builtin_expect(a - gomp_own_code_lo >= gomp_own_code_hi - gomp_own_code_lo, 1))
        return ra;
    const struct gomp_thread_state *t = &gomp_tls;
    const void *task = gomp_running_task_code(t);
    if (task)
        return task;
    return t->nesting && t->nesting <= GOMP_MAX_NESTING ? t->team_code[t->nesting - 1] : NULL;
}

/* The innermost team's parallel_data, or NULL outside a team. */
static inline ompt_data_t *gomp_team_data(struct gomp_thread_state *t)
{
    return t->nesting && t->nesting <= GOMP_MAX_NESTING ? &t->team[t->nesting - 1] : NULL;
}

/* The code address the tool names a region by: the caller's return address,
 * or an outlined function's entry (+1: the tool steps back one byte to the
 * call), which is the pragma's line in GCC's debug information. */
#define GOMP_CALLER() gomp_user_code(__builtin_return_address(0))
#define GOMP_CODE_OF(fn) ((const void *)((const char *)(void *)(fn) + 1))

/* A wait inside the runtime: state and wait id while it lasts. */
static inline int32_t gomp_wait_begin(struct gomp_thread_state *t, int32_t state,
                                      ompt_wait_id_t wait_id)
{
    int32_t old = t->state;
    t->wait_id = wait_id;
    t->state = state;
    return old;
}

static inline void gomp_wait_end(struct gomp_thread_state *t, int32_t old)
{
    t->state = old;
    t->wait_id = 0;
}

/* sync region begin/end on this thread (barriers, taskwait, taskgroup). */
void gomp_sync(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, const void *codeptr);

/* A worker that the previous team left in its closing barrier: the barrier
 * and the implicit task end now (before it reports anything else). */
void gomp_close_pending(struct gomp_thread_state *t);

/* A single block this thread executed ends at its team's next barrier (GCC
 * calls no entry point at its end): the work end, if due at the thread's
 * nesting now. */
void gomp_single_end(struct gomp_thread_state *t);
static inline int gomp_single_due(const struct gomp_thread_state *t)
{
    return t->nesting <= GOMP_MAX_NESTING && t->single_codeptr[t->nesting] != NULL;
}

/* What became of a taskloop whose tasks the tool follows (gomp_task.c):
 * wrapped, or forwarded with its tasks unmeasured, counted by case (reported
 * at finalization). FORWARDED: not followed, or no iterations (not counted). */
enum gomp_taskloop_case {
    GOMP_TASKLOOP_LARGE,        /* too many tasks or too large blocks to wrap */
    GOMP_TASKLOOP_CANCELLATION, /* OMP_CANCELLATION and no copy function of the user's */
    GOMP_TASKLOOP_ODD,          /* arguments GCC does not pass (a block under two words, grainsize 0) */
    GOMP_TASKLOOP_CASES,
    GOMP_TASKLOOP_WRAPPED = GOMP_TASKLOOP_CASES,
    GOMP_TASKLOOP_FORWARDED,
};
extern uint64_t gomp_unwrapped_taskloops[GOMP_TASKLOOP_CASES];

#endif
