/* Teams: parallel begin/end on the thread that forks, implicit tasks on every
 * member, and the sync regions (barriers, taskwait, taskgroup).
 *
 * Count once: when the code is instrumented, POMP_Parallel_enter has opened the
 * region's frame before the runtime reports the fork; the bridge then only
 * remembers that frame's node as the team's fork point. Otherwise the bridge
 * opens a region named by the fork's code address and does the Parallel
 * enter/begin/end/exit itself. Workers get a team frame keyed by the fork
 * point (pomp_profile_team_begin), so each share merges under the node where
 * its own master forked the team, at any nesting depth.
 *
 * A worker's implicit barrier at the end of a parallel region: libomp reports
 * its end only when the worker is next put to work (or at shutdown). The wait
 * really ended when the master left the barrier, so the master publishes that
 * time in its team record and the worker closes its barrier (and its share)
 * with it. */
#include <stddef.h>

#include "bridge_callbacks.h"
#include "bridge_collector.h"
#include "bridge_record.h"
#include "pomp_sampling.h"

/* Parallel region instances, numbered across the process from 1: the region
 * ids of the collector API (OMP_REQ_CURRENT_PRID). One atomic add per fork. */
static uint64_t last_region_id;

void bridge_on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    (void)thread_data;
    if (!bridge_tls)
        bridge_thread_create(); /* once per thread, before its first event */
    if (type == ompt_thread_worker)
        bridge_collector_event(OMP_EVENT_THR_BEGIN_IDLE); /* until its first implicit task */
    pomp_sampling_thread_begin();
}

void bridge_on_thread_end(ompt_data_t *thread_data)
{
    (void)thread_data;
    pomp_sampling_thread_end();
}

/* For the sampler: the fork record kept with a parallel region's team. */
const struct pomp_fork_record *bridge_fork_record(const ompt_data_t *parallel_data)
{
    const struct bridge_team *team = parallel_data ? parallel_data->ptr : NULL;
    return team ? team->sampling_fork : NULL;
}

void bridge_on_parallel_begin(ompt_data_t *encountering_task_data,
                              const ompt_frame_t *encountering_task_frame,
                              ompt_data_t *parallel_data, unsigned int requested_parallelism,
                              int flags, const void *codeptr_ra)
{
    (void)encountering_task_data;
    (void)encountering_task_frame;
    (void)requested_parallelism;
    parallel_data->ptr = NULL;
    struct bridge_thread *b;
    if (bridge_measuring() < 0 || !(b = bridge_self())) {
        bridge_collector_event(OMP_EVENT_FORK);
        return;
    }
    uint32_t level = b->forks++;
    if (level >= BRIDGE_MAX_NESTING) {
        bridge_collector_event(OMP_EVENT_FORK);
        return;
    }
    struct bridge_team *team = &b->teams[level][b->forked[level] % BRIDGE_TEAM_RING];
    uint64_t seq = ++b->forked[level];
    team->region = NULL;
    team->fork = NULL;
    team->owned = 0;
    /* a league of teams (the teams construct) is no parallel region: its
     * initial tasks are not team shares, and POMP's Teams events describe it */
    if (bridge_records(POMP_GROUP_PARALLEL, BR_ENTER_EXIT) && !(flags & ompt_parallel_league)) {
        struct pomp_frame *f;
        if (bridge_pomp_entered(b, "parallel")) { /* instrumented: POMP has the region */
            f = bridge_top_frame(b);
            team->region = f->region;
            team->fork = f->skipped ? NULL : f->node;
        } else if ((team->region = bridge_region(BC_PARALLEL, codeptr_ra)) != NULL) {
            team->owned = 1;
            bridge_record(b, BR_ENTER, team->region, pomp_now(), POMP_EV_PARALLEL_ENTER);
            f = bridge_top_frame(b);
            if (f && f->region == team->region && !f->skipped)
                team->fork = f->node;
        }
    }
    team->id = __atomic_add_fetch(&last_region_id, 1, __ATOMIC_RELAXED);
    team->sampling_fork = pomp_sampling_fork_begin(codeptr_ra);
    __atomic_store_n(&team->seq, seq, __ATOMIC_RELAXED);
    __atomic_store_n(&team->join, 0, __ATOMIC_RELEASE); /* after seq: see worker_end */
    parallel_data->ptr = team;
    b->forking = team; /* the collector's fork callback asks for the new region's id */
    bridge_collector_event(OMP_EVENT_FORK);
    b->forking = NULL;
}

void bridge_on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                            int flags, const void *codeptr_ra)
{
    (void)encountering_task_data;
    (void)flags;
    (void)codeptr_ra;
    struct bridge_thread *b;
    if (bridge_measuring() < 0 || !(b = bridge_self())) {
        bridge_collector_event(OMP_EVENT_JOIN);
        return;
    }
    if (b->forks)
        b->forks--;
    struct bridge_team *team = parallel_data ? parallel_data->ptr : NULL;
    if (team)
        pomp_sampling_fork_end(team->sampling_fork);
    if (team && team->owned)
        bridge_record(b, BR_EXIT, team->region, pomp_now(), POMP_EV_PARALLEL_EXIT);
    bridge_collector_event(OMP_EVENT_JOIN);
}

/* When a worker's share of the team instance m ended: the master's join time,
 * if its team record still holds that instance, kept within [start, now]. A
 * slot reused by a later instance (the worker sat out BRIDGE_TEAM_RING of
 * them) gives start: no wait is better than an invented one. */
static uint64_t worker_end(const struct bridge_membership *m, uint64_t start, uint64_t now)
{
    if (!m->team)
        return now;
    /* join before seq: a join written for a later instance makes seq differ */
    uint64_t join = __atomic_load_n(&m->team->join, __ATOMIC_ACQUIRE);
    uint64_t seq = __atomic_load_n(&m->team->seq, __ATOMIC_RELAXED);
    if (seq != m->seq || join == 0)
        return start;
    return join < start ? start : join > now ? now : join;
}

static void implicit_task_begin(struct bridge_thread *b, ompt_data_t *parallel_data,
                                unsigned int index)
{
    uint32_t n = b->nesting++;
    b->thread_num = (int32_t)index;
    if (n >= BRIDGE_MAX_NESTING)
        return;
    struct bridge_membership *m = &b->member[n];
    struct bridge_team *team = parallel_data ? parallel_data->ptr : NULL;
    *m = (struct bridge_membership){.master = index == 0, .team = team};
    if (!team)
        return;
    m->seq = __atomic_load_n(&team->seq, __ATOMIC_RELAXED);
    m->id = team->id;
    m->region = team->region;
    m->start = pomp_now();
    if (!m->region || !bridge_records(POMP_GROUP_PARALLEL, BR_BEGIN_END))
        return;
    struct pomp_thread *t = bridge_pomp_thread(b);
    if (!m->master && team->fork && t) {
        pomp_profile_team_begin(&t->profile, m->region, team->fork, m->start,
                                bridge_measuring() == 0);
        m->frame = 1;
    }
    if (team->owned && (m->master || m->frame)) {
        bridge_record(b, BR_BEGIN, m->region, m->start, POMP_EV_PARALLEL_BEGIN);
        m->body = 1;
    }
}

/* Ends the block the bridge opened (the implicit barrier or the task's end). */
static void end_body(struct bridge_thread *b, struct bridge_membership *m, uint64_t when)
{
    if (!m->body)
        return;
    m->body = 0;
    bridge_record(b, BR_END, m->region, when, POMP_EV_PARALLEL_END);
}

static void implicit_task_end(struct bridge_thread *b, uint64_t now)
{
    if (!b->nesting)
        return;
    uint32_t n = --b->nesting;
    if (n >= BRIDGE_MAX_NESTING)
        return;
    struct bridge_membership *m = &b->member[n];
    uint64_t when = m->master ? now : m->end ? m->end : worker_end(m, m->start, now);
    end_body(b, m, when);
    if (m->frame) {
        m->frame = 0;
        struct pomp_thread *t = bridge_pomp_thread(b);
        if (t)
            pomp_profile_exit(&t->profile, m->region, when); /* the share; POMP logs no event */
    }
}

void bridge_on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, unsigned int actual_parallelism,
                             unsigned int index, int flags)
{
    (void)task_data;
    (void)actual_parallelism;
    struct bridge_thread *b;
    if (flags & ompt_task_initial)
        return; /* the initial task of a thread (or of a league) is no team share */
    int worker = index != 0 && endpoint == ompt_scope_begin;
    if (worker)
        bridge_collector_event(OMP_EVENT_THR_END_IDLE);
    if (bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    if (endpoint == ompt_scope_begin) {
        implicit_task_begin(b, parallel_data, index);
    } else {
        struct bridge_membership *m = bridge_membership_top(b);
        int was_worker = m && !m->master;
        implicit_task_end(b, pomp_now());
        if (was_worker)
            bridge_collector_event(OMP_EVENT_THR_BEGIN_IDLE);
    }
}

/* ---- sync regions ---- */

struct sync_kind {
    enum bridge_construct construct;
    enum pomp_group group;
    unsigned levels;
    enum pomp_event_kind enter, exit;
    const char *pomp_type;  /* POMP's region for the same construct: counted once */
};

static int sync_kind_of(ompt_sync_region_t kind, struct sync_kind *k)
{
    static const struct sync_kind
        barrier = {BC_BARRIER, POMP_GROUP_SYNC, BR_ENTER_EXIT, POMP_EV_BARRIER_ENTER,
                   POMP_EV_BARRIER_EXIT, "barrier"},
        implicit = {BC_IMPLICIT_BARRIER, POMP_GROUP_SYNC, BR_ENTER_EXIT,
                    POMP_EV_IMPLICIT_BARRIER_ENTER, POMP_EV_IMPLICIT_BARRIER_EXIT, NULL},
        taskwait = {BC_TASKWAIT, POMP_GROUP_TASK, BR_ENTER_EXIT, POMP_EV_OMPT_SYNC_ENTER,
                    POMP_EV_OMPT_SYNC_EXIT, "taskwait"},
        taskgroup = {BC_TASKGROUP, POMP_GROUP_TASK, BR_ENTER_EXIT, POMP_EV_OMPT_SYNC_ENTER,
                     POMP_EV_OMPT_SYNC_EXIT, NULL};
    switch ((int)kind) {
    case ompt_sync_region_barrier_explicit: *k = barrier; return 1;
    case ompt_sync_region_barrier_implicit_parallel:
        *k = implicit, k->construct = BC_IMPLICIT_BARRIER_PARALLEL; return 1;
    case ompt_sync_region_barrier_implicit_workshare:
        *k = implicit, k->construct = BC_IMPLICIT_BARRIER_WORKSHARE; return 1;
    case 1: /* ompt_sync_region_barrier (deprecated) */
    case 2: /* ompt_sync_region_barrier_implicit (deprecated) */
        *k = implicit; return 1;
    case ompt_sync_region_barrier_implementation:
        /* GCC code's barriers on libomp, the explicit one included: POMP's
         * explicit barrier, when instrumented, is the same construct */
        *k = implicit, k->construct = BC_IMPLEMENTATION_BARRIER, k->pomp_type = "barrier";
        return 1;
    case ompt_sync_region_barrier_teams:
        *k = implicit, k->construct = BC_TEAMS_BARRIER; return 1;
    case ompt_sync_region_taskwait: *k = taskwait; return 1;
    case ompt_sync_region_taskgroup: *k = taskgroup; return 1;
    default: return 0; /* reductions: inside the construct's own barrier */
    }
}

/* Which barriers get a code address: implicit ones are named by the call path
 * (workers report none for a parallel region's barrier). */
static int keyed_by_address(enum bridge_construct c)
{
    return c == BC_BARRIER || c == BC_IMPLEMENTATION_BARRIER || c == BC_TASKWAIT ||
           c == BC_TASKGROUP;
}

static void sync_begin(struct bridge_thread *b, ompt_sync_region_t kind, const void *codeptr_ra)
{
    uint64_t now = pomp_now();
    struct bridge_membership *m = bridge_membership_top(b);
    if (kind == ompt_sync_region_barrier_implicit_parallel && m)
        end_body(b, m, now); /* the block of an uninstrumented parallel region ends here */
    struct bridge_scope *s = bridge_scope_push(b, SCOPE_SYNC);
    struct sync_kind k;
    if (!s || !sync_kind_of(kind, &k))
        return;
    s->detail = (uint8_t)kind;
    s->start = now;
    if (!bridge_records(k.group, k.levels) || (k.pomp_type && bridge_pomp_entered(b, k.pomp_type)))
        return;
    s->region = bridge_region(k.construct, keyed_by_address(k.construct) ? codeptr_ra : NULL);
    s->exit_kind = (uint16_t)k.exit;
    bridge_record(b, BR_ENTER, s->region, now, k.enter);
}

/* The end of a sync region at `now` (for a worker's closing barrier, the
 * master's join time is taken instead). */
static void sync_end(struct bridge_thread *b, ompt_sync_region_t kind, uint64_t now)
{
    struct bridge_scope *s = bridge_scope_pop(b, SCOPE_SYNC);
    struct bridge_membership *m = bridge_membership_top(b);
    uint64_t when = now;
    if (kind == ompt_sync_region_barrier_implicit_parallel && m) {
        if (m->master && m->team)
            __atomic_store_n(&m->team->join, now, __ATOMIC_RELEASE);
        else if (!m->master)
            when = m->end = worker_end(m, s ? s->start : m->start, now);
    }
    if (s && s->region)
        bridge_record(b, BR_EXIT, s->region, when, (enum pomp_event_kind)s->exit_kind);
}

void bridge_on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr_ra)
{
    (void)parallel_data;
    (void)task_data;
    struct bridge_thread *b;
    int barrier = kind != ompt_sync_region_taskwait && kind != ompt_sync_region_taskgroup &&
                  kind != ompt_sync_region_reduction;
    if (barrier) /* GCC's explicit barriers come as implementation barriers: IBAR */
        bridge_collector_event(kind == ompt_sync_region_barrier_explicit
                                   ? (endpoint == ompt_scope_begin ? OMP_EVENT_THR_BEGIN_EBAR
                                                                   : OMP_EVENT_THR_END_EBAR)
                                   : (endpoint == ompt_scope_begin ? OMP_EVENT_THR_BEGIN_IBAR
                                                                   : OMP_EVENT_THR_END_IBAR));
    if (bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    if (endpoint == ompt_scope_begin)
        sync_begin(b, kind, codeptr_ra);
    else
        sync_end(b, kind, pomp_now());
}

/* Workers still in a parallel region's closing barrier at finalization (the
 * program called POMP_Finalize before the runtime shut down): their barrier
 * and their share end at their master's join, as the runtime would have
 * reported later. Runs after recording stopped, while the workers idle. */
void bridge_close_pending(void)
{
    uint64_t now = pomp_now();
    for (struct bridge_thread *b = bridge_thread_list(); b; b = b->next) {
        struct bridge_membership *m = bridge_membership_top(b);
        struct bridge_scope *s = bridge_scope_top(b);
        if (!b->pomp || !m || m->master || !s || s->kind != SCOPE_SYNC ||
            s->detail != ompt_sync_region_barrier_implicit_parallel)
            continue;
        sync_end(b, ompt_sync_region_barrier_implicit_parallel, now);
        implicit_task_end(b, now);
    }
}
