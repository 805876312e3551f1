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
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bridge_callbacks.h"
#include "bridge_collector.h"
#include "bridge_record.h"
#include "ctc.h"
#include "pomp_record.h"

/* Parallel region instances, numbered across the process from 1: the region
 * ids of the collector API (OMP_REQ_CURRENT_PRID). One atomic add per fork. */
static uint64_t last_region_id;
static uint64_t forks_too_deep; /* bridge_forks_too_deep */

uint64_t bridge_forks_too_deep(void) { return __atomic_load_n(&forks_too_deep, __ATOMIC_RELAXED); }

/* LLVM libomp runs each team of a league (the teams construct on the host)
 * as a parallel region of its own, forked by the team's initial task at an
 * address inside the runtime: the team itself, not a region of the program.
 * Its parallel data carries this marker instead of a team record, and the
 * bridge makes no region of it, as of the league (before: a 'parallel'
 * without a place around each team's work, POMP's teams region nested in
 * itself, and the league's barrier in the next parallel region). The libgomp
 * bridge forks no such region. */
static const char league_team;

/* The parallel data of a team the runtime forks for itself, outside any
 * league: LLVM libomp's hidden helper threads, which run `target nowait`
 * tasks, are a team of 8 forked from libomp's own code at its start. It is
 * no region of the program: the bridge makes no region, share or barrier of
 * it, and the tasks its threads run are roots of their own (it read as a
 * parallel region of 8 threads, and its closing barrier, open at exit with a
 * target task in it, held -464 us of own time read as 8.8e18 ns; a probe). */
static const char runtime_team;

/* The team record parallel_data carries, or NULL: none, or one of the two
 * markers above, which are no records (read as one, the league's marker
 * crashed the sampler in a parallel region inside host teams, and the
 * runtime's marker in a `target nowait` sampled; probes). */
static struct bridge_team *team_record(const ompt_data_t *parallel_data)
{
    void *p = parallel_data ? parallel_data->ptr : NULL;
    return p == &league_team || p == &runtime_team ? NULL : p;
}

/* Whether code address codeptr_ra lies in the OpenMP runtime's own code. */
static int in_runtime_code(const void *codeptr_ra)
{
    return codeptr_ra &&
           (uintptr_t)codeptr_ra - bridge_runtime_code_lo < bridge_runtime_code_span;
}

/* Whether thread b's fork from the runtime's own code is the runtime's own
 * team: b is in no team and runs no task (libomp's hidden helper threads'
 * first thread). A program forks from there too: a fork that is the last
 * call of an outlined function or a task (a tail call: Clang and GCC at -O2
 * jump to __kmpc_fork_call or GOMP_parallel) returns into the runtime, which
 * called that function; it is made inside the team or the task (before, such
 * a nested region was dropped without a word under pomprun: its threads' work
 * read as outside any parallel region; a probe). */
static int forks_runtime_team(const struct bridge_thread *b, const void *codeptr_ra)
{
    return in_runtime_code(codeptr_ra) && !b->nesting && !b->nscopes && !b->lost_scopes;
}

/* The region of a fork by thread b at codeptr_ra that the instrumentation
 * did not report. A tail call's address is the runtime's, the same for
 * every such fork: the region is the one inside the enclosing team's region,
 * at its place (its file and lines, or its code address). */
static struct POMP_Region_s *fork_region(struct bridge_thread *b, const void *codeptr_ra)
{
    const struct bridge_membership *m = bridge_membership_top(b);
    if (in_runtime_code(codeptr_ra) && m && m->region)
        return bridge_region_at(BC_PARALLEL, m->region);
    return bridge_region(BC_PARALLEL, codeptr_ra);
}

/* Whether a fork by thread b is LLVM libomp's region of a league's team: b
 * runs a league's initial task that forked none yet, and the runtime forks
 * it from its own code. */
static int forks_league_team(const struct bridge_thread *b, const void *codeptr_ra)
{
    return b->league_tasks > b->league_teams && !bridge_code_is_program(BC_PARALLEL, codeptr_ra);
}

/* Whether parallel_data, the league team's marker, stands for that team on
 * thread b, and not for a region the program forked inside it: libomp 19's
 * libgomp layer hands a GCC parallel region inside a host teams construct
 * that runs serialized (one thread) the league team's parallel_data at its
 * implicit task and its end, not its own. The bridge took that end for the
 * league team's and left the inner region open (2 regions open at exit, and
 * the teams barrier inside it). A thread's forks nest: one made since the
 * league team's and not ended is the region ending or starting. */
static int is_league_team(const struct bridge_thread *b, const ompt_data_t *parallel_data)
{
    return parallel_data && parallel_data->ptr == &league_team &&
           b->forks <= b->league_team_forks;
}

/* The program's own threads that called the runtime (initial threads) and
 * have not ended, where thread begin and end are registered: at the
 * program's exit another one still running may be inside the runtime while
 * it shuts down (bridge_other_initial_threads). */
static int initial_threads_counted;
static unsigned live_initial_threads;
static __thread uint8_t live_initial;

void bridge_count_initial_threads(void)
{
    __atomic_store_n(&initial_threads_counted, 1, __ATOMIC_RELEASE);
}

int bridge_other_initial_threads(void)
{
    if (!__atomic_load_n(&initial_threads_counted, __ATOMIC_ACQUIRE))
        return -1;
    return (int)(__atomic_load_n(&live_initial_threads, __ATOMIC_ACQUIRE) - live_initial);
}

void bridge_on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    (void)thread_data;
    if (type == ompt_thread_initial && !live_initial) {
        live_initial = 1;
        __atomic_add_fetch(&live_initial_threads, 1, __ATOMIC_RELEASE);
    }
    /* a worker is announced as it starts; an initial thread when it first
     * calls the runtime, which may be long after its start (its waits before
     * are read from the kernel, as any thread's) */
    if (type == ompt_thread_worker)
        pomp_thread_os_begin();
    if (!bridge_tls)
        bridge_thread_create(); /* once per thread, before its first event */
    if (type == ompt_thread_worker)
        bridge_collector_event(OMP_EVENT_THR_BEGIN_IDLE); /* until its first implicit task */
    pomp_sampling_thread_begin();
}

static void close_released(struct bridge_thread *b);

void bridge_on_thread_end(ompt_data_t *thread_data)
{
    (void)thread_data;
    if (live_initial) {
        live_initial = 0;
        __atomic_sub_fetch(&live_initial_threads, 1, __ATOMIC_RELEASE);
    }
    struct bridge_thread *b = bridge_tls;
    if (b && bridge_measuring() >= 0)
        close_released(b);
    pomp_sampling_thread_end();
    bridge_tool_thread_end();
    bridge_thread_retire();
}

/* The league the calling thread runs a team of (its innermost), or NULL.
 * Reads only the thread's own memberships (a signal handler's too). */
static const struct bridge_team *innermost_league(const struct bridge_thread *b)
{
    uint32_t top = b ? b->nesting : 0;
    for (uint32_t i = top < BRIDGE_MAX_NESTING ? top : BRIDGE_MAX_NESTING; i > 0; i--) {
        const struct bridge_team *t = b->member[i - 1].team;
        if (t && t->league)
            return t;
    }
    return NULL;
}

/* For the sampler: the fork record kept with a parallel region's team; for a
 * league's team (libomp's, which has no record of its own), the league's: a
 * region forked in a team a worker runs is under the teams construct's
 * encountering frames, as one in the initial thread's team (it read
 * __clone3 > start_thread > main.omp_outlined; a probe). */
const struct pomp_fork_record *bridge_fork_record(const ompt_data_t *parallel_data)
{
    const struct bridge_team *team = team_record(parallel_data);
    if (!team && parallel_data && parallel_data->ptr == &league_team)
        team = innermost_league(bridge_tls);
    return team ? team->sampling_fork : NULL;
}

/* Whether the calling thread is a worker whose team's master had left the
 * closing barrier by `when` (pomp_now ticks; UINT64_MAX: by now). libomp,
 * and the libgomp bridge likewise, report such a worker in the implicit
 * barrier until it is next put to work (see the top of this file), so the
 * serial code after the last join read as 300 ms of barrier wait on a worker
 * whose barrier took none: it is waiting for work. The sampler asks by when
 * its sample was due: a handler that ran late, after the join, leaves the
 * sample in the barrier, where the thread was when it was due. Reads only the
 * thread's own records and the master's published join (a signal handler may
 * interrupt the thread anywhere: a membership half made reads as none or as
 * the previous one). A team record that holds a later instance says this one
 * ended long before (the worker sat out BRIDGE_TEAM_RING forks). */
int bridge_worker_joined_by(uint64_t when)
{
    struct bridge_thread *b = bridge_tls;
    const struct bridge_membership *m = b ? bridge_membership_top(b) : NULL;
    if (!m || m->master || !m->team)
        return 0;
    /* join before seq: a join written for a later instance makes seq differ */
    uint64_t join = __atomic_load_n(&m->team->join, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&m->team->seq, __ATOMIC_ACQUIRE) != m->seq)
        return 1;
    return join != 0 && join <= when;
}

/* A team forked after pomp wrote its output at the program's exit (a
 * library's destructor that comes after libpomp's, or one while another
 * thread of the program's still runs OpenMP): said once, naming its object
 * (it went unsaid; a probe). Also reached in a fork()ed child, where the
 * note says nothing: once there too. */
static int parallel_after_stop_seen;

__attribute__((cold)) static void note_parallel_after_stop(const void *codeptr_ra)
{
    if (__atomic_exchange_n(&parallel_after_stop_seen, 1, __ATOMIC_RELAXED))
        return;
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", "parallel");
    Dl_info info;
    if (codeptr_ra && dladdr(codeptr_ra, &info) && info.dli_fname && info.dli_fname[0]) {
        const char *base = strrchr(info.dli_fname, '/');
        ctc_builder_add(&b, "file", base ? base + 1 : info.dli_fname);
    }
    char *ctc = ctc_builder_finish(&b);
    pomp_note_construct_after_exit(ctc);
    free(ctc);
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
    int measuring = bridge_measuring();
    if (measuring < 0 || !(b = bridge_self())) {
        if (measuring < 0) { /* a fork()ed child's region: said once (its pompcc build's events
                                say it; under pomprun it went unmeasured without a word; a probe) */
            pomp_note_event_after_stop();
            note_parallel_after_stop(codeptr_ra);
        }
        bridge_collector_event(OMP_EVENT_FORK);
        return;
    }
    if (!(flags & ompt_parallel_league) && forks_league_team(b, codeptr_ra)) {
        b->league_teams++;
        b->league_team_forks = b->forks;
        parallel_data->ptr = (void *)&league_team;
        bridge_collector_event(OMP_EVENT_FORK);
        return;
    }
    if (!(flags & ompt_parallel_league) && forks_runtime_team(b, codeptr_ra)) {
        parallel_data->ptr = (void *)&runtime_team;
        bridge_collector_event(OMP_EVENT_FORK);
        return;
    }
    uint32_t level = b->forks++;
    /* past either cap: the thread's forks, or its memberships (the master's
     * share of this team would be member[nesting], not kept). A worker of an
     * outer team is a member of more teams than it forked: capped by its
     * forks alone, it recorded the fork's enter without the master's share
     * (a parallel path with visits and no begins) one or two levels past
     * where its master's thread stopped, each thread's innermost work at
     * another depth (a probe: 12 levels, teams of 2 at the first two) */
    if (level >= BRIDGE_MAX_NESTING || b->nesting >= BRIDGE_MAX_NESTING) {
        /* counted: recursion 12 teams deep lost 4 unsaid (a probe) */
        __atomic_add_fetch(&forks_too_deep, 1, __ATOMIC_RELAXED);
        bridge_collector_event(OMP_EVENT_FORK);
        return;
    }
    struct bridge_team *team = &b->teams[level][b->forked[level] % BRIDGE_TEAM_RING];
    uint64_t seq = ++b->forked[level];
    team->region = NULL;
    team->fork = NULL;
    team->owned = 0;
    team->league = (flags & ompt_parallel_league) != 0;
    /* a league of teams (the teams construct) is no parallel region, and
     * POMP's Teams events describe it; when they do, the league's record
     * keeps POMP's region, so that a worker's share of it, which its teams
     * barrier ends, is one with the master's (league_task) */
    if (team->league) {
        struct pomp_frame *f;
        if (bridge_records(POMP_GROUP_PARALLEL, BR_ENTER_EXIT) && bridge_pomp_entered(b, BRC_TEAMS) &&
            (f = bridge_top_frame(b)) != NULL) {
            team->region = f->region;
            team->fork = f->skipped ? NULL : f->node;
        }
    } else if (bridge_records(POMP_GROUP_PARALLEL, BR_ENTER_EXIT)) {
        struct pomp_frame *f;
        if (bridge_pomp_entered(b, BRC_PARALLEL)) { /* instrumented: POMP has the region */
            f = bridge_top_frame(b);
            team->region = f->region;
            team->fork = f->skipped ? NULL : f->node;
        } else if (!bridge_too_deep(b) && (team->region = fork_region(b, codeptr_ra)) != NULL) {
            /* (too deep, POMP's enter was counted, not recorded: an instrumented
             * region was said to be one pompcc did not instrument; a probe) */
            team->owned = 1;
            bridge_uninstrumented_fork(codeptr_ra);
            (void)bridge_pomp_thread(b); /* made before the clock (implicit_task_begin) */
            bridge_record(b, BR_ENTER, team->region, pomp_now(), POMP_EV_PARALLEL_ENTER);
            f = bridge_top_frame(b);
            if (f && f->region == team->region && !f->skipped)
                team->fork = f->node;
        }
        if (team->fork) /* the tasks run in the team are keyed by it too */
            pomp_profile_mark_fork(&bridge_pomp_thread(b)->profile, team->fork);
    }
    team->id = __atomic_add_fetch(&last_region_id, 1, __ATOMIC_RELAXED);
    team->sampling_fork = b->sampling ? pomp_sampling_fork_begin(codeptr_ra) : NULL;
    __atomic_store_n(&team->seq, seq, __ATOMIC_RELAXED);
    __atomic_store_n(&team->join, 0, __ATOMIC_RELEASE); /* after seq: see worker_end */
    parallel_data->ptr = team;
    b->forking = team; /* the collector's fork callback asks for the new region's id */
    bridge_collector_event(OMP_EVENT_FORK);
    b->forking = NULL;
}

/* The record of the innermost team thread b forked and has not joined yet
 * (the slot of its last fork at that level); NULL: none, or forked deeper
 * than the bridge records. */
static struct bridge_team *last_forked(struct bridge_thread *b)
{
    if (b->forks == 0 || b->forks > BRIDGE_MAX_NESTING)
        return NULL;
    uint32_t level = b->forks - 1;
    return &b->teams[level][(b->forked[level] - 1) % BRIDGE_TEAM_RING];
}

/* The team record of a region thread b forked, for its parallel_end and its
 * own (the master's) implicit task: the innermost fork b has not ended, not
 * parallel_data->ptr. libomp 19's libgomp layer hands a parallel region inside
 * a host teams construct (GCC code: GOMP_parallel in GOMP_teams_reg's team)
 * the parallel_data of the team's own region at its implicit task and end,
 * not the one its begin got: the bridge took the inner region's end for the
 * team region's and exited that one twice (7 nesting errors per team). A
 * thread's forks nest, so its innermost one is the region ending or starting.
 * parallel_data without a record (not measured at the fork, nesting too deep)
 * stays without one. */
static struct bridge_team *forked_team(struct bridge_thread *b,
                                       const ompt_data_t *parallel_data)
{
    if (!parallel_data || !parallel_data->ptr)
        return NULL;
    struct bridge_team *t = last_forked(b);
    return t ? t : team_record(parallel_data);
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
    if (is_league_team(b, parallel_data)) {
        if (b->league_teams)
            b->league_teams--;
        bridge_collector_event(OMP_EVENT_JOIN);
        return;
    }
    if (parallel_data && parallel_data->ptr == &runtime_team) {
        bridge_collector_event(OMP_EVENT_JOIN);
        return;
    }
    struct bridge_team *team = forked_team(b, parallel_data);
    if (b->forks)
        b->forks--;
    if (team && team->sampling_fork)
        pomp_sampling_fork_end(team->sampling_fork);
    if (team && team->owned)
        bridge_record(b, BR_EXIT, team->region, pomp_now(), POMP_EV_PARALLEL_EXIT);
    bridge_collector_event(OMP_EVENT_JOIN);
}

/* When a worker's share of the team instance m ended: the master's join time,
 * if its team record still holds that instance, and not before start. A slot
 * reused by a later instance (the worker sat out BRIDGE_TEAM_RING of them)
 * gives start: no wait is better than an invented one. Without a team record,
 * now (read here if 0). The join is not clamped to this thread's clock: the
 * master wrote it before this thread was released (the TSC is invariant and
 * synchronized across cores, pomp_clock.h; CLOCK_MONOTONIC is system-wide).
 * released: the team let the worker go (its thread ends), so a join not
 * written yet is the master's still to come, after the barrier's end: now. */
static uint64_t worker_end(const struct bridge_membership *m, uint64_t start, uint64_t now,
                           int released)
{
    if (!m->team)
        return now ? now : pomp_now();
    /* join before seq: a join written for a later instance makes seq differ */
    uint64_t join = __atomic_load_n(&m->team->join, __ATOMIC_ACQUIRE);
    uint64_t seq = __atomic_load_n(&m->team->seq, __ATOMIC_RELAXED);
    if (seq == m->seq && join == 0 && released) {
        join = now ? now : pomp_now();
    } else if (seq != m->seq || join == 0)
        return start;
    return join < start ? start : join;
}

/* Thread b joins the team of record `team` (NULL: not recorded), as its
 * master (the thread that forked it) or as a worker: a parallel region's
 * implicit task, or a league's initial task. */
/* Whether POMP's region of league team is a construct kept whole (a
 * `teams loop`: Teams_enter and Teams_exit around it, no POMP call inside),
 * whose block no POMP call begins on the master's team: the bridge does,
 * as on the other teams' threads (the league's first team had no begin: 1
 * begin for 2 teams; a probe). */
static int league_kept_whole(const struct bridge_team *team)
{
    return team->league && !team->owned && team->region && team->region->ctc.type &&
           strcmp(team->region->ctc.type, "teams loop") == 0;
}

static void membership_begin(struct bridge_thread *b, struct bridge_team *team, int master)
{
    uint32_t n = b->nesting;
    /* the team before the push: the sampler's handler, which may interrupt
     * here, reads the memberships up to nesting (innermost_league) */
    if (n < BRIDGE_MAX_NESTING)
        b->member[n].team = team;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    b->nesting = n + 1;
    if (n >= BRIDGE_MAX_NESTING)
        return;
    struct bridge_membership *m = &b->member[n];
    m->master = (uint8_t)master;
    m->end = 0;
    m->frame = 0;
    m->body = 0;
    m->runtime = 0;
    if (!team) {
        m->region = NULL;
        m->id = 0;
        return;
    }
    m->seq = __atomic_load_n(&team->seq, __ATOMIC_RELAXED);
    m->id = team->id;
    m->region = team->region;
    /* the thread's record before the clock: a thread's first share makes it
     * (its allocations, its sampling timer: 0.3-0.7 ms), which is no time of
     * the share (a libgomp program with nested teams starts threads for each
     * inner team: their setup was a third of the inner region's time) */
    struct pomp_thread *t = m->region ? bridge_pomp_thread_in(b, m->region) : NULL;
    if (t) /* its Parallel_begin's trace record names the instance */
        t->team_instance = team->id;
    /* the master's share is POMP's region (or the bridge's, owned): only a
     * worker's share and an owned region's block start here; and POMP's
     * block where private copies come before it (block_end) */
    int whole = m->master && league_kept_whole(team);
    m->start = !m->master || team->owned || whole || (m->region && m->region->block_setup)
                   ? pomp_now()
                   : 0;
    if (!m->region || !bridge_records(POMP_GROUP_PARALLEL, BR_BEGIN_END))
        return;
    if (!m->master && team->fork && t && pomp_thread_write_begin(t)) {
        pomp_profile_team_begin(&t->profile, m->region, team->fork, m->start,
                                bridge_measuring() == 0);
        pomp_thread_write_end(t);
        m->frame = 1;
    }
    if (team->owned && (m->master || m->frame)) {
        bridge_record(b, BR_BEGIN, m->region, m->start, POMP_EV_PARALLEL_BEGIN);
        m->body = 1;
    } else if (whole) {
        bridge_record(b, BR_BEGIN, m->region, m->start, POMP_EV_TEAMS_BEGIN);
        m->body = 2; /* (a league's: its end is a Teams_end) */
    }
}

static __attribute__((noinline)) void implicit_task_begin(ompt_data_t *parallel_data,
                                                          unsigned int index)
{
    struct bridge_thread *b;
    if (index != 0)
        bridge_collector_event(OMP_EVENT_THR_END_IDLE);
    if (bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    if (parallel_data && parallel_data->ptr == &runtime_team) {
        b->thread_num = (int32_t)index;
        membership_begin(b, NULL, index == 0);
        if (b->nesting && b->nesting <= BRIDGE_MAX_NESTING)
            b->member[b->nesting - 1].runtime = 1;
        return;
    }
    struct bridge_team *team = NULL; /* none for a league's team (league_team) */
    if (parallel_data && !is_league_team(b, parallel_data))
        team = index == 0 ? forked_team(b, parallel_data) : team_record(parallel_data);
    b->thread_num = (int32_t)index;
    membership_begin(b, team, index == 0);
}

/* Ends the block the bridge opened (the implicit barrier or the task's end). */
static void end_body(struct bridge_thread *b, struct bridge_membership *m, uint64_t when)
{
    if (!m->body)
        return;
    enum pomp_event_kind kind = m->body == 2 ? POMP_EV_TEAMS_END : POMP_EV_PARALLEL_END;
    m->body = 0;
    bridge_record(b, BR_END, m->region, when, kind);
}

/* The end of thread b's innermost implicit task; now: the time, or 0 to read
 * the clock if the end needs one (a worker's share ends at its barrier's end,
 * known already; the master's at POMP's exit, unless the bridge owns it). */
static void implicit_task_end(struct bridge_thread *b, uint64_t now)
{
    if (!b->nesting)
        return;
    uint32_t n = --b->nesting;
    if (n >= BRIDGE_MAX_NESTING)
        return;
    struct bridge_membership *m = &b->member[n];
    if (!m->body && !m->frame)
        return;
    if (!now && m->master)
        now = pomp_now();
    uint64_t when = m->master ? now : m->end ? m->end : worker_end(m, m->start, now, b->released);
    end_body(b, m, when);
    if (m->frame) {
        m->frame = 0;
        struct pomp_thread *t = bridge_pomp_thread(b);
        if (t && pomp_thread_write_begin(t)) {
            /* the share; POMP logs no event. A flush since its barrier ended
             * (that end's record set it off) is its child: it ends after it */
            pomp_profile_exit(&t->profile, m->region, pomp_thread_not_before_flush(t, when));
            pomp_thread_write_end(t);
        }
    }
}

static __attribute__((noinline)) void implicit_task_end_cb(void)
{
    struct bridge_thread *b;
    if (bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    struct bridge_membership *m = bridge_membership_top(b);
    int was_worker = m && !m->master;
    /* a single's block ends by the implicit task's end at the latest: libomp's
     * libgomp layer reports no end of a single, and a team of one no barrier */
    bridge_work_end_at_barrier(b);
    implicit_task_end(b, 0);
    if (was_worker)
        bridge_collector_event(OMP_EVENT_THR_BEGIN_IDLE);
}

/* Whether team record t is one thread b forked. */
static int forked_by(const struct bridge_thread *b, const struct bridge_team *t)
{
    const char *p = (const char *)t, *first = (const char *)&b->teams[0][0];
    return p >= first && p < first + sizeof b->teams;
}

/* The league whose initial task `index` thread b begins, or NULL: a thread's
 * own initial task. The master's is the league it just forked: LLVM libomp 19
 * hands the initial task of a league of one team a parallel_data of its own,
 * not the league's (the league's team then read as a parallel region of the
 * program: a 'parallel' in every one-team teams construct). */
static struct bridge_team *league_of(struct bridge_thread *b, const ompt_data_t *parallel_data,
                                     unsigned int index)
{
    struct bridge_team *t = NULL;
    if (index != 0) {
        t = team_record(parallel_data);
    } else if ((t = last_forked(b)) != NULL) {
        const struct bridge_membership *m = bridge_membership_top(b);
        if (m && m->team == t) /* its initial task began already */
            t = NULL;
    }
    return t && t->league ? t : NULL;
}

/* The initial task of a league's team begins or ends on this thread: a
 * membership of the league, as an implicit task is of a parallel region's
 * team, so that a worker's teams barrier ends at the master's (libomp reports
 * its end only when the worker is next put to work, or at the runtime's
 * shutdown: after pomp's output was written, and the wait was lost). */
static __attribute__((noinline)) void league_initial_task(ompt_scope_endpoint_t endpoint,
                                                          const ompt_data_t *parallel_data,
                                                          unsigned int index)
{
    struct bridge_thread *b;
    if (bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    if (endpoint == ompt_scope_begin) {
        struct bridge_team *league = league_of(b, parallel_data, index);
        if (!league)
            return;
        b->league_tasks++;
        /* the libgomp bridge runs every team of a league on the thread that
         * forked it, one after the other (libgomp's host teams): each is
         * the master's; a team's master keeps its thread number 0 */
        int master = index == 0 || forked_by(b, league);
        if (!master)
            bridge_collector_event(OMP_EVENT_THR_END_IDLE);
        membership_begin(b, league, master);
    } else if (b->league_tasks) {
        b->league_tasks--;
        implicit_task_end_cb();
    }
}

/* The callbacks on every parallel region only dispatch: each endpoint's
 * function saves the registers it needs itself. */
void bridge_on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, unsigned int actual_parallelism,
                             unsigned int index, int flags)
{
    (void)task_data;
    (void)actual_parallelism;
    if (flags & ompt_task_initial) { /* the initial task of a thread (or of a league) is no
                                        team share; a league's team may fork one (league_team) */
        league_initial_task(endpoint, parallel_data, index);
        return;
    }
    if (endpoint == ompt_scope_begin)
        implicit_task_begin(parallel_data, index);
    else
        implicit_task_end_cb();
}

/* ---- sync regions ---- */

struct sync_kind {
    uint8_t known;          /* 0: a kind the bridge does not record */
    uint8_t construct;      /* enum bridge_construct */
    uint8_t group;          /* enum pomp_group */
    uint8_t keyed;          /* named by code address (implicit barriers are placed by the
                               call path: workers report no address) */
    uint8_t pomp_class;     /* POMP's region for the same construct: counted once (0: none) */
    uint16_t enter, exit;   /* enum pomp_event_kind */
};

/* Every sync region kind libomp 19 reports (the deprecated 1 and 2 included),
 * by ompt_sync_region_t. Not recorded: reductions, which happen inside the
 * construct's own barrier (measured). */
enum { SYNC_KINDS = ompt_sync_region_barrier_teams + 1 };
static const struct sync_kind sync_kinds[SYNC_KINDS] = {
#define IMPLICIT(c) {1, c, POMP_GROUP_SYNC, 0, 0, POMP_EV_IMPLICIT_BARRIER_ENTER, \
                     POMP_EV_IMPLICIT_BARRIER_EXIT}
    [1] = IMPLICIT(BC_IMPLICIT_BARRIER), /* ompt_sync_region_barrier (deprecated) */
    [2] = IMPLICIT(BC_IMPLICIT_BARRIER), /* ompt_sync_region_barrier_implicit (deprecated) */
    [ompt_sync_region_barrier_explicit] = {1, BC_BARRIER, POMP_GROUP_SYNC, 1, BRC_BARRIER,
                                           POMP_EV_BARRIER_ENTER, POMP_EV_BARRIER_EXIT},
    /* GCC code's barriers on libomp, the explicit one included: POMP's explicit
     * barrier, when instrumented, is the same construct */
    [ompt_sync_region_barrier_implementation] = {1, BC_IMPLEMENTATION_BARRIER, POMP_GROUP_SYNC, 1,
                                                 BRC_BARRIER, POMP_EV_IMPLICIT_BARRIER_ENTER,
                                                 POMP_EV_IMPLICIT_BARRIER_EXIT},
    [ompt_sync_region_taskwait] = {1, BC_TASKWAIT, POMP_GROUP_TASK, 1, BRC_TASKWAIT,
                                   POMP_EV_OMPT_SYNC_ENTER, POMP_EV_OMPT_SYNC_EXIT},
    [ompt_sync_region_taskgroup] = {1, BC_TASKGROUP, POMP_GROUP_TASK, 1, 0, POMP_EV_OMPT_SYNC_ENTER,
                                    POMP_EV_OMPT_SYNC_EXIT},
    [ompt_sync_region_barrier_implicit_workshare] = IMPLICIT(BC_IMPLICIT_BARRIER_WORKSHARE),
    [ompt_sync_region_barrier_implicit_parallel] = IMPLICIT(BC_IMPLICIT_BARRIER_PARALLEL),
    [ompt_sync_region_barrier_teams] = IMPLICIT(BC_TEAMS_BARRIER),
#undef IMPLICIT
};

/* When thread b's block of its innermost parallel region m ended, which is
 * when its closing barrier starts: now. For an instrumented region the
 * master's POMP_Parallel_end came before (its frame is on top, out of its
 * block); the code between (a reduction's combine, serialized on libgomp's
 * atomic lock: 600 ms of a histogram's combine read as barrier wait, and
 * lastprivate copies) is the block's: its time is added to the block's, as a
 * worker's is its share's. The runtime may report a reduction's barrier in
 * between (libomp's tree reduction, from 5 threads on); the closing barrier
 * starts after it. So, at the other end, do the private copies the outlined
 * function makes before POMP_Parallel_begin (firstprivate, private and
 * reduction: a copy constructor of 30 ms was the master's fork and the
 * worker's work, a load balance of 75 % for the same work on both): where the
 * region has them (block_setup), the master's block begins at its implicit
 * task's begin, as a worker's share does. */
static uint64_t block_end(struct bridge_thread *b, const struct bridge_membership *m)
{
    uint64_t now = pomp_now();
    const struct pomp_frame *f = bridge_top_frame(b);
    if (f && f->region == m->region && f->entered && !f->in_body && f->body_end) {
        struct pomp_thread *t = bridge_pomp_thread(b);
        if (t)
            pomp_thread_extend_block(t, m->region, m->master && m->team && !m->team->owned ? m->start : 0,
                                     now);
    }
    return now;
}

/* Whether a barrier's begin ends a single's block (bridge_work_end_open_single):
 * only a worksharing scope on top can be one. Inline, so that every other
 * barrier pays no call. */
static inline int sync_ends_single(struct bridge_thread *b, ompt_sync_region_t kind)
{
    const struct bridge_scope *top = bridge_scope_top(b);
    return top && top->kind == SCOPE_WORK && kind != ompt_sync_region_taskwait &&
           kind != ompt_sync_region_taskgroup && kind != ompt_sync_region_reduction;
}

/* An instrumented barrier or taskwait is POMP's (its enter just ran) and needs
 * not even the clock: if so, pushes a bare scope, so that the end pairs with it
 * and finds no region, and returns 1. Both sync groups record at EnterExit and
 * BeginEnd; the level is tested before the frame, as it always was, so that a
 * group at none never looks at (registers) the thread's record here. */
static inline int sync_begin_pomp(struct bridge_thread *b, ompt_sync_region_t kind,
                                  const struct sync_kind *k)
{
    if (!k || !k->pomp_class || !bridge_records((enum pomp_group)k->group, BR_ENTER_EXIT) ||
        !bridge_pomp_entered(b, (enum bridge_class)k->pomp_class))
        return 0;
    struct bridge_scope *s = bridge_scope_push(b, SCOPE_SYNC);
    if (s)
        s->detail = (uint8_t)kind;
    return 1;
}

/* A sync region is a wait in which only tasks run, each a tree of its own: in
 * a profile without a trace or sampling it needs no frame (pomp_profile.h,
 * pomp_leaf), which takes half the work off every barrier. Sets s->leaf. */
static inline int sync_leaf_open(struct bridge_thread *b, struct bridge_scope *s)
{
    struct pomp_thread *t = bridge_pomp_thread(b);
    s->leaf = !b->sampling && t && s->region && !s->region->filtered_out &&
              bridge_measuring() == 1 && pomp_thread_leaf_open(t, s->region, s->start, 0);
    return s->leaf;
}

/* The region of a sync region the instrumentation did not report. A
 * worksharing construct's closing barrier, made while POMP's construct is
 * open on top, keeps the construct's place: the debug information may give
 * the runtime call after a loop the line of the code it inlined last (GCC: a
 * vector's size() in a lambda's loop, stl_vector.h:988), and after the run a
 * line outside the construct is not taken (bridge_symbols.c). No explicit
 * barrier and no other worksharing construct can be closely nested in one.
 * So does the wait at the end of POMP's taskgroup: without debug information
 * it was named by its function alone, one row per instantiation of a C++
 * template, two of them with one name where the names were shortened.
 * Only the first event at an address looks at the frame. */
static struct POMP_Region_s *sync_region(struct bridge_thread *b, enum bridge_construct c,
                                         const void *codeptr)
{
    if ((c != BC_IMPLEMENTATION_BARRIER && c != BC_IMPLICIT_BARRIER_WORKSHARE &&
         c != BC_TASKGROUP) ||
        !bridge_code_is_program(c, codeptr))
        return bridge_region(c, codeptr);
    struct POMP_Region_s *r = bridge_region_made(c, codeptr), *in = NULL;
    if (r)
        return r;
    enum bridge_class class = bridge_pomp_entered_class(b, &in);
    int keeps_place = c == BC_TASKGROUP
                          ? class == BRC_TASKGROUP
                          : class == BRC_LOOP || class == BRC_SECTIONS || class == BRC_SINGLE ||
                                class == BRC_WORKSHARE || class == BRC_SCOPE;
    return bridge_region_keyed_in(c, codeptr, keeps_place ? in : NULL);
}

static void sync_begin(struct bridge_thread *b, ompt_sync_region_t kind, const void *codeptr_ra)
{
    const struct sync_kind *k = (unsigned)kind < SYNC_KINDS ? &sync_kinds[kind] : NULL;
    if (sync_ends_single(b, kind))
        bridge_work_end_at_barrier(b); /* a barrier: no worksharing region goes on past it */
    if (sync_begin_pomp(b, kind, k)) /* first: the whole cost of every instrumented one */
        return;
    if (kind == ompt_sync_region_taskwait &&
        !__atomic_load_n(&bridge_runtime_taskwaits, __ATOMIC_RELAXED)) {
        struct bridge_scope *s = bridge_scope_push(b, SCOPE_SYNC);
        if (s) /* not measured: paired with its end, which finds no region */
            s->detail = (uint8_t)kind;
        return;
    }
    struct bridge_membership *m = bridge_membership_top(b);
    uint64_t now = 0;
    if (m && m->runtime && kind == ompt_sync_region_barrier_implicit_parallel) {
        struct bridge_scope *s = bridge_scope_push(b, SCOPE_SYNC);
        if (s) /* the runtime's own team's barrier: paired with its end, not recorded */
            s->detail = (uint8_t)kind;
        return;
    }
    if (kind == ompt_sync_region_barrier_implicit_parallel && m) {
        now = block_end(b, m);
        end_body(b, m, now); /* the block of an uninstrumented parallel region ends here */
    }
    struct bridge_scope *s = bridge_scope_push(b, SCOPE_SYNC);
    if (!s || !k || !k->known)
        return;
    s->detail = (uint8_t)kind;
    s->start = now;
    /* both sync groups record at EnterExit and BeginEnd */
    if (!bridge_records((enum pomp_group)k->group, BR_ENTER_EXIT))
        return;
    if (!now)
        s->start = now = pomp_now();
    s->region = sync_region(b, (enum bridge_construct)k->construct, k->keyed ? codeptr_ra : NULL);
    s->exit_kind = k->exit;
    if (!sync_leaf_open(b, s)) /* (its start: s->start) */
        bridge_record(b, BR_ENTER, s->region, now, (enum pomp_event_kind)k->enter);
}

/* The end of a sync region at `now` (0: read the clock if needed). A worker's
 * closing barrier ends at its master's join time instead; the master
 * publishes that time. */
static void sync_end(struct bridge_thread *b, ompt_sync_region_t kind, uint64_t now)
{
    struct bridge_scope *s = bridge_scope_pop(b, SCOPE_SYNC);
    /* nothing opened at the begin (POMP's barrier or taskwait, a level at
     * none) and no team's closing barrier to time: done before the team lookup */
    if (kind != ompt_sync_region_barrier_implicit_parallel &&
        kind != ompt_sync_region_barrier_teams && !(s && s->region))
        return;
    struct bridge_membership *m = bridge_membership_top(b);
    if (m && m->runtime && kind == ompt_sync_region_barrier_implicit_parallel)
        return; /* the runtime's own team's barrier (runtime_team) */
    /* a team's closing barrier: a parallel region's, or a league's teams
     * barrier (sync_kind: none is inside a parallel region's team) */
    int parallel_end = m && (kind == ompt_sync_region_barrier_implicit_parallel ||
                             (kind == ompt_sync_region_barrier_teams && m->team &&
                              m->team->league));
    uint64_t when;
    if (parallel_end && !m->master) {
        when = m->end = worker_end(m, s ? s->start : m->start, now, b->released);
    } else if ((s && s->region) || (parallel_end && m->team)) {
        when = now ? now : pomp_now();
        if (parallel_end && m->team)
            __atomic_store_n(&m->team->join, when, __ATOMIC_RELEASE);
    } else {
        return; /* nothing recorded: POMP's barrier, or a level at none */
    }
    b->last_sync_end = when;
    if (s && s->leaf)
        pomp_thread_leaf_close(bridge_pomp_thread(b), s->region, when);
    else if (s && s->region)
        bridge_record(b, BR_EXIT, s->region, when, (enum pomp_event_kind)s->exit_kind);
}

/* LLVM libomp 19, once GCC code ran a teams construct on the host (libgomp
 * layer), reports the closing barrier of the initial thread's later parallel
 * regions as a teams barrier. No teams barrier is inside a parallel region's
 * implicit task: there it is the region's closing barrier. */
static inline ompt_sync_region_t sync_kind(struct bridge_thread *b, ompt_sync_region_t kind)
{
    if (__builtin_expect(kind == ompt_sync_region_barrier_teams, 0)) {
        const struct bridge_membership *m = bridge_membership_top(b);
        if (m && m->team && !m->team->league)
            return ompt_sync_region_barrier_implicit_parallel;
    }
    return kind;
}

static __attribute__((noinline)) void sync_begin_cb(ompt_sync_region_t kind,
                                                    const void *codeptr_ra)
{
    struct bridge_thread *b;
    if (bridge_measuring() >= 0 && (b = bridge_self()))
        sync_begin(b, sync_kind(b, kind), codeptr_ra);
}

static __attribute__((noinline)) void sync_end_cb(ompt_sync_region_t kind)
{
    struct bridge_thread *b;
    if (bridge_measuring() >= 0 && (b = bridge_self()))
        sync_end(b, sync_kind(b, kind), 0);
}

static inline void sync_endpoint(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                 const void *codeptr_ra)
{
    if (endpoint == ompt_scope_begin)
        sync_begin_cb(kind, codeptr_ra);
    else
        sync_end_cb(kind);
}

/* The collector API's barrier events (GCC's explicit barriers come as
 * implementation barriers: IBAR). */
static __attribute__((noinline, cold)) void sync_collector_event(ompt_sync_region_t kind,
                                                                 ompt_scope_endpoint_t endpoint)
{
    if (kind == ompt_sync_region_taskwait || kind == ompt_sync_region_taskgroup ||
        kind == ompt_sync_region_reduction)
        return;
    int begin = endpoint == ompt_scope_begin;
    bridge_collector_event(kind == ompt_sync_region_barrier_explicit
                               ? (begin ? OMP_EVENT_THR_BEGIN_EBAR : OMP_EVENT_THR_END_EBAR)
                               : (begin ? OMP_EVENT_THR_BEGIN_IBAR : OMP_EVENT_THR_END_IBAR));
}

static __attribute__((noinline, cold)) void untied_parts_ended(const ompt_data_t *task_data)
{
    struct bridge_thread *b;
    if (bridge_measuring() >= 0 && (b = bridge_self()))
        bridge_task_parts_ended(b, task_data);
}

void bridge_on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr_ra)
{
    (void)parallel_data;
    if (__builtin_expect(__atomic_load_n(&bridge_untied_parts, __ATOMIC_RELAXED), 0))
        untied_parts_ended(task_data); /* before the wait of the task they interrupted */
    if (__builtin_expect(__atomic_load_n(&bridge_collector_live, __ATOMIC_RELAXED), 0))
        sync_collector_event(kind, endpoint);
    if (kind != ompt_sync_region_taskgroup) /* a taskgroup's spans the construct from its
                                               start: its wait comes as sync_region_wait */
        sync_endpoint(kind, endpoint, codeptr_ra);
}

/* libomp reports the wait of every sync region also as sync_region_wait; the
 * bridge takes only a taskgroup's from it, the wait at its end (where the
 * libgomp bridge reports it too). */
void bridge_on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, ompt_data_t *task_data,
                                const void *codeptr_ra)
{
    (void)parallel_data;
    (void)task_data;
    if (kind == ompt_sync_region_taskgroup)
        sync_endpoint(kind, endpoint, codeptr_ra);
}

/* Whether thread b is a worker in its team's closing barrier (a parallel
 * region's, or a league's teams barrier) whose end the runtime has not
 * reported yet. */
static int in_pending_barrier(struct bridge_thread *b)
{
    const struct bridge_membership *m = bridge_membership_top(b);
    const struct bridge_scope *s = bridge_scope_top(b);
    return b->pomp && m && !m->master && s && s->kind == SCOPE_SYNC &&
           (s->detail == ompt_sync_region_barrier_implicit_parallel ||
            (s->detail == ompt_sync_region_barrier_teams && m->team && m->team->league));
}

/* Whether the team of b's innermost membership has not joined yet: its
 * master never wrote the join of this instance (and did not fork again). */
static int team_not_joined(struct bridge_thread *b)
{
    const struct bridge_membership *m = bridge_membership_top(b);
    return m && m->team && __atomic_load_n(&m->team->seq, __ATOMIC_RELAXED) == m->seq &&
           __atomic_load_n(&m->team->join, __ATOMIC_ACQUIRE) == 0;
}

/* Workers still in a closing barrier at finalization (the program called
 * POMP_Finalize, or exited, before the runtime shut down): their barrier and
 * their share end at their master's join, as the runtime would have reported
 * later. Runs after recording stopped, while the workers idle. Not those of a
 * team that never joined (exit() or a signal while it ran, its workers
 * running tasks in its barrier): those are still open when the run ends, and
 * the core closes them then, innermost first (closed here, at the barrier's
 * start for want of a join, the task frames above it ended before they began:
 * times of 278 years, a probe's exit() inside a fib's tasks on libgomp). */
void bridge_close_pending(void)
{
    uint64_t now = pomp_now();
    for (struct bridge_thread *b = bridge_thread_list(); b; b = b->next) {
        if (!in_pending_barrier(b) || team_not_joined(b))
            continue;
        sync_end(b, (ompt_sync_region_t)bridge_scope_top(b)->detail, now);
        implicit_task_end(b, now);
    }
}

/* Thread b ends while a worker in a closing barrier not reported ended: its
 * team released it (libgomp's own thread of a nested team, which libgomp ends
 * after the team; the libgomp bridge reports the end of such a worker's
 * barrier when the thread is next given work, which never comes). The
 * barrier ends at the master's join, or now if the master did not write it
 * yet. Before: at finalization, where the master's record of the instance
 * was long reused: 54 of 80 such workers of a nested region waited 0 ms for
 * a master's 1 ms. */
static void close_released(struct bridge_thread *b)
{
    if (!in_pending_barrier(b))
        return;
    uint64_t now = pomp_now();
    b->released = 1;
    sync_end(b, (ompt_sync_region_t)bridge_scope_top(b)->detail, now);
    implicit_task_end(b, now);
    b->released = 0;
}
