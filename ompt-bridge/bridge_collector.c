/* __omp_collector_api (seed 003) on top of the OMPT bridge. A collector finds
 * the function with dlsym and sends it request buffers; libpomp answers from
 * what the bridge knows: the runtime's thread state (ompt_get_state), the
 * parallel region instance each thread is in (the bridge's team records), and
 * events delivered from the bridge's OMPT callbacks (docs/collector.md).
 *
 * One session per process: START .. STOP, and START again. The callbacks are
 * read by every thread that delivers an event; they are written only by
 * requests, with atomic stores. STATE and CURRENT_PRID take no lock and
 * allocate nothing: a collector may send them from a signal handler. */
#include "bridge_collector.h"

#include <stdint.h>
#include <string.h>

#include "bridge_callbacks.h"
#include "bridge_thread.h"

enum { EVENTS = OMP_EVENT_THR_END_ATWT + 1, MAX_ENTRY = 1 << 20 };

int bridge_collector_live;
static int session;                                 /* between START and STOP */
static int paused;                                  /* PAUSE .. RESUME */
static omp_collector_callback_t callbacks[EVENTS];  /* by event */
static ompt_get_state_t get_state;                  /* the runtime's, once the tool started */
static void (*keep_states)(void);                   /* the libgomp bridge's, or NULL */

static void update_live(void)
{
    int any = 0;
    for (int e = 1; e < EVENTS; e++)
        any |= __atomic_load_n(&callbacks[e], __ATOMIC_ACQUIRE) != NULL;
    int live = any && __atomic_load_n(&session, __ATOMIC_ACQUIRE) &&
               !__atomic_load_n(&paused, __ATOMIC_ACQUIRE);
    __atomic_store_n(&bridge_collector_live, live, __ATOMIC_RELEASE);
}

void bridge_collector_deliver(OMP_COLLECTORAPI_EVENT event)
{
    if ((unsigned)event >= EVENTS)
        return;
    omp_collector_callback_t cb = __atomic_load_n(&callbacks[event], __ATOMIC_ACQUIRE);
    if (cb && __atomic_load_n(&session, __ATOMIC_ACQUIRE) &&
        !__atomic_load_n(&paused, __ATOMIC_ACQUIRE))
        cb(event);
}

void bridge_collector_tool_started(ompt_get_state_t fn, void (*keep)(void))
{
    __atomic_store_n(&keep_states, keep, __ATOMIC_RELEASE);
    __atomic_store_n(&get_state, fn, __ATOMIC_RELEASE);
    if (keep && __atomic_load_n(&session, __ATOMIC_ACQUIRE)) /* started before the tool */
        keep();
}

/* ---- one request ---- */

struct request {
    int32_t r;
    int32_t *ec, *rsz;
    unsigned char *mem;  /* sz - 16 bytes; values in it may be unaligned (memcpy) */
    size_t size;
};

static void answer(struct request *q, OMP_COLLECTORAPI_EC ec, size_t returned)
{
    *q->ec = ec;
    *q->rsz = (int32_t)returned;
}

/* Room for `need` bytes of result, or MEM_TOO_SMALL with the size needed. */
static int room_for(struct request *q, size_t need)
{
    if (q->size >= need)
        return 1;
    answer(q, OMP_ERRCODE_MEM_TOO_SMALL, need);
    return 0;
}

/* The OMPT callbacks an event comes from (the team callbacks come with START). */
static void require_callbacks(OMP_COLLECTORAPI_EVENT e)
{
    switch (e) {
    case OMP_EVENT_THR_BEGIN_IBAR: case OMP_EVENT_THR_END_IBAR:
    case OMP_EVENT_THR_BEGIN_EBAR: case OMP_EVENT_THR_END_EBAR:
        bridge_tool_require(ompt_callback_sync_region);
        break;
    case OMP_EVENT_THR_BEGIN_LKWT: case OMP_EVENT_THR_END_LKWT:
    case OMP_EVENT_THR_BEGIN_CTWT: case OMP_EVENT_THR_END_CTWT:
    case OMP_EVENT_THR_BEGIN_ODWT: case OMP_EVENT_THR_END_ODWT:
    case OMP_EVENT_THR_BEGIN_ORDERED: case OMP_EVENT_THR_END_ORDERED:
    case OMP_EVENT_THR_BEGIN_ATWT: case OMP_EVENT_THR_END_ATWT:
        bridge_tool_require(ompt_callback_mutex_acquire);
        bridge_tool_require(ompt_callback_mutex_acquired);
        bridge_tool_require(ompt_callback_mutex_released);
        bridge_tool_require(ompt_callback_nest_lock);
        break;
    case OMP_EVENT_THR_BEGIN_MASTER: case OMP_EVENT_THR_END_MASTER:
        bridge_tool_require(ompt_callback_masked);
        break;
    case OMP_EVENT_THR_BEGIN_SINGLE: case OMP_EVENT_THR_END_SINGLE:
        bridge_tool_require(ompt_callback_work);
        break;
    default: /* fork, join, idle: the team callbacks */
        break;
    }
}

static void start(struct request *q)
{
    int expected = 0;
    int tool = bridge_tool_state();
    if (tool == BRIDGE_TOOL_IMPOSSIBLE) {
        answer(q, OMP_ERRCODE_UNSUPPORTED, 0); /* libgomp, POMP_OMPT=off, POMP_ENABLE=off */
        return;
    }
    if (!__atomic_compare_exchange_n(&session, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        answer(q, OMP_ERRCODE_SEQUENCE_ERR, 0); /* already started */
        return;
    }
    for (int e = 0; e < EVENTS; e++)
        __atomic_store_n(&callbacks[e], NULL, __ATOMIC_RELEASE);
    __atomic_store_n(&paused, 0, __ATOMIC_RELEASE);
    /* team records for the region ids, idle and barrier bookkeeping */
    static const ompt_callbacks_t team[] = {ompt_callback_thread_begin,
                                            ompt_callback_parallel_begin,
                                            ompt_callback_parallel_end,
                                            ompt_callback_implicit_task,
                                            ompt_callback_sync_region};
    for (size_t i = 0; i < sizeof team / sizeof *team; i++)
        bridge_tool_require(team[i]);
    void (*keep)(void) = __atomic_load_n(&keep_states, __ATOMIC_ACQUIRE);
    if (keep) /* STATE requests may come from now on */
        keep();
    update_live();
    answer(q, OMP_ERRCODE_OK, 0);
}

/* The event in the request's mem, checked; 0 and an answer if none. */
static int event_of(struct request *q, int32_t *event)
{
    if (q->size < sizeof(int32_t)) {
        answer(q, OMP_ERRCODE_ERROR, 0);
        return 0;
    }
    memcpy(event, q->mem, sizeof *event);
    if (*event < OMP_EVENT_FORK || *event >= EVENTS) {
        answer(q, OMP_ERRCODE_UNKNOWN, 0); /* implementation-specific events: pomp has none */
        return 0;
    }
    return 1;
}

static void register_event(struct request *q)
{
    int32_t event;
    if (!event_of(q, &event))
        return;
    omp_collector_callback_t cb;
    if (q->size < sizeof event + sizeof cb) {
        answer(q, OMP_ERRCODE_ERROR, 0);
        return;
    }
    memcpy(&cb, q->mem + sizeof event, sizeof cb); /* packed after the event, as collectors write it */
    if (!cb) {
        answer(q, OMP_ERRCODE_ERROR, 0);
        return;
    }
    require_callbacks((OMP_COLLECTORAPI_EVENT)event);
    __atomic_store_n(&callbacks[event], cb, __ATOMIC_RELEASE);
    update_live();
    answer(q, OMP_ERRCODE_OK, 0);
}

static void unregister_event(struct request *q)
{
    int32_t event;
    if (!event_of(q, &event))
        return;
    __atomic_store_n(&callbacks[event], NULL, __ATOMIC_RELEASE);
    update_live();
    answer(q, OMP_ERRCODE_OK, 0);
}

static OMP_COLLECTOR_API_THR_STATE thread_state_of(int ompt_state)
{
    switch (ompt_state) {
    case ompt_state_work_serial: return THR_SERIAL_STATE;
    case ompt_state_work_parallel: return THR_WORK_STATE;
    case ompt_state_work_reduction: return THR_REDUC_STATE;
    case ompt_state_wait_barrier_explicit: return THR_EBAR_STATE;
    case 0x010: /* ompt_state_wait_barrier (deprecated) */
    case 0x013: /* ompt_state_wait_barrier_implicit (deprecated) */
    case ompt_state_wait_barrier_implicit_parallel:
    case ompt_state_wait_barrier_implicit_workshare:
    case ompt_state_wait_barrier_implementation:
    case ompt_state_wait_barrier_teams: return THR_IBAR_STATE;
    case ompt_state_wait_taskwait:
    case ompt_state_wait_taskgroup: return THR_EBAR_STATE; /* waits the program asked for */
    case ompt_state_wait_mutex:
    case ompt_state_wait_lock: return THR_LKWT_STATE;
    case ompt_state_wait_critical: return THR_CTWT_STATE;
    case ompt_state_wait_atomic: return THR_ATWT_STATE;
    case ompt_state_wait_ordered: return THR_ODWT_STATE;
    case ompt_state_idle: return THR_IDLE_STATE;
    case ompt_state_undefined: return THR_SERIAL_STATE; /* not an OpenMP thread */
    default: return THR_OVHD_STATE; /* overhead, target waits */
    }
}

/* Whether POMP's innermost open region on thread b is an explicit task's
 * execution the instrumentation reported: a task b runs while it waits, of
 * which the bridge has no scope (the wait's stays on top). Read from b's own
 * signal handler, as the sampler reads the profile (consistent between
 * events); a thread without a record runs none. Before, such a task read as
 * THR_EBAR_STATE in every instrumented build while the sampler counted it as
 * work (a probe). */
static int runs_instrumented_task(const struct bridge_thread *b)
{
    const struct pomp_thread *t = b->pomp;
    if (!t)
        return 0;
    const struct pomp_profile *p = &t->profile;
    uint32_t depth = p->depth;
    const struct pomp_frame *frames = __atomic_load_n(&p->frames, __ATOMIC_RELAXED);
    if (depth < 2 || depth > p->frames_cap || p->too_deep)
        return 0;
    if (p->leaf.region && p->leaf.depth == depth)
        return 0; /* a wait of the task's own (a leaf on its frame) */
    const struct POMP_Region_s *r = frames[depth - 1].region;
    return r && r->task_root;
}

/* Whether the calling thread waits in a taskwait or at a taskgroup's end:
 * the bridge's scope on top says so (a task it runs meanwhile is on top of
 * it). LLVM libomp 19 leaves such a thread in work_parallel: a master waiting
 * 300 ms in a taskwait for a task another thread ran read THR_WORK_STATE in
 * 88 samples of 91 (a probe). Reads only the thread's own scopes. */
static int waits_for_tasks(void)
{
    struct bridge_thread *b = bridge_tls;
    const struct bridge_scope *s = b ? bridge_scope_top(b) : NULL;
    return s && s->kind == SCOPE_SYNC &&
           (s->detail == ompt_sync_region_taskwait || s->detail == ompt_sync_region_taskgroup) &&
           !runs_instrumented_task(b);
}

/* Whether the calling thread is an OpenMP worker in no team: the bridge ended
 * its memberships (bridge_close_pending, when libpomp finalizes at exit) while
 * the runtime still reports it in its last closing barrier. */
static int worker_in_no_team(void)
{
    struct bridge_thread *b = bridge_tls;
    return b && b->nesting == 0;
}

static void state(struct request *q)
{
    int32_t s = THR_SERIAL_STATE; /* before the runtime started: serial */
    uint64_t wait_id = 0;
    const size_t need = sizeof s + sizeof(unsigned long);
    ompt_get_state_t fn = __atomic_load_n(&get_state, __ATOMIC_ACQUIRE);
    if (!fn && bridge_tool_state() == BRIDGE_TOOL_STARTED) {
        answer(q, OMP_ERRCODE_UNSUPPORTED, 0); /* a runtime without the state inquiry */
        return;
    }
    if (!room_for(q, need))
        return;
    if (fn) {
        ompt_wait_id_t w = 0;
        s = thread_state_of(fn(&w));
        /* waiting for work, as in region_id (the runtime says implicit
         * barrier); also once libpomp finalized, which ends the bridge's
         * memberships: the idle workers read IBAR while a collector's own
         * destructor ran after libpomp's (40 ms of samples under pomprun) */
        if (s == THR_IBAR_STATE && (bridge_worker_joined_by(UINT64_MAX) || worker_in_no_team()))
            s = THR_IDLE_STATE;
        else if (s == THR_WORK_STATE && waits_for_tasks())
            s = THR_EBAR_STATE; /* libomp: a taskwait's or taskgroup's wait reads as work */
        wait_id = w;
    }
    unsigned long wid = (unsigned long)wait_id;
    memcpy(q->mem, &s, sizeof s);
    memcpy(q->mem + sizeof s, &wid, sizeof wid);
    answer(q, OMP_ERRCODE_OK, need);
}

static void region_id(struct request *q, int parent)
{
    uint64_t id = 0;
    if (!room_for(q, sizeof id))
        return;
    struct bridge_thread *b = bridge_tls;
    const struct bridge_membership *m = b ? bridge_membership_top(b) : NULL;
    if (b && b->forking) { /* inside a fork's callback: the new region and where it forks */
        id = parent ? (m ? m->id : 0) : b->forking->id;
    } else if (!parent) {
        /* a worker whose team joined waits for work, in no region, though its
         * membership ends only when the runtime reports its closing barrier's
         * end (libomp at its next region, the libgomp bridge likewise): it
         * answered the ended region's id on libgomp (a probe) */
        int joined = bridge_worker_joined_by(UINT64_MAX);
        id = m && !joined ? m->id : 0;
    } else { /* only a team's master knows its parent region */
        if (!m || !m->master) {
            answer(q, OMP_ERRCODE_THREAD_ERR, 0);
            return;
        }
        id = b->nesting >= 2 && b->nesting <= BRIDGE_MAX_NESTING ? b->member[b->nesting - 2].id : 0;
    }
    memcpy(q->mem, &id, sizeof id);
    answer(q, OMP_ERRCODE_OK, sizeof id);
}

static void stop(struct request *q)
{
    int expected = 1;
    if (!__atomic_compare_exchange_n(&session, &expected, 0, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        answer(q, OMP_ERRCODE_SEQUENCE_ERR, 0);
        return;
    }
    for (int e = 0; e < EVENTS; e++)
        __atomic_store_n(&callbacks[e], NULL, __ATOMIC_RELEASE);
    update_live();
    answer(q, OMP_ERRCODE_OK, 0);
}

static void pause_events(struct request *q, int pause)
{
    __atomic_store_n(&paused, pause, __ATOMIC_RELEASE);
    update_live();
    answer(q, OMP_ERRCODE_OK, 0);
}

static void process(struct request *q)
{
    if (q->r != OMP_REQ_START && !__atomic_load_n(&session, __ATOMIC_ACQUIRE)) {
        /* before START or after STOP; an unknown request is still unknown */
        answer(q, q->r > OMP_REQ_START && q->r < OMP_REQ_LAST ? OMP_ERRCODE_SEQUENCE_ERR
                                                               : OMP_ERRCODE_UNKNOWN, 0);
        return;
    }
    switch (q->r) {
    case OMP_REQ_START: start(q); break;
    case OMP_REQ_REGISTER: register_event(q); break;
    case OMP_REQ_UNREGISTER: unregister_event(q); break;
    case OMP_REQ_STATE: state(q); break;
    case OMP_REQ_CURRENT_PRID: region_id(q, 0); break;
    case OMP_REQ_PARENT_PRID: region_id(q, 1); break;
    case OMP_REQ_STOP: stop(q); break;
    case OMP_REQ_PAUSE: pause_events(q, 1); break;
    case OMP_REQ_RESUME: pause_events(q, 0); break;
    default: answer(q, OMP_ERRCODE_UNKNOWN, 0); break;
    }
}

__attribute__((visibility("default"))) int __omp_collector_api(void *arg)
{
    if (!arg || ((uintptr_t)arg % sizeof(int32_t)) != 0)
        return -1; /* the header's ints must be aligned */
    unsigned char *p = arg;
    for (;;) {
        int32_t *header = (int32_t *)(void *)p;
        int32_t sz = header[0];
        if (sz == 0)
            return 0;
        /* a size that is no multiple of 4, smaller than the header or beyond
         * any request: the rest of the list is ignored */
        if (sz < OMP_COLLECTORAPI_HEADERSIZE || sz % 4 != 0 || sz > MAX_ENTRY)
            return -1;
        struct request q = {.r = header[1], .ec = &header[2], .rsz = &header[3],
                            .mem = p + OMP_COLLECTORAPI_HEADERSIZE,
                            .size = (size_t)sz - OMP_COLLECTORAPI_HEADERSIZE};
        process(&q);
        p += sz;
    }
}
