/* Teams: GOMP_parallel and its combined forms (and GOMP_parallel_reductions),
 * the member trampoline every thread of a team runs instead of the outlined
 * function, host teams (GOMP_teams_reg), and barriers.
 *
 * The order of the callbacks is libomp's: parallel_begin on the master; on
 * each member implicit_task begin, (for a combined loop or sections: work
 * begin), the outlined function, sync_region begin of the closing barrier;
 * on the master, once libgomp returns from the join, the barrier's end, the
 * implicit task's end and parallel_end. A worker goes back to libgomp's pool
 * from inside the barrier, where no entry point sees it again: like libomp,
 * the bridge reports its barrier's and implicit task's end when the thread is
 * next given work (or the tool's finalization closes it); the tool ends them
 * at the master's join time, which it keeps itself. */
#include "gomp_bridge.h"

/* libgomp's (not interposed; no omp.h: its lock types differ from the wrappers'). */
extern int omp_get_thread_num(void);
extern int omp_get_num_threads(void);
extern int omp_get_team_num(void);
extern int omp_get_num_teams(void);

/* One team instance, on the master's stack for the duration of the call:
 * the trampoline's argument. */
struct gomp_team {
    void *lead;                  /* first: GOMP_parallel_reductions reads the first word of the
                                    data it is handed (the address of the reduction data): the
                                    user's, copied; NULL otherwise */
    void (*fn)(void *);
    void *data;
    ompt_data_t parallel_data;   /* the tool's, copied by each member */
    unsigned nthreads;           /* requested (0: the default) */
    uint8_t work;                /* combined construct: its ompt_work_t, 0 for none */
    uint8_t barrier;             /* the master's closing barrier reported (not in a team of one
                                    that made no task) */
    const void *codeptr;         /* the region's code address */
} __attribute__((aligned(64))); /* one cache line: each worker reads it from the master's cache */

void gomp_sync(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, const void *codeptr)
{
    /* a taskgroup's wait at its end, as libomp reports it: sync_region_wait
     * (libomp's sync_region of a taskgroup spans the whole construct, from
     * GOMP_taskgroup_start, which a tool reads as no wait) */
    ompt_callback_sync_region_t cb =
        kind == ompt_sync_region_taskgroup
            ? GOMP_CB_AS(ompt_callback_sync_region_wait, ompt_callback_sync_region_t)
            : GOMP_CB(sync_region);
    struct gomp_thread_state *t = &gomp_tls;
    if (cb)
        cb(kind, endpoint, gomp_team_data(t), t->task, codeptr);
}

/* The end of the innermost membership: closing barrier (if reported),
 * implicit task. */
static void end_membership(struct gomp_thread_state *t, unsigned index, int barrier)
{
    if (barrier)
        gomp_sync(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL);
    ompt_callback_implicit_task_t it = GOMP_CB(implicit_task);
    uint32_t n = t->nesting;
    /* deeper than the bridge tracks too: each begin was reported (without its
     * task data), so each end is; a tool that counts its memberships lost
     * one per team beyond the depth, and a worker's closing barrier stayed
     * open to the end of the run, "exit() or a signal" blamed (a probe's
     * recursion of parallel regions inside tasks, 20 deep) */
    if (it && n)
        it(ompt_scope_end, NULL, n <= GOMP_MAX_NESTING ? &t->implicit[n - 1] : NULL, 0, index,
           ompt_task_implicit);
    if (n)
        t->nesting = n - 1;
}

void gomp_close_pending(struct gomp_thread_state *t)
{
    /* idle first: a sample between pending's clearing and the membership's
     * end read the barrier state of a team no longer the thread's (a bare
     * <OMP-implicit_barrier>, in no call path: 1 sample in ~200, 1 run in 20) */
    t->state = ompt_state_idle;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->pending = 0;
    end_membership(t, 1, 1);
    t->task = t->nesting && t->nesting <= GOMP_MAX_NESTING ? &t->implicit[t->nesting - 1]
                                                            : &t->initial_task;
}

/* What every member of a team runs: the outlined function between the
 * implicit task's begin and the closing barrier's begin. */
static void team_member(void *arg)
{
    struct gomp_team *team = arg;
    /* A worker's first reads of what the master wrote just before the fork,
     * each a transfer from the master's cache: the tool's team record (at the
     * implicit task's begin) and the user's data (in the outlined function).
     * Asked for together here, they arrive in the time of one (a prefetch
     * does not fault on a value that is no address). */
    __builtin_prefetch(team->parallel_data.ptr);
    __builtin_prefetch(team->data);
    struct gomp_thread_state *t = &gomp_tls;
    unsigned index = (unsigned)omp_get_thread_num(); /* inside the team: always safe */
    /* a worker given work again has left its last team's closing barrier; a
     * master has not: it forks from a task it runs in that barrier (a
     * parallel region inside a task), which goes on after this team (closed
     * here, the outer share ended under the task's frames: nesting errors and
     * times wrapped below 0) */
    if (__builtin_expect(t->pending, 0) && index != 0)
        gomp_close_pending(t);
    if (__builtin_expect(!t->started, 0)) {
        t->started = 1;
        gomp_thread_watch_exit(t);
        ompt_callback_thread_begin_t begin = GOMP_CB(thread_begin);
        if (begin)
            begin(ompt_thread_worker, NULL);
    }
    unsigned size = (unsigned)omp_get_num_threads();
    ompt_data_t *outer = t->task;
    uint32_t n = t->nesting++;
    ompt_data_t *implicit = NULL;
    if (n < GOMP_MAX_NESTING) {
        t->team[n] = team->parallel_data;
        t->team_code[n] = team->codeptr;
        t->implicit[n].value = 0;
        implicit = t->task = &t->implicit[n];
    }
    t->state = ompt_state_work_parallel;
    ompt_callback_implicit_task_t it = GOMP_CB(implicit_task);
    if (it)
        it(ompt_scope_begin, implicit ? &t->team[n] : NULL, implicit, size, index,
           ompt_task_implicit);
    ompt_callback_work_t work = team->work ? GOMP_CB(work) : NULL;
    if (work)
        work((ompt_work_t)team->work, ompt_scope_begin, gomp_team_data(t), t->task, 0,
             team->codeptr);
    uint32_t made = t->tasks_made;
    team->fn(team->data); /* a combined construct's ends with GOMP_*_end_nowait: its work end */
    if (gomp_single_due(t))
        gomp_single_end(t);
    t->state = ompt_state_wait_barrier_implicit_parallel;
    /* a team of one has a barrier to report where it made tasks (unlike
     * libomp, which runs such a team's tasks at once where they are created):
     * libgomp queues them and runs them in this barrier, which, unreported,
     * left their time between the block's end and the region's, read as
     * fork and join (0.1 % parallel efficiency for 99 %; a probe). Without
     * tasks it is only libgomp's join: none, as libomp reports none (and two
     * callbacks fewer for each execution of an inactive nested region). */
    int barrier = size > 1 || t->tasks_made != made;
    if (barrier)
        gomp_sync(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin, NULL);
    if (index == 0) { /* the master: GOMP_parallel's wrapper ends it after the join */
        team->barrier = (uint8_t)barrier; /* the master's own record: no worker writes it */
        t->task = outer;
        return;
    }
    t->pending = 1;
}

/* The master's part around libgomp's fork and join. */
static void team_begin(struct gomp_team *team, struct gomp_thread_state *t)
{
    ompt_callback_parallel_begin_t begin = GOMP_CB(parallel_begin);
    team->parallel_data.value = 0;
    if (begin)
        begin(t->task, NULL, &team->parallel_data, team->nthreads,
              ompt_parallel_invoker_runtime | ompt_parallel_team, team->codeptr);
}

static void team_end(struct gomp_team *team, struct gomp_thread_state *t, int32_t state)
{
    /* out of the barrier before its membership ends: a sample in between read
     * the barrier state with no team (a bare <OMP-implicit_barrier>); the
     * join's work is the runtime's overhead, as libomp says (the collector's
     * JOIN event read THR_SERIAL_STATE here, THR_OVHD_STATE on libomp; a probe) */
    t->state = ompt_state_overhead;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    ompt_data_t *task = t->task;
    t->task = t->nesting && t->nesting <= GOMP_MAX_NESTING ? &t->implicit[t->nesting - 1] : task;
    end_membership(t, 0, team->barrier);
    t->task = task;
    ompt_callback_parallel_end_t end = GOMP_CB(parallel_end);
    if (end)
        end(&team->parallel_data, t->task, ompt_parallel_invoker_runtime | ompt_parallel_team,
            team->codeptr);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->state = state;
}

/* The wrapper of a fork: libgomp's call with the trampoline as the
 * outlined function and the team record as its data, between team_begin and
 * team_end; or libgomp's call as it is while the bridge is not at work.
 * `result` is empty or `variable =`, for libgomp's return value; `lead` is
 * the team record's first word (struct gomp_team). The master may be in a
 * doacross loop of an outer team: its dimensions are kept across the fork. */
#define FORK(result, real, fn_, data_, n_, work_type, lead_, ...)                              \
    do {                                                                                        \
        struct gomp_thread_state *t_ = &gomp_tls;                                               \
        uint32_t doacross_ = t_->doacross;                                                      \
        if (!GOMP_ACTIVE()) {                                                                   \
            result REAL(real)(fn_, data_, n_, __VA_ARGS__);                                     \
        } else {                                                                                \
            int32_t state_ = t_->state;                                                         \
            struct gomp_team team_ = {.lead = lead_, .fn = fn_, .data = data_, .nthreads = n_,  \
                                      .work = work_type, .codeptr = GOMP_CODE_OF(fn_)};         \
            team_begin(&team_, t_);                                                             \
            t_->state = ompt_state_overhead; /* libgomp's fork, until the trampoline: libomp's */ \
            result REAL(real)(team_member, &team_, n_, __VA_ARGS__);                            \
            team_end(&team_, t_, state_);                                                       \
        }                                                                                       \
        t_->doacross = doacross_;                                                               \
    } while (0)

GOMP_EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                               unsigned flags)
{
    FORK(, GOMP_parallel, fn, data, num_threads, 0, NULL, flags);
}

/* parallel with task reductions (reduction(task, ...)): the team as
 * GOMP_parallel's (libgomp runs the in_reduction tasks by the closing
 * barrier); libgomp reads the reduction data's address from the first word
 * of the block, so the team record begins with the user's. Returns the
 * team's size. */
GOMP_EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data,
                                              unsigned num_threads, unsigned flags)
{
    unsigned n;
    FORK(n =, GOMP_parallel_reductions, fn, data, num_threads, 0, *(void **)data, flags);
    return n;
}

GOMP_EXPORT void GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned num_threads,
                                        unsigned count, unsigned flags)
{
    FORK(, GOMP_parallel_sections, fn, data, num_threads, ompt_work_sections, NULL, count,
         flags);
}

/* parallel for with a schedule that hands out chunks: the members' loop
 * begins with their implicit task (they call GOMP_loop_*_next at once). */
#define PARALLEL_LOOP(kind, type)                                                              \
    GOMP_EXPORT void GOMP_parallel_loop_##kind(void (*fn)(void *), void *data,                 \
                                               unsigned num_threads, long start, long end,      \
                                               long incr, long chunk, unsigned flags)           \
    {                                                                                           \
        FORK(, GOMP_parallel_loop_##kind, fn, data, num_threads, type, NULL, start, end, incr, \
             chunk, flags);                                                                     \
    }
#define PARALLEL_LOOP_RUNTIME(kind)                                                            \
    GOMP_EXPORT void GOMP_parallel_loop_##kind(void (*fn)(void *), void *data,                 \
                                               unsigned num_threads, long start, long end,      \
                                               long incr, unsigned flags)                       \
    {                                                                                           \
        FORK(, GOMP_parallel_loop_##kind, fn, data, num_threads, ompt_work_loop_other, NULL,   \
             start, end, incr, flags);                                                          \
    }
PARALLEL_LOOP(static, ompt_work_loop_static)
PARALLEL_LOOP(dynamic, ompt_work_loop_dynamic)
PARALLEL_LOOP(guided, ompt_work_loop_guided)
PARALLEL_LOOP(nonmonotonic_dynamic, ompt_work_loop_dynamic)
PARALLEL_LOOP(nonmonotonic_guided, ompt_work_loop_guided)
PARALLEL_LOOP_RUNTIME(runtime)
PARALLEL_LOOP_RUNTIME(nonmonotonic_runtime)
PARALLEL_LOOP_RUNTIME(maybe_nonmonotonic_runtime)

/* ---- host teams ---- */

/* The teams construct outside a target region (OpenMP 5.0): libgomp runs
 * the teams one after another on the encountering thread, calling the
 * function once per team. Reported as libomp reports a league:
 * parallel_begin/end (ompt_parallel_league) around it, and around each
 * team's call its initial task (implicit_task, ompt_task_initial), which is
 * this thread's initial task afresh. The OMPT bridge makes no region of a
 * league (its teams are no team shares); what runs inside is measured as
 * anywhere. No teams barrier: no team waits for another. */
struct gomp_league {
    void (*fn)(void *);
    void *data;
    ompt_data_t parallel_data;
};

static void league_member(void *arg)
{
    struct gomp_league *league = arg;
    struct gomp_thread_state *t = &gomp_tls;
    unsigned index = (unsigned)omp_get_team_num();
    ompt_data_t *outer = t->task;
    t->initial_task.value = 0;
    t->task = &t->initial_task;
    ompt_callback_implicit_task_t it = GOMP_CB(implicit_task);
    if (it)
        it(ompt_scope_begin, &league->parallel_data, t->task, (unsigned)omp_get_num_teams(),
           index, ompt_task_initial);
    league->fn(league->data);
    if (it)
        it(ompt_scope_end, NULL, t->task, 0, index, ompt_task_initial);
    t->task = outer;
}

GOMP_EXPORT void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams,
                                unsigned thread_limit, unsigned flags)
{
    if (!GOMP_ACTIVE()) {
        REAL(GOMP_teams_reg)(fn, data, num_teams, thread_limit, flags);
        return;
    }
    struct gomp_thread_state *t = &gomp_tls;
    struct gomp_league league = {.fn = fn, .data = data};
    ompt_data_t initial = t->initial_task;
    const void *codeptr = GOMP_CODE_OF(fn);
    const int kind = ompt_parallel_invoker_runtime | ompt_parallel_league;
    ompt_callback_parallel_begin_t begin = GOMP_CB(parallel_begin);
    if (begin)
        begin(t->task, NULL, &league.parallel_data, num_teams, kind, codeptr);
    REAL(GOMP_teams_reg)(league_member, &league, num_teams, thread_limit, flags);
    t->initial_task = initial;
    ompt_callback_parallel_end_t end = GOMP_CB(parallel_end);
    if (end)
        end(&league.parallel_data, t->task, kind, codeptr);
}

/* ---- barriers ---- */

/* GCC calls GOMP_barrier for the explicit barrier and for the implicit one
 * of single (and of a static loop): the runtime cannot tell them apart, and
 * libomp reports both as an implementation barrier; so does the bridge. */
int32_t gomp_sync_wait_begin(ompt_sync_region_t kind, int32_t state, const void *codeptr)
{
    struct gomp_thread_state *t = &gomp_tls;
    if (gomp_single_due(t) && kind != ompt_sync_region_taskwait &&
        kind != ompt_sync_region_taskgroup)
        gomp_single_end(t);
    int32_t old = gomp_wait_begin(t, state, 0);
    gomp_sync(kind, ompt_scope_begin, codeptr);
    return old;
}

void gomp_sync_wait_end(ompt_sync_region_t kind, const void *codeptr, int32_t old)
{
    gomp_sync(kind, ompt_scope_end, codeptr);
    gomp_wait_end(&gomp_tls, old);
}

void gomp_sync_wait(ompt_sync_region_t kind, int32_t state, const void *codeptr,
                    void (*real)(void))
{
    int32_t old = gomp_sync_wait_begin(kind, state, codeptr);
    real();
    gomp_sync_wait_end(kind, codeptr, old);
}

GOMP_SYNC_WAIT(GOMP_barrier, ompt_sync_region_barrier_implementation,
               ompt_state_wait_barrier_implementation)

GOMP_EXPORT bool GOMP_barrier_cancel(void)
{
    if (!GOMP_ACTIVE())
        return REAL(GOMP_barrier_cancel)();
    const void *codeptr = GOMP_CALLER();
    int32_t old = gomp_sync_wait_begin(ompt_sync_region_barrier_implementation,
                                       ompt_state_wait_barrier_implementation, codeptr);
    bool cancelled = REAL(GOMP_barrier_cancel)();
    gomp_sync_wait_end(ompt_sync_region_barrier_implementation, codeptr, old);
    return cancelled;
}
