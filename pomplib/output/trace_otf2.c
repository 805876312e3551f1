/* The OTF2 trace (docs/output.md, "OTF2"): one location per thread, regions
 * with OpenMP roles and source lines, fork/join and thread-team events, task
 * create/switch/complete, lock acquire/release (omp locks and critical).
 *
 * Three walks over the raw records: the first finds every fork (a master's
 * enter..exit of a parallel region) and every team join (a begin of one) and
 * matches each join to the fork whose span holds it; the second follows each
 * thread's teams to give tasks their OTF2 identity and collects the lock
 * events, which get their acquisition order in time order across threads; the
 * third writes the events. The definitions come last. */
#include "trace_otf2.h"

#include <errno.h>
#include <ftw.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_walk.h"
#include "pomp_owned.h"

/* ---- small containers ---- */

struct vec32 {
    uint32_t *v;
    size_t n, cap;
};

static int vec32_push(struct vec32 *a, uint32_t x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        uint32_t *v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return -1;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

/* uint64 -> uint32, open addressing; key 0 is never stored. */
struct map64 {
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, n;
};

static uint32_t *map64_slot(struct map64 *m, uint64_t key, int insert)
{
    if (insert && (m->n + 1) * 2 > m->cap) {
        struct map64 bigger = {.cap = m->cap ? m->cap * 2 : 64};
        bigger.keys = calloc(bigger.cap, sizeof *bigger.keys);
        bigger.vals = calloc(bigger.cap, sizeof *bigger.vals);
        if (!bigger.keys || !bigger.vals) {
            free(bigger.keys);
            free(bigger.vals);
            return NULL;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i])
                *map64_slot(&bigger, m->keys[i], 1) = m->vals[i];
        free(m->keys);
        free(m->vals);
        *m = bigger;
        m->n = 0;
        for (size_t i = 0; i < m->cap; i++)
            m->n += m->keys[i] != 0;
    }
    if (!m->cap)
        return NULL;
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->keys[i]) {
        if (!insert)
            return NULL;
        m->keys[i] = key;
        m->n++;
    }
    return &m->vals[i];
}

static void map64_free(struct map64 *m)
{
    free(m->keys);
    free(m->vals);
}

/* ---- what the converter knows ---- */

#define NO_INSTANCE UINT32_MAX

struct instance {        /* one fork: a master's enter..exit of a parallel region */
    uint32_t region, master;
    uint64_t start, end;
    uint64_t barrier_end; /* the master's end of the closing barrier, its join (0: none) */
    uint32_t depth;       /* the entered frame's */
    uint64_t team_id;     /* the master's begin's arg: the team instance (0: not known) */
    uint32_t workers;     /* the num_threads asked for, less the master (UINT32_MAX: not
                             given): at most as many workers join it */
    uint32_t team;       /* index into teams */
    uint8_t master_joined; /* the master began the region itself (has a body) */
    struct vec32 members;
};

struct team {            /* an OTF2 thread-team communicator */
    struct vec32 members; /* thread indices, the master first */
};

struct join {            /* a thread's begin of a parallel region */
    uint32_t thread, region;
    uint64_t time;
    uint64_t block_end;   /* the end of its block (0: none) */
    uint64_t team_id;     /* its begin's arg: the team instance (0: not known) */
    uint64_t barrier_end; /* a worker's end of the closing barrier after its block (0: none):
                             the bridges end it at its master's join, to the tick */
    uint32_t instance;   /* NO_INSTANCE until matched */
};

struct lock_op {
    uint64_t time;
    uint32_t thread, seq, lock;
    uint8_t acquire;
};

struct task_identity {
    uint32_t team, creator, generation;
    uint8_t created;        /* its creation was seen (else only executions so far) */
    uint32_t last_thread;   /* where its last execution frame ended, and when: */
    uint64_t last_end;      /* the task completes there (an untied one the runtime
                               resumed elsewhere has a frame on each thread) */
};

/* A team member's block ends before its team's closing barrier, in which it
 * still runs the team's tasks: the team stays the thread's (tasks created
 * there are the team's, its ThreadTeamEnd follows the barrier) while the next
 * frame at the block's depth is that barrier, until it ends; else until the
 * next event, and the team ends where the block did. */
enum team_kept { TEAM_NOT_KEPT, TEAM_KEPT_AFTER_BLOCK, TEAM_KEPT_IN_BARRIER };

struct thread_state {
    struct vec32 forks;     /* instance of each entered parallel frame, in walk order */
    struct vec32 joins;     /* join index of each begin-opened parallel frame */
    struct vec32 open;      /* instances this thread has entered and not exited */
    struct vec32 open_joins; /* joins whose block this thread has not ended */
    uint32_t ended_join;    /* the join whose block ended last, until the barrier after it
                               (NO_INSTANCE: none) */
    uint32_t ended_join_depth;
    struct vec32 teams;     /* team stack while walking */
    struct vec32 lock_order;
    size_t fork_i, join_i, lock_i;
    uint32_t lock_seq, generation;
    uint8_t team_kept;      /* enum team_kept: the top of teams outlives its block */
    uint32_t team_kept_depth; /* the block's depth */
    uint64_t team_kept_time;  /* when the block ended */
};

struct conv {
    const struct trace_model *m;
    uint32_t thread;                 /* the thread being walked */
    int pass;
    struct thread_state *ts;
    struct instance *inst;
    size_t ninst, inst_cap;
    struct join *joins;
    size_t njoins, joins_cap;
    struct team *teams;
    size_t nteams;
    struct map64 task_ids;           /* task id -> index into tasks */
    struct task_identity *tasks;
    size_t ntasks, tasks_cap;
    struct map64 lock_ids;           /* lock address -> OTF2 lock id + 1 */
    uint32_t nlocks;
    uint32_t *critical_lock;         /* per region: lock id of a critical's name + 1 */
    struct lock_op *lock_ops;
    size_t nlock_ops, lock_ops_cap;
    uint64_t unpaired_lock_ops;      /* left out: their lock's other side is not in the trace */
    uint8_t *used;                   /* per span slot (REFS_PER_REGION per region): occurs */
    uint32_t *ref;                   /* per span slot: its OTF2 region (dense, in order) */
    uint32_t nrefs;
    OTF2_EvtWriter *w;
    OTF2_ErrorCode err;
    int oom;
};

enum { REF_CONSTRUCT, REF_BODY, REF_CREATE, REFS_PER_REGION };

static const struct trace_region *region_of(const struct conv *c, uint32_t id)
{
    return trace_region(c->m, id);
}

/* The span slot a span of region r is written as. */
static uint32_t region_ref(const struct trace_region *r, enum trace_span span)
{
    uint32_t base = REFS_PER_REGION * (r->id - 1);
    if (trace_region_is(r, "task"))
        return base + (span == TRACE_SPAN_ENTERED ? REF_CREATE : REF_CONSTRUCT);
    if (span == TRACE_SPAN_BODY && !trace_region_is(r, "parallel"))
        return base + REF_BODY;
    return base + REF_CONSTRUCT;
}

/* OTF2 wants region definitions numbered 0, 1, 2, ... in order: each region's
 * construct slot, and the other slots where they occur. */
static void number_regions(struct conv *c)
{
    for (uint32_t slot = 0; slot < REFS_PER_REGION * c->m->nregions; slot++)
        c->ref[slot] = slot % REFS_PER_REGION == REF_CONSTRUCT || c->used[slot] ? c->nrefs++
                                                                                 : UINT32_MAX;
}

static OTF2_RegionRef otf2_region(const struct conv *c, const struct trace_region *r,
                                  enum trace_span span)
{
    return c->ref[region_ref(r, span)];
}

static int is_parallel(const struct conv *c, uint32_t region)
{
    return trace_region_is(region_of(c, region), "parallel");
}

/* +1: the record acquires a lock (the lock API; arg is the lock's address),
 * -1: it releases one, 0: neither. */
static int lock_action(const struct pomp_event *e)
{
    if (!e || !e->arg)
        return 0;
    switch (e->kind) {
    case POMP_EV_SET_LOCK_EXIT: case POMP_EV_SET_NEST_LOCK_EXIT:
    case POMP_EV_SET_LOCK_EVENT: case POMP_EV_SET_NEST_LOCK_EVENT:
    case POMP_EV_TEST_LOCK_EVENT: case POMP_EV_TEST_NEST_LOCK_EVENT:
        return 1;
    case POMP_EV_UNSET_LOCK_EVENT: case POMP_EV_UNSET_NEST_LOCK_EVENT:
        return -1;
    default:
        return 0;
    }
}

/* A critical's block holds the lock of its name: begin..end, entered or not. */
static int critical_block(const struct conv *c, const struct trace_frame *f)
{
    return !f->entered && trace_region_is(region_of(c, f->region), "critical");
}

static int task_run(const struct conv *c, const struct trace_frame *f)
{
    return !f->entered && f->open->arg && trace_region_is(region_of(c, f->region), "task");
}

static int task_create(const struct conv *c, const struct trace_frame *f)
{
    return f->entered && f->open->arg && trace_region_is(region_of(c, f->region), "task");
}

/* The runtime's report of a task's creation (the OMPT bridge's single event):
 * with a task id, its execution's begin carries the same. */
static int task_create_event(const struct conv *c, const struct pomp_event *e)
{
    const struct trace_region *r = region_of(c, e->region);
    return e->arg && r && trace_region_is(r, "task_create");
}

#define CHECK(call)                                                                               \
    do {                                                                                          \
        OTF2_ErrorCode rc_ = (call);                                                              \
        if (rc_ != OTF2_SUCCESS && c->err == OTF2_SUCCESS)                                        \
            c->err = rc_;                                                                         \
    } while (0)

/* ---- pass 1: forks and joins ---- */

static void p1_enter(void *ctx, const struct trace_frame *f, uint32_t depth)
{
    struct conv *c = ctx;
    struct thread_state *ts = &c->ts[c->thread];
    c->used[region_ref(region_of(c, f->region), trace_frame_span(f))] = 1;
    if (!is_parallel(c, f->region))
        return;
    if (f->entered) {
        if (c->ninst == c->inst_cap) {
            size_t cap = c->inst_cap ? c->inst_cap * 2 : 64;
            struct instance *n = realloc(c->inst, cap * sizeof *n);
            if (!n) {
                c->oom = 1;
                return;
            }
            c->inst = n;
            c->inst_cap = cap;
        }
        uint32_t k = (uint32_t)c->ninst++;
        c->inst[k] = (struct instance){.region = f->region, .master = c->thread,
                                       .start = f->start, .end = UINT64_MAX, .depth = depth,
                                       .workers = f->open && f->open->arg
                                                      ? (uint32_t)f->open->arg - 1
                                                      : UINT32_MAX};
        if (vec32_push(&ts->forks, k) || vec32_push(&ts->open, k))
            c->oom = 1;
        return;
    }
    if (c->njoins == c->joins_cap) {
        size_t cap = c->joins_cap ? c->joins_cap * 2 : 64;
        struct join *n = realloc(c->joins, cap * sizeof *n);
        if (!n) {
            c->oom = 1;
            return;
        }
        c->joins = n;
        c->joins_cap = cap;
    }
    uint32_t j = (uint32_t)c->njoins++;
    c->joins[j] = (struct join){.thread = c->thread, .region = f->region, .time = f->start,
                                .instance = NO_INSTANCE, .team_id = f->open ? f->open->arg : 0};
    if (f->body && ts->open.n) { /* the master's own share: the fork it is in */
        uint32_t k = ts->open.v[ts->open.n - 1];
        c->joins[j].instance = k;
        c->inst[k].master_joined = 1;
        c->inst[k].team_id = c->joins[j].team_id;
    }
    if (vec32_push(&ts->joins, j) || vec32_push(&ts->open_joins, j))
        c->oom = 1;
}

static void p1_leave(void *ctx, const struct trace_frame *f, uint64_t time,
                     const struct pomp_event *close, uint32_t depth)
{
    (void)close;
    (void)depth;
    struct conv *c = ctx;
    struct thread_state *ts = &c->ts[c->thread];
    const struct trace_region *r = region_of(c, f->region);
    if (trace_region_is(r, "implicit_barrier")) {
        /* a master's closing barrier is a child of its entered frame (the
         * last one there is the closing one); a worker's follows its block */
        if (ts->open.n) {
            struct instance *in = &c->inst[ts->open.v[ts->open.n - 1]];
            if (depth == in->depth + 1)
                in->barrier_end = time;
        }
        if (ts->ended_join != NO_INSTANCE && depth == ts->ended_join_depth) {
            c->joins[ts->ended_join].barrier_end = time;
            ts->ended_join = NO_INSTANCE;
        }
        return;
    }
    if (!trace_region_is(r, "parallel"))
        return;
    if (f->entered && ts->open.n)
        c->inst[ts->open.v[--ts->open.n]].end = time;
    else if (!f->entered && ts->open_joins.n) {
        ts->ended_join = ts->open_joins.v[--ts->open_joins.n];
        ts->ended_join_depth = depth;
        c->joins[ts->ended_join].block_end = time;
    }
}

static void p1_single(void *ctx, const struct pomp_event *e, uint64_t time, uint32_t depth)
{
    (void)time;
    (void)depth;
    struct conv *c = ctx;
    const struct trace_region *r = region_of(c, e->region);
    if (r)
        c->used[region_ref(r, trace_single_span(e))] = 1;
}

/* Forks ordered by region, then start, for the search of match_fork (qsort_r). */
static int by_region_start(const void *a, const void *b, void *conv)
{
    const struct conv *c = conv;
    const struct instance *x = &c->inst[*(const uint32_t *)a];
    const struct instance *y = &c->inst[*(const uint32_t *)b];
    if (x->region != y->region)
        return (x->region > y->region) - (x->region < y->region);
    return (x->start > y->start) - (x->start < y->start);
}

/* A worker's join belongs to the fork whose master's begin names the same
 * team instance (the bridges' id: the begin record's arg). Without one (no
 * bridge: the instance is not known) to the fork of the same region whose
 * span holds the join's time and whose master ended the closing barrier when
 * the worker did: the bridges end a worker's at its master's join, to the tick. Two
 * forks of one region at once (nested parallelism) are told apart by that;
 * where no fork's matches (a worker whose barrier end is not its master's:
 * on libgomp, a nested team's own thread, which ends before its master
 * returns), the latest fork holding the time whose master joined after the
 * worker's block ended and that has room for another worker (the num_threads
 * asked for) wins, else the latest (docs/output.md). A binary search
 * finds the last fork that started by then; a few steps back cover forks of
 * the same region by other masters at the same time. */
static uint32_t match_fork(const struct conv *c, const uint32_t *order, const struct join *j,
                           int exact)
{
    enum { MAX_STEPS_BACK = 64 };
    size_t lo = 0, hi = c->ninst; /* first fork after (region, time) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct instance *in = &c->inst[order[mid]];
        if (in->region < j->region || (in->region == j->region && in->start <= j->time))
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t latest = NO_INSTANCE, latest_with_room = NO_INSTANCE;
    for (size_t k = lo, steps = 0; k-- > 0 && steps < MAX_STEPS_BACK; steps++) {
        const struct instance *in = &c->inst[order[k]];
        if (in->region != j->region)
            break;
        /* a master joins after every block of its team ended */
        if (j->team_id && in->team_id) { /* both begins name the instance */
            if (in->team_id == j->team_id)
                return order[k];
            continue;
        }
        if (in->master == j->thread || j->time > in->end ||
            (in->barrier_end && j->block_end > in->barrier_end))
            continue;
        if (j->barrier_end && in->barrier_end == j->barrier_end)
            return order[k];
        if (latest == NO_INSTANCE)
            latest = order[k];
        if (latest_with_room == NO_INSTANCE && in->members.n < in->workers)
            latest_with_room = order[k];
    }
    return exact ? NO_INSTANCE : latest_with_room != NO_INSTANCE ? latest_with_room : latest;
}

static int same_members(const struct vec32 *a, const struct vec32 *b)
{
    return a->n == b->n && memcmp(a->v, b->v, a->n * sizeof *a->v) == 0;
}

/* The team with exactly these members (made if new); UINT32_MAX when out of memory. */
static uint32_t team_of(struct conv *c, struct vec32 *members)
{
    for (size_t t = 0; t < c->nteams; t++)
        if (same_members(&c->teams[t].members, members))
            return (uint32_t)t;
    struct team *n = realloc(c->teams, (c->nteams + 1) * sizeof *n);
    if (!n)
        return UINT32_MAX;
    c->teams = n;
    struct team *t = &c->teams[c->nteams];
    *t = (struct team){0};
    for (size_t i = 0; i < members->n; i++)
        if (vec32_push(&t->members, members->v[i]))
            return UINT32_MAX;
    return (uint32_t)c->nteams++;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int resolve_teams(struct conv *c)
{
    uint32_t *order = malloc((c->ninst ? c->ninst : 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t k = 0; k < c->ninst; k++)
        order[k] = (uint32_t)k;
    qsort_r(order, c->ninst, sizeof *order, by_region_start, c);
    /* the joins that match a fork exactly first, then the others, each to a
     * fork with room left for it */
    for (int exact = 1; exact >= 0; exact--)
        for (size_t j = 0; j < c->njoins; j++) {
            struct join *jn = &c->joins[j];
            if (jn->instance != NO_INSTANCE) /* matched, or the master's own share */
                continue;
            if ((jn->instance = match_fork(c, order, jn, exact)) == NO_INSTANCE)
                continue;
            if (jn->thread != c->inst[jn->instance].master &&
                vec32_push(&c->inst[jn->instance].members, jn->thread)) {
                free(order);
                return -1;
            }
        }
    free(order);
    for (size_t k = 0; k < c->ninst; k++) {
        struct instance *in = &c->inst[k];
        /* the master first (rank 0), then the workers by thread index */
        if (in->members.n) /* (a team of one has none: no array to sort) */
            qsort(in->members.v, in->members.n, sizeof *in->members.v, cmp_u32);
        struct vec32 members = {0};
        int bad = vec32_push(&members, in->master);
        for (size_t i = 0; i < in->members.n && !bad; i++)
            if (i == 0 || in->members.v[i] != in->members.v[i - 1])
                bad = vec32_push(&members, in->members.v[i]);
        in->team = bad ? UINT32_MAX : team_of(c, &members);
        free(members.v);
        if (in->team == UINT32_MAX)
            return -1;
    }
    return 0;
}

/* The team of a join: its fork's, or a team of the thread alone when no fork
 * was found (its master's records were lost). */
static uint32_t join_team(struct conv *c, uint32_t join)
{
    const struct join *j = &c->joins[join];
    if (j->instance != NO_INSTANCE)
        return c->inst[j->instance].team;
    struct vec32 alone = {0};
    uint32_t t = vec32_push(&alone, j->thread) ? UINT32_MAX : team_of(c, &alone);
    free(alone.v);
    if (t == UINT32_MAX)
        c->oom = 1;
    return t == UINT32_MAX ? 0 : t;
}

/* The team the current thread is in while walking, making a team of the
 * thread alone outside any parallel region (the initial task). */
static uint32_t current_team(struct conv *c)
{
    struct thread_state *ts = &c->ts[c->thread];
    if (ts->teams.n)
        return ts->teams.v[ts->teams.n - 1];
    struct vec32 alone = {0};
    uint32_t t = vec32_push(&alone, c->thread) ? UINT32_MAX : team_of(c, &alone);
    free(alone.v);
    if (t == UINT32_MAX)
        c->oom = 1;
    return t == UINT32_MAX ? 0 : t;
}

/* The runtime's closing barrier of a parallel region. */
static int closing_barrier(const struct conv *c, uint32_t region)
{
    const struct trace_region *r = region_of(c, region);
    return trace_region_is(r, "implicit_barrier") && strcmp(r->name, "parallel") == 0;
}

/* The thread's innermost team ends at `time` (pass 3 writes its ThreadTeamEnd). */
static void team_end(struct conv *c, uint64_t time)
{
    struct thread_state *ts = &c->ts[c->thread];
    if (!ts->teams.n)
        return;
    uint32_t team = ts->teams.v[--ts->teams.n];
    if (c->pass == 3)
        CHECK(OTF2_EvtWriter_ThreadTeamEnd(c->w, NULL, time, team));
}

/* A team member's block of a parallel region ended at `time`, at `depth`:
 * its team is kept (enum team_kept). A team whose block ends inside a kept
 * team's barrier (a task there runs a parallel region) ends at once. */
static void team_keep(struct conv *c, uint32_t depth, uint64_t time)
{
    struct thread_state *ts = &c->ts[c->thread];
    if (ts->team_kept) {
        team_end(c, time);
        return;
    }
    ts->team_kept = TEAM_KEPT_AFTER_BLOCK;
    ts->team_kept_depth = depth;
    ts->team_kept_time = time;
}

/* The kept team ends at `time`. */
static void team_release(struct conv *c, uint64_t time)
{
    c->ts[c->thread].team_kept = TEAM_NOT_KEPT;
    team_end(c, time);
}

/* Before an event at depth (a frame f opening there, or a single event or a
 * gap: f NULL): the kept team ends where its block did, unless this is its
 * closing barrier opening, or the event is inside that barrier. */
static void team_before(struct conv *c, const struct trace_frame *f, uint32_t depth)
{
    struct thread_state *ts = &c->ts[c->thread];
    if (ts->team_kept != TEAM_KEPT_AFTER_BLOCK)
        return;
    if (f && depth == ts->team_kept_depth && closing_barrier(c, f->region))
        ts->team_kept = TEAM_KEPT_IN_BARRIER;
    else
        team_release(c, ts->team_kept_time);
}

/* Frame f at depth closes at `time`: before its events (first), the kept team
 * ends where its block did unless f is inside its barrier; after them, it ends
 * with the barrier. */
static void team_at_leave(struct conv *c, const struct trace_frame *f, uint32_t depth,
                          uint64_t time, int first)
{
    struct thread_state *ts = &c->ts[c->thread];
    if (first && ts->team_kept == TEAM_KEPT_AFTER_BLOCK)
        team_release(c, ts->team_kept_time);
    else if (!first && ts->team_kept == TEAM_KEPT_IN_BARRIER && depth <= ts->team_kept_depth &&
             (depth < ts->team_kept_depth || closing_barrier(c, f->region)))
        team_release(c, time);
}

static uint32_t rank_in(const struct conv *c, uint32_t team, uint32_t thread)
{
    const struct vec32 *m = &c->teams[team].members;
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i] == thread)
            return (uint32_t)i;
    return 0;
}

/* ---- pass 2: task identities and lock events ---- */

static uint32_t lock_of_address(struct conv *c, uint64_t address)
{
    uint32_t *slot = map64_slot(&c->lock_ids, address, 1);
    if (!slot) {
        c->oom = 1;
        return 0;
    }
    if (!*slot)
        *slot = ++c->nlocks;
    return *slot - 1;
}

static uint32_t lock_of_critical(struct conv *c, uint32_t region)
{
    const struct trace_region *r = region_of(c, region);
    if (c->critical_lock[region - 1])
        return c->critical_lock[region - 1] - 1;
    /* criticals of one name share one lock */
    for (uint32_t i = 0; i < c->m->nregions; i++)
        if (c->critical_lock[i] && strcmp(c->m->regions[i].name, r->name) == 0 &&
            trace_region_is(&c->m->regions[i], "critical"))
            return (c->critical_lock[region - 1] = c->critical_lock[i]) - 1;
    c->critical_lock[region - 1] = ++c->nlocks;
    return c->nlocks - 1;
}

static void add_lock_op(struct conv *c, uint64_t time, uint32_t lock, int acquire)
{
    if (c->nlock_ops == c->lock_ops_cap) {
        size_t cap = c->lock_ops_cap ? c->lock_ops_cap * 2 : 256;
        struct lock_op *n = realloc(c->lock_ops, cap * sizeof *n);
        if (!n) {
            c->oom = 1;
            return;
        }
        c->lock_ops = n;
        c->lock_ops_cap = cap;
    }
    c->lock_ops[c->nlock_ops++] = (struct lock_op){
        .time = time, .thread = c->thread, .seq = c->ts[c->thread].lock_seq++, .lock = lock,
        .acquire = (uint8_t)acquire};
}

/* The task of an id, made on first sight (its creation or an execution). */
static struct task_identity *task_entry(struct conv *c, uint64_t id)
{
    uint32_t *slot = map64_slot(&c->task_ids, id, 1);
    if (!slot) {
        c->oom = 1;
        return NULL;
    }
    if (*slot)
        return &c->tasks[*slot - 1];
    if (c->ntasks == c->tasks_cap) {
        size_t cap = c->tasks_cap ? c->tasks_cap * 2 : 64;
        struct task_identity *n = realloc(c->tasks, cap * sizeof *n);
        if (!n) {
            c->oom = 1;
            return NULL;
        }
        c->tasks = n;
        c->tasks_cap = cap;
    }
    c->tasks[c->ntasks] = (struct task_identity){0};
    *slot = (uint32_t)++c->ntasks;
    return &c->tasks[c->ntasks - 1];
}

/* A task created by the current thread now: its OTF2 identity is the
 * thread's team, its rank there and its count of tasks created. */
static void add_task(struct conv *c, uint64_t id)
{
    struct thread_state *ts = &c->ts[c->thread];
    struct task_identity *task = task_entry(c, id);
    if (!task || task->created) /* an id used twice: the first creation keeps it */
        return;
    uint32_t team = current_team(c);
    task->team = team;
    task->creator = rank_in(c, team, c->thread);
    task->generation = ++ts->generation;
    task->created = 1;
}

/* An execution frame of a task ends: the latest one is its completion. */
static void task_frame_ends(struct conv *c, uint64_t id, uint64_t time)
{
    struct task_identity *task = task_entry(c, id);
    if (task && time >= task->last_end) {
        task->last_end = time;
        task->last_thread = c->thread;
    }
}

static void p2_enter(void *ctx, const struct trace_frame *f, uint32_t depth)
{
    struct conv *c = ctx;
    struct thread_state *ts = &c->ts[c->thread];
    team_before(c, f, depth);
    if (is_parallel(c, f->region) && !f->entered) {
        uint32_t team = join_team(c, ts->joins.v[ts->join_i++]);
        if (vec32_push(&ts->teams, team))
            c->oom = 1;
    } else if (critical_block(c, f)) {
        add_lock_op(c, f->start, lock_of_critical(c, f->region), 1);
    } else if (task_create(c, f)) {
        add_task(c, f->open->arg);
    }
}

static void p2_leave(void *ctx, const struct trace_frame *f, uint64_t time,
                     const struct pomp_event *close, uint32_t depth)
{
    struct conv *c = ctx;
    team_at_leave(c, f, depth, time, 1);
    if (lock_action(close) > 0)
        add_lock_op(c, time, lock_of_address(c, close->arg), 1);
    if (is_parallel(c, f->region) && !f->entered)
        team_keep(c, depth, time);
    else if (critical_block(c, f))
        add_lock_op(c, time, lock_of_critical(c, f->region), 0);
    else if (task_run(c, f))
        task_frame_ends(c, f->open->arg, time);
    team_at_leave(c, f, depth, time, 0);
}

static void p2_single(void *ctx, const struct pomp_event *e, uint64_t time, uint32_t depth)
{
    struct conv *c = ctx;
    team_before(c, NULL, depth);
    int a = lock_action(e);
    if (a)
        add_lock_op(c, time, lock_of_address(c, e->arg), a > 0);
    else if (task_create_event(c, e))
        add_task(c, e->arg);
}

static int cmp_lock_op(const void *a, const void *b)
{
    const struct lock_op *x = a, *y = b;
    if (x->time != y->time)
        return (x->time > y->time) - (x->time < y->time);
    if (x->acquire != y->acquire) /* a release before an acquire at the same tick */
        return x->acquire - y->acquire;
    if (x->thread != y->thread)
        return (x->thread > y->thread) - (x->thread < y->thread);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The order of a lock record left out of the OTF2 trace (pass 3 writes none). */
#define UNPAIRED_LOCK_OP UINT32_MAX

/* The number of the acquisition each release ends: the thread's own latest
 * unreleased acquisition of that lock (a nest lock's inner one first). One
 * latest acquisition per lock gave a nest lock's two releases the inner's
 * number, and a release right after another thread's acquisition that
 * thread's. ops_of[t]: thread t's operations (indices into c->lock_ops) in
 * its own order. */
static int number_releases(struct conv *c, size_t **ops_of, const uint32_t *acquisitions,
                           const uint32_t *last_acquirer, const uint32_t *other_latest)
{
    size_t cap = 16, n = 0;
    struct held { uint32_t lock, order, seq; } *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return -1;
    for (uint32_t t = 0; t < c->m->nthreads; t++) {
        n = 0;
        for (uint32_t k = 0; k < c->ts[t].lock_seq; k++) {
            const struct lock_op *op = &c->lock_ops[ops_of[t][k]];
            uint32_t *order = &c->ts[t].lock_order.v[op->seq];
            if (op->acquire) {
                if (n == cap) {
                    struct held *more = realloc(stack, 2 * cap * sizeof *stack);
                    if (!more) {
                        free(stack);
                        return -1;
                    }
                    stack = more;
                    cap *= 2;
                }
                stack[n++] = (struct held){op->lock, *order, op->seq};
                continue;
            }
            /* a release of no acquisition of the thread's (not in the trace: a
             * filter took out the lock calls; 10 releases of order 0) */
            *order = UNPAIRED_LOCK_OP;
            for (size_t j = n; j-- > 0;)
                if (stack[j].lock == op->lock && stack[j].order != UNPAIRED_LOCK_OP) {
                    *order = stack[j].order;
                    memmove(&stack[j], &stack[j + 1], (n - j - 1) * sizeof *stack);
                    n--;
                    break;
                }
        }
        /* an acquisition the thread never released in the trace, where the
         * lock was acquired again later by another thread: its release went
         * with the events a full buffer lost (a gap), and the trace had two
         * threads holding the lock at once (a probe); left out, said with the
         * others. Acquisitions held at the end stay (exit() in a lock). */
        for (size_t j = 0; j < n; j++) {
            uint32_t lock = stack[j].lock, order = stack[j].order;
            /* another thread's acquisition after it: the last one's, or, where
             * this thread took the lock last, the others' latest */
            int later = last_acquirer[lock] != t ? order < acquisitions[lock]
                                                 : order < other_latest[lock];
            if (order != UNPAIRED_LOCK_OP && later)
                c->ts[t].lock_order.v[stack[j].seq] = UNPAIRED_LOCK_OP;
        }
    }
    free(stack);
    return 0;
}

/* Acquisition order per lock, in time order over all threads; a release gets
 * the number of the acquisition it ends (number_releases). */
static int order_locks(struct conv *c)
{
    if (c->nlock_ops) /* none: no array at all, which qsort must not be given */
        qsort(c->lock_ops, c->nlock_ops, sizeof *c->lock_ops, cmp_lock_op);
    uint32_t *count = calloc(c->nlocks + 1, sizeof *count);
    uint32_t *last_acquirer = calloc(c->nlocks + 1, sizeof *last_acquirer);
    uint32_t *other_latest = calloc(c->nlocks + 1, sizeof *other_latest); /* by a thread not the last acquirer */
    size_t **ops_of = calloc(c->m->nthreads + 1, sizeof *ops_of);
    int rc = count && ops_of && last_acquirer && other_latest ? 0 : -1;
    for (uint32_t t = 0; rc == 0 && t < c->m->nthreads; t++) {
        struct vec32 *o = &c->ts[t].lock_order;
        for (uint32_t i = 0; rc == 0 && i < c->ts[t].lock_seq; i++)
            rc = vec32_push(o, 0) ? -1 : 0;
        if (rc == 0 && !(ops_of[t] = malloc((c->ts[t].lock_seq + 1) * sizeof **ops_of)))
            rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < c->nlock_ops; i++) {
        struct lock_op *op = &c->lock_ops[i];
        if (op->acquire) {
            c->ts[op->thread].lock_order.v[op->seq] = ++count[op->lock];
            last_acquirer[op->lock] = op->thread;
        }
        ops_of[op->thread][op->seq] = i;
    }
    /* a lock acquired more than once and never released (a filter took out
     * its releases): two threads held it at once; its acquisitions are left
     * out, as a release of nothing is (number_releases) */
    uint32_t *releases = rc == 0 ? calloc(c->nlocks + 1, sizeof *releases) : NULL;
    if (rc == 0 && !releases)
        rc = -1;
    for (size_t i = 0; rc == 0 && i < c->nlock_ops; i++)
        releases[c->lock_ops[i].lock] += !c->lock_ops[i].acquire;
    for (size_t i = 0; rc == 0 && i < c->nlock_ops; i++) {
        const struct lock_op *op = &c->lock_ops[i];
        if (op->acquire && !releases[op->lock] && count[op->lock] > 1)
            c->ts[op->thread].lock_order.v[op->seq] = UNPAIRED_LOCK_OP;
    }
    free(releases);
    for (size_t i = 0; rc == 0 && i < c->nlock_ops; i++) {
        const struct lock_op *op = &c->lock_ops[i];
        uint32_t order = c->ts[op->thread].lock_order.v[op->seq];
        if (op->acquire && op->thread != last_acquirer[op->lock] && order != UNPAIRED_LOCK_OP &&
            order > other_latest[op->lock])
            other_latest[op->lock] = order;
    }
    if (rc == 0)
        rc = number_releases(c, ops_of, count, last_acquirer, other_latest);
    for (uint32_t t = 0; rc == 0 && t < c->m->nthreads; t++)
        for (uint32_t i = 0; i < c->ts[t].lock_order.n; i++)
            c->unpaired_lock_ops += c->ts[t].lock_order.v[i] == UNPAIRED_LOCK_OP;
    for (uint32_t t = 0; ops_of && t < c->m->nthreads; t++)
        free(ops_of[t]);
    free(ops_of);
    free(count);
    free(last_acquirer);
    free(other_latest);
    return rc;
}

/* ---- pass 3: the events ---- */

static uint32_t next_lock_order(struct conv *c)
{
    struct thread_state *ts = &c->ts[c->thread];
    return ts->lock_i < ts->lock_order.n ? ts->lock_order.v[ts->lock_i++] : 0;
}

/* The thread's next lock record: an acquisition or release of lock at time,
 * unless its other side is not in the trace (order_locks). */
static void write_lock_op(struct conv *c, uint64_t time, uint32_t lock, int acquire)
{
    uint32_t order = next_lock_order(c);
    if (order == UNPAIRED_LOCK_OP)
        return;
    if (acquire)
        CHECK(OTF2_EvtWriter_ThreadAcquireLock(c->w, NULL, time, OTF2_PARADIGM_OPENMP, lock, order));
    else
        CHECK(OTF2_EvtWriter_ThreadReleaseLock(c->w, NULL, time, OTF2_PARADIGM_OPENMP, lock, order));
}

/* The task of an id whose creation is in the trace, else NULL (its
 * executions are then plain regions). */
static const struct task_identity *task_of(struct conv *c, uint64_t id)
{
    uint32_t *slot = map64_slot(&c->task_ids, id, 0);
    const struct task_identity *task = slot && *slot ? &c->tasks[*slot - 1] : NULL;
    return task && task->created ? task : NULL;
}

static void write_task_create(struct conv *c, uint64_t time, uint64_t task)
{
    const struct task_identity *id = task_of(c, task);
    if (id)
        CHECK(OTF2_EvtWriter_ThreadTaskCreate(c->w, NULL, time, id->team, id->creator,
                                               id->generation));
}

/* Is this entered parallel frame a fork whose master began the region too?
 * Then its enter/exit are only ThreadFork/ThreadJoin (the body is the region),
 * as OpenMP traces usually show it; otherwise (POMP_PARALLEL=EnterExit) the
 * region is entered and left around the fork and join. */
static int fork_only(const struct conv *c, const struct instance *in)
{
    (void)c;
    return in && in->master_joined;
}

static void p3_enter(void *ctx, const struct trace_frame *f, uint32_t depth)
{
    struct conv *c = ctx;
    struct thread_state *ts = &c->ts[c->thread];
    team_before(c, f, depth);
    const struct trace_region *r = region_of(c, f->region);
    OTF2_RegionRef ref = otf2_region(c, r, trace_frame_span(f));
    if (is_parallel(c, f->region) && f->entered) {
        uint32_t k = ts->fork_i < ts->forks.n ? ts->forks.v[ts->fork_i++] : NO_INSTANCE;
        const struct instance *in = k == NO_INSTANCE ? NULL : &c->inst[k];
        if (vec32_push(&ts->open, k))
            c->oom = 1;
        if (!fork_only(c, in))
            CHECK(OTF2_EvtWriter_Enter(c->w, NULL, f->start, ref));
        uint32_t n = f->open->arg ? (uint32_t)f->open->arg
                     : in ? (uint32_t)c->teams[in->team].members.n : 0;
        CHECK(OTF2_EvtWriter_ThreadFork(c->w, NULL, f->start, OTF2_PARADIGM_OPENMP, n));
        return;
    }
    if (is_parallel(c, f->region)) {
        uint32_t team = join_team(c, ts->joins.v[ts->join_i++]);
        if (vec32_push(&ts->teams, team))
            c->oom = 1;
        CHECK(OTF2_EvtWriter_ThreadTeamBegin(c->w, NULL, f->start, team));
        CHECK(OTF2_EvtWriter_Enter(c->w, NULL, f->start, ref));
        return;
    }
    if (task_run(c, f)) {
        const struct task_identity *id = task_of(c, f->open->arg);
        if (id)
            CHECK(OTF2_EvtWriter_ThreadTaskSwitch(c->w, NULL, f->start, id->team, id->creator,
                                                   id->generation));
    }
    CHECK(OTF2_EvtWriter_Enter(c->w, NULL, f->start, ref));
    if (critical_block(c, f))
        write_lock_op(c, f->start, lock_of_critical(c, f->region), 1);
    if (task_create(c, f))
        write_task_create(c, f->start, f->open->arg);
}

static void p3_leave(void *ctx, const struct trace_frame *f, uint64_t time,
                     const struct pomp_event *close, uint32_t depth)
{
    struct conv *c = ctx;
    struct thread_state *ts = &c->ts[c->thread];
    team_at_leave(c, f, depth, time, 1);
    const struct trace_region *r = region_of(c, f->region);
    OTF2_RegionRef ref = otf2_region(c, r, trace_frame_span(f));
    if (lock_action(close) > 0)
        write_lock_op(c, time, lock_of_address(c, close->arg), 1);
    if (is_parallel(c, f->region) && f->entered) {
        uint32_t k = ts->open.n ? ts->open.v[--ts->open.n] : NO_INSTANCE;
        const struct instance *in = k == NO_INSTANCE ? NULL : &c->inst[k];
        CHECK(OTF2_EvtWriter_ThreadJoin(c->w, NULL, time, OTF2_PARADIGM_OPENMP));
        if (!fork_only(c, in))
            CHECK(OTF2_EvtWriter_Leave(c->w, NULL, time, ref));
        return;
    }
    if (critical_block(c, f))
        write_lock_op(c, time, lock_of_critical(c, f->region), 0);
    CHECK(OTF2_EvtWriter_Leave(c->w, NULL, time, ref));
    if (is_parallel(c, f->region))
        team_keep(c, depth, time); /* its ThreadTeamEnd after the closing barrier */
    if (task_run(c, f)) {
        const struct task_identity *id = task_of(c, f->open->arg);
        if (id && id->last_thread == c->thread && id->last_end == time)
            CHECK(OTF2_EvtWriter_ThreadTaskComplete(c->w, NULL, time, id->team, id->creator,
                                                     id->generation));
    }
    team_at_leave(c, f, depth, time, 0);
}

static void p3_single(void *ctx, const struct pomp_event *e, uint64_t time, uint32_t depth)
{
    struct conv *c = ctx;
    team_before(c, NULL, depth);
    const struct trace_region *r = region_of(c, e->region);
    if (!r)
        return;
    OTF2_RegionRef ref = otf2_region(c, r, trace_single_span(e));
    CHECK(OTF2_EvtWriter_Enter(c->w, NULL, time, ref));
    int a = lock_action(e);
    if (a)
        write_lock_op(c, time, lock_of_address(c, e->arg), a > 0);
    if (task_create_event(c, e))
        write_task_create(c, time, e->arg);
    CHECK(OTF2_EvtWriter_Leave(c->w, NULL, time, ref));
}

static void p3_gap(void *ctx, const struct pomp_event *e, uint64_t time)
{
    (void)e;
    struct conv *c = ctx;
    team_before(c, NULL, UINT32_MAX);
    /* events were lost before this point: measurement was, in effect, off */
    CHECK(OTF2_EvtWriter_MeasurementOnOff(c->w, NULL, time, OTF2_MEASUREMENT_OFF));
    CHECK(OTF2_EvtWriter_MeasurementOnOff(c->w, NULL, time, OTF2_MEASUREMENT_ON));
}

/* ---- definitions ---- */

struct role {
    const char *type;
    OTF2_RegionRole role, body_role;
};

static const struct role roles[] = {
    {"parallel", OTF2_REGION_ROLE_PARALLEL, OTF2_REGION_ROLE_PARALLEL},
    {"for", OTF2_REGION_ROLE_LOOP, OTF2_REGION_ROLE_LOOP},
    {"loop", OTF2_REGION_ROLE_LOOP, OTF2_REGION_ROLE_LOOP},
    {"do", OTF2_REGION_ROLE_LOOP, OTF2_REGION_ROLE_LOOP},
    {"distribute", OTF2_REGION_ROLE_LOOP, OTF2_REGION_ROLE_LOOP},
    {"taskloop", OTF2_REGION_ROLE_LOOP, OTF2_REGION_ROLE_LOOP},
    {"sections", OTF2_REGION_ROLE_SECTIONS, OTF2_REGION_ROLE_SECTION},
    {"section", OTF2_REGION_ROLE_SECTION, OTF2_REGION_ROLE_SECTION},
    {"workshare", OTF2_REGION_ROLE_WORKSHARE, OTF2_REGION_ROLE_WORKSHARE},
    {"single", OTF2_REGION_ROLE_SINGLE, OTF2_REGION_ROLE_SINGLE_SBLOCK},
    {"master", OTF2_REGION_ROLE_MASTER, OTF2_REGION_ROLE_MASTER},
    {"masked", OTF2_REGION_ROLE_MASTER, OTF2_REGION_ROLE_MASTER},
    {"critical", OTF2_REGION_ROLE_CRITICAL, OTF2_REGION_ROLE_CRITICAL_SBLOCK},
    {"atomic", OTF2_REGION_ROLE_ATOMIC, OTF2_REGION_ROLE_ATOMIC},
    {"barrier", OTF2_REGION_ROLE_BARRIER, OTF2_REGION_ROLE_BARRIER},
    {"implicit_barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER, OTF2_REGION_ROLE_IMPLICIT_BARRIER},
    {"implicit barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER, OTF2_REGION_ROLE_IMPLICIT_BARRIER},
    {"ibarrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER, OTF2_REGION_ROLE_IMPLICIT_BARRIER},
    {"flush", OTF2_REGION_ROLE_FLUSH, OTF2_REGION_ROLE_FLUSH},
    {"ordered", OTF2_REGION_ROLE_ORDERED, OTF2_REGION_ROLE_ORDERED_SBLOCK},
    {"task", OTF2_REGION_ROLE_TASK, OTF2_REGION_ROLE_TASK},
    {"untied task", OTF2_REGION_ROLE_TASK_UNTIED, OTF2_REGION_ROLE_TASK_UNTIED},
    {"taskwait", OTF2_REGION_ROLE_TASK_WAIT, OTF2_REGION_ROLE_TASK_WAIT},
    {"taskgroup", OTF2_REGION_ROLE_TASK_WAIT, OTF2_REGION_ROLE_TASK_WAIT},
    {"task_create", OTF2_REGION_ROLE_TASK_CREATE, OTF2_REGION_ROLE_TASK_CREATE}, /* the runtime's */
    {"function", OTF2_REGION_ROLE_FUNCTION, OTF2_REGION_ROLE_FUNCTION},
    {"region", OTF2_REGION_ROLE_CODE, OTF2_REGION_ROLE_CODE},
    {"user", OTF2_REGION_ROLE_CODE, OTF2_REGION_ROLE_CODE},
    {"userregion", OTF2_REGION_ROLE_CODE, OTF2_REGION_ROLE_CODE}, /* POMP_Begin/End */
    {"userevent", OTF2_REGION_ROLE_CODE, OTF2_REGION_ROLE_CODE},
    {"pomp", OTF2_REGION_ROLE_ARTIFICIAL, OTF2_REGION_ROLE_ARTIFICIAL},
};

static OTF2_RegionRole role_of(const struct trace_region *r, int body)
{
    if (strcmp(r->type, "wait") == 0 && strcmp(r->name, "taskgroup") == 0)
        return OTF2_REGION_ROLE_TASK_WAIT; /* the runtime's wait at a taskgroup's end */
    for (size_t i = 0; i < sizeof roles / sizeof *roles; i++)
        if (strcmp(roles[i].type, r->type) == 0)
            return body ? roles[i].body_role : roles[i].role;
    if (strstr(r->type, "lock") || strncmp(r->type, "omp_", 4) == 0)
        return OTF2_REGION_ROLE_WRAPPER; /* an OpenMP API call */
    return OTF2_REGION_ROLE_CODE;
}

static OTF2_Paradigm paradigm_of(const struct trace_region *r)
{
    if (trace_region_is(r, "pomp"))
        return OTF2_PARADIGM_MEASUREMENT_SYSTEM;
    if (trace_region_is(r, "function") || trace_region_is(r, "region") ||
        trace_region_is(r, "user") || trace_region_is(r, "userregion") ||
        trace_region_is(r, "userevent"))
        return OTF2_PARADIGM_USER;
    return OTF2_PARADIGM_OPENMP;
}

struct strings {
    char **s;
    size_t n, cap;
};

/* The string's reference, made if new; UINT32_MAX when out of memory. */
static uint32_t string_ref(struct strings *t, const char *s)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->s[i], s) == 0)
            return (uint32_t)i;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        char **n = realloc(t->s, cap * sizeof *n);
        if (!n)
            return UINT32_MAX;
        t->s = n;
        t->cap = cap;
    }
    if (!(t->s[t->n] = strdup(s)))
        return UINT32_MAX;
    return (uint32_t)t->n++;
}

static void write_definitions(struct conv *c, OTF2_Archive *archive, const uint64_t *events)
{
    const struct trace_model *m = c->m;
    OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(archive);
    if (!d) {
        c->err = OTF2_ERROR_MEM_FAULT;
        return;
    }
    /* Strings are written first, so collect every one before writing the rest. */
    struct strings s = {0};
    char label[600], name[128];
    uint32_t nslots = REFS_PER_REGION * m->nregions;
    uint32_t *region_names = calloc(nslots ? nslots : 1, sizeof *region_names);
    uint32_t *region_files = calloc(m->nregions ? m->nregions : 1, sizeof *region_files);
    uint32_t *thread_names = calloc(m->nthreads ? m->nthreads : 1, sizeof *thread_names);
    uint32_t *team_names = calloc(c->nteams ? c->nteams : 1, sizeof *team_names);
    uint32_t empty = string_ref(&s, ""), host = string_ref(&s, m->hostname),
             node = string_ref(&s, "node"), openmp = string_ref(&s, "OpenMP threads");
    snprintf(name, sizeof name, "%s (pid %d)", m->program, m->pid);
    uint32_t process = string_ref(&s, name);
    if (!region_names || !region_files || !thread_names || !team_names) {
        c->oom = 1;
        goto out;
    }
    for (uint32_t i = 0; i < m->nregions; i++) {
        const struct trace_region *r = &m->regions[i];
        region_files[i] = string_ref(&s, r->file);
        static const enum trace_span span_of_ref[REFS_PER_REGION] = {
            [REF_CONSTRUCT] = TRACE_SPAN_BLOCK, [REF_BODY] = TRACE_SPAN_BODY,
            [REF_CREATE] = TRACE_SPAN_ENTERED};
        for (uint32_t k = 0; k < REFS_PER_REGION; k++) {
            if (c->ref[REFS_PER_REGION * i + k] == UINT32_MAX)
                continue;
            trace_span_label(r, span_of_ref[k], label, sizeof label);
            region_names[REFS_PER_REGION * i + k] = string_ref(&s, label);
        }
    }
    /* a device's streams are in a location group of their own, an accelerator */
    enum { OTF2_DEVICE_GROUPS = 64 };
    uint32_t device_names[OTF2_DEVICE_GROUPS];
    uint64_t devices_seen = 0;
    for (uint32_t t = 0; t < m->nthreads; t++) {
        trace_thread_label(&m->threads[t], name, sizeof name);
        thread_names[t] = string_ref(&s, name);
        int dev = m->threads[t].stream ? m->threads[t].device : -1;
        if (dev >= 0 && dev < OTF2_DEVICE_GROUPS && !(devices_seen & (1ull << dev))) {
            devices_seen |= 1ull << dev;
            snprintf(name, sizeof name, "device %d", dev);
            device_names[dev] = string_ref(&s, name);
        }
    }
    for (size_t t = 0; t < c->nteams; t++) {
        snprintf(name, sizeof name, "OpenMP team %zu (%zu thread%s, master thread %u)", t,
                 c->teams[t].members.n, c->teams[t].members.n == 1 ? "" : "s",
                 c->teams[t].members.v[0]);
        team_names[t] = string_ref(&s, name);
    }
    for (size_t i = 0; i < s.n; i++)
        CHECK(OTF2_GlobalDefWriter_WriteString(d, (OTF2_StringRef)i, s.s[i]));

    uint64_t resolution = (uint64_t)(m->ticks_per_ns * 1e9 + 0.5);
    CHECK(OTF2_GlobalDefWriter_WriteClockProperties(
        d, resolution ? resolution : 1, m->start_ticks,
        m->end_ticks > m->start_ticks ? m->end_ticks - m->start_ticks : 0,
        m->realtime_start_ns ? m->realtime_start_ns : OTF2_UNDEFINED_TIMESTAMP));
    CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, host, node, OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    CHECK(OTF2_GlobalDefWriter_WriteLocationGroup(d, 0, process, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                  OTF2_UNDEFINED_LOCATION_GROUP));
    for (int dev = 0; dev < OTF2_DEVICE_GROUPS; dev++)
        if (devices_seen & (1ull << dev))
            CHECK(OTF2_GlobalDefWriter_WriteLocationGroup(d, (OTF2_LocationGroupRef)(1 + dev),
                                                          device_names[dev],
                                                          OTF2_LOCATION_GROUP_TYPE_ACCELERATOR, 0, 0));
    for (uint32_t t = 0; t < m->nthreads; t++) {
        int dev = m->threads[t].stream ? m->threads[t].device : -1;
        int grouped = dev >= 0 && dev < OTF2_DEVICE_GROUPS;
        CHECK(OTF2_GlobalDefWriter_WriteLocation(
            d, t, thread_names[t],
            dev >= 0 ? OTF2_LOCATION_TYPE_ACCELERATOR_STREAM : OTF2_LOCATION_TYPE_CPU_THREAD, events[t],
            grouped ? (OTF2_LocationGroupRef)(1 + dev) : 0));
    }
    for (uint32_t i = 0; i < m->nregions; i++) {
        const struct trace_region *r = &m->regions[i];
        for (uint32_t k = 0; k < REFS_PER_REGION; k++) {
            uint32_t slot = REFS_PER_REGION * i + k;
            if (c->ref[slot] == UINT32_MAX)
                continue;
            OTF2_RegionRole role = k == REF_CREATE ? OTF2_REGION_ROLE_TASK_CREATE
                                                   : role_of(r, k == REF_BODY);
            CHECK(OTF2_GlobalDefWriter_WriteRegion(
                d, c->ref[slot], region_names[slot], region_names[slot], empty, role, paradigm_of(r),
                OTF2_REGION_FLAG_NONE, region_files[i], (uint32_t)r->first_line,
                (uint32_t)r->last_line));
        }
    }
    /* Thread teams: a group of all threads (the OpenMP locations), one group
     * of ranks in it per team, and a communicator per team. */
    uint64_t *members = calloc(m->nthreads ? m->nthreads : 1, sizeof *members);
    if (!members) {
        c->oom = 1;
        goto out;
    }
    for (uint32_t t = 0; t < m->nthreads; t++)
        members[t] = t;
    CHECK(OTF2_GlobalDefWriter_WriteGroup(d, 0, openmp, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, m->nthreads,
                                          members));
    for (size_t t = 0; t < c->nteams; t++) {
        const struct vec32 *tm = &c->teams[t].members;
        for (size_t i = 0; i < tm->n; i++)
            members[i] = tm->v[i];
        CHECK(OTF2_GlobalDefWriter_WriteGroup(d, (OTF2_GroupRef)(t + 1), team_names[t],
                                              OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP,
                                              OTF2_GROUP_FLAG_NONE, (uint32_t)tm->n, members));
        CHECK(OTF2_GlobalDefWriter_WriteComm(d, (OTF2_CommRef)t, team_names[t],
                                             (OTF2_GroupRef)(t + 1), OTF2_UNDEFINED_COMM,
                                             OTF2_COMM_FLAG_NONE));
    }
    free(members);
out:
    for (size_t i = 0; i < s.n; i++)
        free(s.s[i]);
    free(s.s);
    free(region_names);
    free(region_files);
    free(thread_names);
    free(team_names);
    if (empty == UINT32_MAX || process == UINT32_MAX)
        c->oom = 1;
}

/* ---- the archive ---- */

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final)
{
    (void)user, (void)type, (void)loc, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc)
{
    (void)user, (void)type, (void)loc;
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* An archive of an earlier run in the same directory would make OTF2 refuse;
 * a partial one (a write failed: a full disk) is no trace and takes space. */
static void remove_archive(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/traces", dir);
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    snprintf(path, sizeof path, "%s/traces.otf2", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/traces.def", dir);
    unlink(path);
}

/* The name of an archive file that is still there after remove_archive (a
 * directory), or NULL. */
static const char *archive_file_in_the_way(const char *dir)
{
    static const char *const names[] = {"traces.otf2", "traces.def"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (lstat(path, &st) == 0)
            return names[i];
    }
    return NULL;
}

static void free_conv(struct conv *c)
{
    for (uint32_t t = 0; c->ts && t < c->m->nthreads; t++) {
        struct thread_state *ts = &c->ts[t];
        free(ts->forks.v), free(ts->joins.v), free(ts->open.v), free(ts->open_joins.v),
            free(ts->teams.v),
            free(ts->lock_order.v);
    }
    for (size_t k = 0; k < c->ninst; k++)
        free(c->inst[k].members.v);
    for (size_t t = 0; t < c->nteams; t++)
        free(c->teams[t].members.v);
    free(c->ts), free(c->inst), free(c->joins), free(c->teams), free(c->tasks),
        free(c->lock_ops), free(c->critical_lock), free(c->used), free(c->ref);
    map64_free(&c->task_ids);
    map64_free(&c->lock_ids);
}

static int walk_all(struct conv *c, const struct trace_walk_ops *ops, int pass)
{
    c->pass = pass;
    for (uint32_t t = 0; t < c->m->nthreads && !c->oom; t++) {
        struct trace_walk_stats st;
        c->thread = t;
        if (trace_walk(&c->m->threads[t], c->m->end_ticks, ops, c, &st) != 0)
            c->oom = 1;
        if (c->ts[t].team_kept)
            team_release(c, c->ts[t].team_kept_time);
    }
    return c->oom ? -1 : 0;
}

/* libotf2's first error message, kept for pomp's own line: the library
 * printed each of its errors to stderr ("[OTF2] src/otf2_file_posix.c:253:
 * error: ..."), 15 lines for one full disk, and pomp's line named only the
 * last and least telling code (INTEGRITY_FAULT). */
struct otf2_first_error {
    char text[512];
};

static OTF2_ErrorCode keep_first_error(void *data, const char *file, uint64_t line,
                                       const char *function, OTF2_ErrorCode code,
                                       const char *format, va_list va)
{
    (void)file;
    (void)line;
    (void)function;
    struct otf2_first_error *first = data;
    if (!first->text[0]) {
        int n = snprintf(first->text, sizeof first->text, "%s", OTF2_Error_GetDescription(code));
        if (format && n >= 0 && (size_t)n + 2 < sizeof first->text) {
            snprintf(first->text + n, sizeof first->text - (size_t)n, ": ");
            vsnprintf(first->text + n + 2, sizeof first->text - (size_t)n - 2, format, va);
        }
    }
    return code;
}

static int write_archive(const struct trace_model *m, const char *dir, char *err,
                         size_t errsize, const struct otf2_first_error *first);

int trace_otf2_write(const struct trace_model *m, const char *dir, char *err, size_t errsize)
{
    struct otf2_first_error first = {{0}};
    OTF2_ErrorCallback before = OTF2_Error_RegisterCallback(keep_first_error, &first);
    int rc = write_archive(m, dir, err, errsize, &first);
    OTF2_Error_RegisterCallback(before, NULL);
    return rc;
}

static int write_archive(const struct trace_model *m, const char *dir, char *err,
                         size_t errsize, const struct otf2_first_error *first)
{
    struct conv conv = {.m = m}, *c = &conv;
    if (errsize)
        *err = '\0'; /* on success: a note, or nothing */
    c->ts = calloc(m->nthreads ? m->nthreads : 1, sizeof *c->ts);
    c->critical_lock = calloc(m->nregions ? m->nregions : 1, sizeof *c->critical_lock);
    c->used = calloc(REFS_PER_REGION * m->nregions + 1, 1);
    c->ref = calloc(REFS_PER_REGION * m->nregions + 1, sizeof *c->ref);
    uint64_t *events = calloc(m->nthreads ? m->nthreads : 1, sizeof *events);
    for (size_t t = 0; c->ts && t < m->nthreads; t++)
        c->ts[t].ended_join = NO_INSTANCE;
    int rc = -1, opened = 0;
    OTF2_Archive *archive = NULL;
    static const struct trace_walk_ops pass1 = {p1_enter, p1_leave, p1_single, NULL};
    static const struct trace_walk_ops pass2 = {p2_enter, p2_leave, p2_single, NULL};
    static const struct trace_walk_ops pass3 = {p3_enter, p3_leave, p3_single, p3_gap};
    if (!c->ts || !c->critical_lock || !c->used || !c->ref || !events || walk_all(c, &pass1, 1) ||
        resolve_teams(c) || walk_all(c, &pass2, 2) || order_locks(c))
        goto oom;
    number_regions(c);
    for (uint32_t t = 0; t < m->nthreads; t++)
        c->ts[t].join_i = 0;

    remove_archive(dir);
    /* what remove_archive could not take away (a directory named like the
     * anchor file) would leave OTF2 writing an archive without it, unsaid */
    const char *blocked = archive_file_in_the_way(dir);
    if (blocked) {
        snprintf(err, errsize,
                 "cannot write the OTF2 archive: %s/%s is in the way (not a file pomp can replace)",
                 dir, blocked);
        goto out;
    }
    /* definition chunks of OTF2's least size: each thread's local definition
     * writer (empty, but readers want its file) fills a whole chunk when it
     * closes; at 4 MiB, 783 threads of a nested program took 14 s to write
     * 6,410 events, 0.8 s now (a probe) */
    archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, OTF2_CHUNK_SIZE_MIN,
                                OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) {
        snprintf(err, errsize, "cannot create the OTF2 archive %s/traces.otf2", dir);
        goto out;
    }
    opened = 1;
    static const OTF2_FlushCallbacks flush = {.otf2_pre_flush = pre_flush,
                                              .otf2_post_flush = post_flush};
    CHECK(OTF2_Archive_SetFlushCallbacks(archive, &flush, NULL));
    CHECK(OTF2_Archive_SetSerialCollectiveCallbacks(archive));
    CHECK(OTF2_Archive_SetCreator(archive, "pomp"));
    CHECK(OTF2_Archive_SetDescription(archive, "OpenMP trace recorded by pomp"));
    CHECK(OTF2_Archive_SetMachineName(archive, m->hostname));
    CHECK(OTF2_Archive_OpenEvtFiles(archive));
    /* the archive's folder of event files, which OTF2 has just made with
     * what the umask leaves: one it could not write into (pomp_owned.h) */
    char events_dir[4200];
    snprintf(events_dir, sizeof events_dir, "%s/traces", dir);
    pomp_own_tree(events_dir);
    c->pass = 3;
    for (uint32_t t = 0; t < m->nthreads && c->err == OTF2_SUCCESS && !c->oom; t++) {
        c->w = OTF2_Archive_GetEvtWriter(archive, t);
        if (!c->w) {
            c->err = OTF2_ERROR_MEM_FAULT;
            break;
        }
        struct trace_walk_stats st;
        c->thread = t;
        if (trace_walk(&m->threads[t], m->end_ticks, &pass3, c, &st) != 0)
            c->oom = 1;
        if (c->ts[t].team_kept)
            team_release(c, c->ts[t].team_kept_time);
        CHECK(OTF2_EvtWriter_GetNumberOfEvents(c->w, &events[t]));
        CHECK(OTF2_Archive_CloseEvtWriter(archive, c->w));
    }
    CHECK(OTF2_Archive_CloseEvtFiles(archive));
    CHECK(OTF2_Archive_OpenDefFiles(archive));
    for (uint32_t t = 0; t < m->nthreads; t++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(archive, t);
        if (dw)
            CHECK(OTF2_Archive_CloseDefWriter(archive, dw));
    }
    CHECK(OTF2_Archive_CloseDefFiles(archive));
    if (c->err == OTF2_SUCCESS && !c->oom)
        write_definitions(c, archive, events);
    CHECK(OTF2_Archive_Close(archive));
    archive = NULL;
    /* OTF2 made its files with what the umask leaves (pomp_owned.h) */
    pomp_own_tree(events_dir);
    snprintf(events_dir, sizeof events_dir, "%s/traces.otf2", dir);
    pomp_own_tree(events_dir);
    snprintf(events_dir, sizeof events_dir, "%s/traces.def", dir);
    pomp_own_tree(events_dir);
    if (c->oom)
        goto oom;
    if (c->err != OTF2_SUCCESS) {
        if (first->text[0]) /* the cause (a full disk), then what it came to */
            snprintf(err, errsize, "OTF2: %s (then %s)", first->text, OTF2_Error_GetName(c->err));
        else
            snprintf(err, errsize, "OTF2: %s (%s)", OTF2_Error_GetDescription(c->err),
                     OTF2_Error_GetName(c->err));
        goto out;
    }
    rc = 0;
    if (c->unpaired_lock_ops) /* said by the caller */
        snprintf(err, errsize,
                 "traces.otf2: %llu lock acquisitions or releases left out: the other side of "
                 "their lock is not in the trace (POMP_FILTER_* took out omp_set_lock or "
                 "omp_unset_lock calls, not both; or a release was not recorded, under POMP_Off "
                 "or with the events a full buffer lost, before another thread took the lock)",
                 (unsigned long long)c->unpaired_lock_ops);
    goto out;
oom:
    snprintf(err, errsize, "out of memory while converting the trace to OTF2");
out:
    if (archive)
        OTF2_Archive_Close(archive);
    if (rc != 0 && opened) {
        remove_archive(dir);
        snprintf(err + strlen(err), errsize - strlen(err), "; the partial archive was removed");
    }
    free(events);
    free_conv(c);
    return rc;
}
