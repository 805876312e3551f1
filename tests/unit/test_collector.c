/* The collector API (seed 003) on the OMPT bridge, without a runtime: the
 * tool is started with a fake lookup (ompt_set_callback, ompt_get_state), and
 * the bridge's callbacks are called as libomp calls them. Every request, every
 * error code pomp returns, batching, and malformed buffers. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pomplib.h>

#include "bridge_callbacks.h"
#include "bridge_regions.h" /* bridge_runtime_code_lo */
#include "omp_collector_api.h"

/* ---- a fake runtime: what the tool's lookup returns ---- */

static int fake_state = ompt_state_work_serial;
static ompt_wait_id_t fake_wait_id;
static int with_get_state = 1;

static ompt_set_result_t fake_set_callback(ompt_callbacks_t event, ompt_callback_t cb)
{
    (void)event;
    (void)cb;
    return ompt_set_always;
}
static int fake_get_state(ompt_wait_id_t *wait_id)
{
    if (wait_id)
        *wait_id = fake_wait_id;
    return fake_state;
}
static ompt_interface_fn_t fake_lookup(const char *name)
{
    if (strcmp(name, "ompt_set_callback") == 0)
        return (ompt_interface_fn_t)fake_set_callback;
    if (strcmp(name, "ompt_get_state") == 0 && with_get_state)
        return (ompt_interface_fn_t)fake_get_state;
    return NULL;
}

static void start_tool(void)
{
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-unit-test-output", 1);
    setenv("POMP_SUMMARY", "off", 1);
    ompt_start_tool_result_t *tool = ompt_start_tool(201611, "fake");
    cr_assert_not_null(tool);
    cr_assert(tool->initialize(fake_lookup, 0, &tool->tool_data));
    /* the runtime's code is where its lookup is: this test binary, which
     * holds the regions' code too; a region forked from the runtime's own
     * code is none of the program's (libomp's hidden helper team), so this
     * fake runtime owns no code */
    bridge_runtime_code_lo = 0;
    bridge_runtime_code_span = 0;
}

TestSuite(collector, .init = start_tool);
TestSuite(collector_setup); /* tests that start the tool themselves */

/* ---- request buffers ---- */

struct buffer {
    int32_t words[256];
    size_t used; /* in words */
};

/* Appends an entry with `mem` bytes of room; returns its index in words. */
static size_t add(struct buffer *b, int32_t request, size_t mem)
{
    size_t at = b->used, sz = 16 + ((mem + 3) & ~(size_t)3);
    b->words[at] = (int32_t)sz;
    b->words[at + 1] = request;
    b->words[at + 2] = -1; /* untouched marker */
    b->words[at + 3] = -1;
    b->used += sz / 4;
    b->words[b->used] = 0;
    return at;
}
static size_t add_event(struct buffer *b, int32_t request, int32_t event, void (*cb)(OMP_COLLECTORAPI_EVENT))
{
    size_t at = add(b, request, request == OMP_REQ_REGISTER ? 12 : 4);
    memcpy(&b->words[at + 4], &event, sizeof event);
    if (request == OMP_REQ_REGISTER)
        memcpy((char *)&b->words[at + 4] + 4, &cb, sizeof cb); /* packed, as collectors write it */
    return at;
}
static int32_t ec(const struct buffer *b, size_t at) { return b->words[at + 2]; }
static int32_t rsz(const struct buffer *b, size_t at) { return b->words[at + 3]; }
static uint64_t u64(const struct buffer *b, size_t at)
{
    uint64_t v;
    memcpy(&v, &b->words[at + 4], sizeof v);
    return v;
}

static int32_t one(int32_t request)
{
    struct buffer b = {.used = 0};
    size_t at = add(&b, request, 0);
    cr_assert_eq(__omp_collector_api(b.words), 0);
    return ec(&b, at);
}

/* ---- sequence ---- */

Test(collector, start_first_and_once)
{
    struct buffer b = {.used = 0};
    size_t early = add(&b, OMP_REQ_PAUSE, 0), s1 = add(&b, OMP_REQ_START, 0),
           s2 = add(&b, OMP_REQ_START, 0), st = add(&b, OMP_REQ_STOP, 0),
           st2 = add(&b, OMP_REQ_STOP, 0), after = add(&b, OMP_REQ_RESUME, 0),
           again = add(&b, OMP_REQ_START, 0);
    cr_assert_eq(__omp_collector_api(b.words), 0, "a batch is processed whole");
    cr_expect_eq(ec(&b, early), OMP_ERRCODE_SEQUENCE_ERR, "before START");
    cr_expect_eq(ec(&b, s1), OMP_ERRCODE_OK);
    cr_expect_eq(rsz(&b, s1), 0);
    cr_expect_eq(ec(&b, s2), OMP_ERRCODE_SEQUENCE_ERR, "START twice");
    cr_expect_eq(ec(&b, st), OMP_ERRCODE_OK);
    cr_expect_eq(ec(&b, st2), OMP_ERRCODE_SEQUENCE_ERR, "STOP twice");
    cr_expect_eq(ec(&b, after), OMP_ERRCODE_SEQUENCE_ERR, "after STOP");
    cr_expect_eq(ec(&b, again), OMP_ERRCODE_OK, "a new session after STOP");
}

Test(collector, unknown_requests)
{
    cr_expect_eq(one(42), OMP_ERRCODE_UNKNOWN, "unknown before START");
    cr_expect_eq(one(OMP_REQ_START), OMP_ERRCODE_OK);
    cr_expect_eq(one(42), OMP_ERRCODE_UNKNOWN);
    cr_expect_eq(one(-1), OMP_ERRCODE_UNKNOWN);
    cr_expect_eq(one(OMP_REQ_LAST), OMP_ERRCODE_UNKNOWN);
}

/* ---- events ---- */

static int calls[OMP_EVENT_THR_END_ATWT + 1];
static uint64_t fork_current, fork_parent;
static int32_t fork_parent_ec;

static void on_event(OMP_COLLECTORAPI_EVENT e)
{
    calls[e]++;
    if (e != OMP_EVENT_FORK)
        return;
    struct buffer b = {.used = 0}; /* what Sun's collector asks at a fork */
    size_t cur = add(&b, OMP_REQ_CURRENT_PRID, 8), par = add(&b, OMP_REQ_PARENT_PRID, 8);
    cr_assert_eq(__omp_collector_api(b.words), 0);
    fork_current = u64(&b, cur);
    fork_parent = u64(&b, par);
    fork_parent_ec = ec(&b, par);
}

static void fork_and_join(ompt_data_t *pd, ompt_data_t *task)
{
    bridge_on_parallel_begin(task, NULL, pd, 2, ompt_parallel_team, on_event);
    bridge_on_implicit_task(ompt_scope_begin, pd, task, 1, 0, ompt_task_implicit);
    bridge_on_implicit_task(ompt_scope_end, NULL, task, 1, 0, ompt_task_implicit);
    bridge_on_parallel_end(pd, task, ompt_parallel_team, on_event);
}

Test(collector, register_every_event_and_receive_fork_and_join)
{
    POMP_Init();
    struct buffer b = {.used = 0};
    size_t s = add(&b, OMP_REQ_START, 0), regs[OMP_EVENT_THR_END_ATWT + 1];
    for (int e = OMP_EVENT_FORK; e <= OMP_EVENT_THR_END_ATWT; e++)
        regs[e] = add_event(&b, OMP_REQ_REGISTER, e, on_event);
    size_t zero = add_event(&b, OMP_REQ_REGISTER, 0, on_event),
           beyond = add_event(&b, OMP_REQ_REGISTER, 23, on_event),
           impl = add_event(&b, OMP_REQ_REGISTER, OMP_EVENT_THR_RESERVED_IMPL, on_event),
           null_cb = add_event(&b, OMP_REQ_REGISTER, OMP_EVENT_FORK, NULL),
           short_mem = add(&b, OMP_REQ_REGISTER, 4);
    memcpy(&b.words[short_mem + 4], &(int32_t){OMP_EVENT_JOIN}, 4);
    size_t no_event = add(&b, OMP_REQ_UNREGISTER, 0);
    cr_assert_eq(__omp_collector_api(b.words), 0);
    cr_expect_eq(ec(&b, s), OMP_ERRCODE_OK);
    for (int e = OMP_EVENT_FORK; e <= OMP_EVENT_THR_END_ATWT; e++)
        cr_expect_eq(ec(&b, regs[e]), OMP_ERRCODE_OK, "event %d", e);
    cr_expect_eq(ec(&b, zero), OMP_ERRCODE_UNKNOWN);
    cr_expect_eq(ec(&b, beyond), OMP_ERRCODE_UNKNOWN);
    cr_expect_eq(ec(&b, impl), OMP_ERRCODE_UNKNOWN, "no implementation-specific events");
    cr_expect_eq(ec(&b, null_cb), OMP_ERRCODE_ERROR);
    cr_expect_eq(ec(&b, short_mem), OMP_ERRCODE_ERROR, "a REGISTER without room for its callback");
    cr_expect_eq(ec(&b, no_event), OMP_ERRCODE_ERROR, "an UNREGISTER without its event");

    ompt_data_t pd = {0}, task = {0};
    fork_and_join(&pd, &task);
    cr_expect_eq(calls[OMP_EVENT_FORK], 1);
    cr_expect_eq(calls[OMP_EVENT_JOIN], 1);
    cr_expect_neq(fork_current, 0, "the new region's id, in the fork callback");
    cr_expect_eq(fork_parent_ec, OMP_ERRCODE_OK);
    cr_expect_eq(fork_parent, 0, "an outermost region");

    /* the other events, from the callbacks they come from */
    bridge_on_sync_region(ompt_sync_region_barrier_explicit, ompt_scope_begin, &pd, &task, NULL);
    bridge_on_sync_region(ompt_sync_region_barrier_explicit, ompt_scope_end, &pd, &task, NULL);
    bridge_on_sync_region(ompt_sync_region_barrier_implicit_workshare, ompt_scope_begin, &pd, &task, NULL);
    bridge_on_sync_region(ompt_sync_region_barrier_implicit_workshare, ompt_scope_end, &pd, &task, NULL);
    static const ompt_mutex_t kinds[] = {ompt_mutex_lock, ompt_mutex_critical, ompt_mutex_ordered,
                                         ompt_mutex_atomic};
    for (size_t i = 0; i < 4; i++) {
        bridge_on_mutex_acquire(kinds[i], 0, 0, 7, on_event);
        bridge_on_mutex_acquired(kinds[i], 7, on_event);
        bridge_on_mutex_released(kinds[i], 7, on_event);
    }
    bridge_on_masked(ompt_scope_begin, &pd, &task, on_event);
    bridge_on_masked(ompt_scope_end, &pd, &task, on_event);
    bridge_on_work(ompt_work_single_executor, ompt_scope_begin, &pd, &task, 1, on_event);
    bridge_on_work(ompt_work_single_executor, ompt_scope_end, &pd, &task, 1, on_event);
    bridge_on_thread_begin(ompt_thread_worker, &task);
    for (int e = OMP_EVENT_THR_BEGIN_IBAR; e <= OMP_EVENT_THR_END_ATWT; e++)
        cr_expect_eq(calls[e], 1, "event %d delivered once", e);
    cr_expect_eq(calls[OMP_EVENT_THR_BEGIN_IDLE], 1, "a new worker is idle");

    /* unregister, pause, resume */
    cr_assert_eq(__omp_collector_api((struct buffer){0}.words), 0, "an empty list");
    struct buffer u = {.used = 0};
    size_t un = add_event(&u, OMP_REQ_UNREGISTER, OMP_EVENT_JOIN, NULL);
    size_t un_unknown = add_event(&u, OMP_REQ_UNREGISTER, 99, NULL);
    size_t pause = add(&u, OMP_REQ_PAUSE, 0);
    cr_assert_eq(__omp_collector_api(u.words), 0);
    cr_expect_eq(ec(&u, un), OMP_ERRCODE_OK);
    cr_expect_eq(ec(&u, un_unknown), OMP_ERRCODE_UNKNOWN);
    cr_expect_eq(ec(&u, pause), OMP_ERRCODE_OK);
    fork_and_join(&pd, &task);
    cr_expect_eq(calls[OMP_EVENT_FORK], 1, "nothing while paused");
    cr_expect_eq(one(OMP_REQ_RESUME), OMP_ERRCODE_OK);
    fork_and_join(&pd, &task);
    cr_expect_eq(calls[OMP_EVENT_FORK], 2, "resumed");
    cr_expect_eq(calls[OMP_EVENT_JOIN], 1, "unregistered");
    cr_expect_eq(one(OMP_REQ_STOP), OMP_ERRCODE_OK);
    fork_and_join(&pd, &task);
    cr_expect_eq(calls[OMP_EVENT_FORK], 2, "STOP cancels every callback");
}

/* ---- state and region ids ---- */

static size_t add_state(struct buffer *b, size_t room) { return add(b, OMP_REQ_STATE, room); }
static int32_t state_of(const struct buffer *b, size_t at)
{
    return b->words[at + 4];
}
static unsigned long wait_of(const struct buffer *b, size_t at)
{
    unsigned long w;
    memcpy(&w, (const char *)&b->words[at + 4] + 4, sizeof w);
    return w;
}

Test(collector, states_of_the_runtime)
{
    cr_expect_eq(one(OMP_REQ_START), OMP_ERRCODE_OK);
    static const struct {
        int ompt;
        int thr;
    } map[] = {
        {ompt_state_work_serial, THR_SERIAL_STATE},
        {ompt_state_work_parallel, THR_WORK_STATE},
        {ompt_state_work_reduction, THR_REDUC_STATE},
        {ompt_state_wait_barrier_implicit_parallel, THR_IBAR_STATE},
        {ompt_state_wait_barrier_implicit_workshare, THR_IBAR_STATE},
        {ompt_state_wait_barrier_implementation, THR_IBAR_STATE},
        {ompt_state_wait_barrier_explicit, THR_EBAR_STATE},
        {ompt_state_wait_taskwait, THR_EBAR_STATE},
        {ompt_state_wait_lock, THR_LKWT_STATE},
        {ompt_state_wait_critical, THR_CTWT_STATE},
        {ompt_state_wait_ordered, THR_ODWT_STATE},
        {ompt_state_wait_atomic, THR_ATWT_STATE},
        {ompt_state_idle, THR_IDLE_STATE},
        {ompt_state_overhead, THR_OVHD_STATE},
        {ompt_state_undefined, THR_SERIAL_STATE},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        fake_state = map[i].ompt;
        fake_wait_id = 0x1000 + i;
        struct buffer b = {.used = 0};
        size_t at = add_state(&b, 12);
        cr_assert_eq(__omp_collector_api(b.words), 0);
        cr_expect_eq(ec(&b, at), OMP_ERRCODE_OK);
        cr_expect_eq(rsz(&b, at), 12);
        cr_expect_eq(state_of(&b, at), map[i].thr, "OMPT state 0x%x", map[i].ompt);
        cr_expect_eq(wait_of(&b, at), 0x1000 + i, "the wait id");
    }
    struct buffer small = {.used = 0};
    size_t at = add_state(&small, 8);
    cr_assert_eq(__omp_collector_api(small.words), 0);
    cr_expect_eq(ec(&small, at), OMP_ERRCODE_MEM_TOO_SMALL);
    cr_expect_eq(rsz(&small, at), 12, "the size it needs");
    struct buffer prid = {.used = 0};
    at = add(&prid, OMP_REQ_CURRENT_PRID, 4);
    cr_assert_eq(__omp_collector_api(prid.words), 0);
    cr_expect_eq(ec(&prid, at), OMP_ERRCODE_MEM_TOO_SMALL);
    cr_expect_eq(rsz(&prid, at), 8);
}

Test(collector_setup, no_state_inquiry_is_unsupported)
{
    with_get_state = 0;
    start_tool();
    cr_expect_eq(one(OMP_REQ_START), OMP_ERRCODE_OK);
    cr_expect_eq(one(OMP_REQ_STATE), OMP_ERRCODE_UNSUPPORTED);
}

Test(collector_setup, no_ompt_no_session)
{
    setenv("POMP_OMPT", "off", 1);
    setenv("POMP_SUMMARY", "off", 1);
    cr_expect_null(ompt_start_tool(201611, "fake"));
    cr_expect_eq(one(OMP_REQ_START), OMP_ERRCODE_UNSUPPORTED);
    cr_expect_eq(one(OMP_REQ_STATE), OMP_ERRCODE_SEQUENCE_ERR);
}

struct ids {
    ompt_data_t *pd;
    uint64_t current;
    int32_t current_ec, parent_ec;
    int member;
};
static void *ask_ids(void *arg)
{
    struct ids *ids = arg;
    ompt_data_t task = {0};
    if (ids->member)
        bridge_on_implicit_task(ompt_scope_begin, ids->pd, &task, 2, 1, ompt_task_implicit);
    struct buffer b = {.used = 0};
    size_t cur = add(&b, OMP_REQ_CURRENT_PRID, 8), par = add(&b, OMP_REQ_PARENT_PRID, 8);
    cr_assert_eq(__omp_collector_api(b.words), 0);
    ids->current = u64(&b, cur);
    ids->current_ec = ec(&b, cur);
    ids->parent_ec = ec(&b, par);
    return NULL;
}

Test(collector, region_ids_of_nested_teams)
{
    POMP_Init();
    struct buffer s = {.used = 0};
    add(&s, OMP_REQ_START, 0);
    add_event(&s, OMP_REQ_REGISTER, OMP_EVENT_FORK, on_event);
    cr_assert_eq(__omp_collector_api(s.words), 0);
    ompt_data_t outer = {0}, inner = {0}, task = {0};
    bridge_on_parallel_begin(&task, NULL, &outer, 2, ompt_parallel_team, on_event);
    uint64_t outer_id = fork_current;
    bridge_on_implicit_task(ompt_scope_begin, &outer, &task, 2, 0, ompt_task_implicit);
    bridge_on_parallel_begin(&task, NULL, &inner, 2, ompt_parallel_team, on_event);
    uint64_t inner_id = fork_current;
    cr_expect_neq(inner_id, outer_id);
    cr_expect_eq(fork_parent, outer_id, "the nested fork's parent region");
    bridge_on_implicit_task(ompt_scope_begin, &inner, &task, 2, 0, ompt_task_implicit);

    struct buffer b = {.used = 0};
    size_t cur = add(&b, OMP_REQ_CURRENT_PRID, 8), par = add(&b, OMP_REQ_PARENT_PRID, 8);
    cr_assert_eq(__omp_collector_api(b.words), 0);
    cr_expect_eq(u64(&b, cur), inner_id);
    cr_expect_eq(rsz(&b, cur), 8);
    cr_expect_eq(ec(&b, par), OMP_ERRCODE_OK, "the master of the inner team");
    cr_expect_eq(u64(&b, par), outer_id);

    struct ids worker = {.pd = &inner, .member = 1}, outsider = {.pd = NULL, .member = 0};
    pthread_t th;
    pthread_create(&th, NULL, ask_ids, &worker);
    pthread_join(th, NULL);
    cr_expect_eq(worker.current, inner_id, "a worker's region");
    cr_expect_eq(worker.parent_ec, OMP_ERRCODE_THREAD_ERR, "a worker is no master");
    pthread_create(&th, NULL, ask_ids, &outsider);
    pthread_join(th, NULL);
    cr_expect_eq(outsider.current_ec, OMP_ERRCODE_OK);
    cr_expect_eq(outsider.current, 0, "a thread outside any region");
    cr_expect_eq(outsider.parent_ec, OMP_ERRCODE_THREAD_ERR, "a non-OpenMP thread");

    bridge_on_implicit_task(ompt_scope_end, NULL, &task, 2, 0, ompt_task_implicit);
    bridge_on_parallel_end(&inner, &task, ompt_parallel_team, on_event);
    struct buffer after = {.used = 0};
    cur = add(&after, OMP_REQ_CURRENT_PRID, 8);
    cr_assert_eq(__omp_collector_api(after.words), 0);
    cr_expect_eq(u64(&after, cur), outer_id, "back in the outer region");
}

/* ---- malformed buffers: never a crash, -1, the rest ignored ---- */

Test(collector, malformed_buffers)
{
    cr_expect_eq(__omp_collector_api(NULL), -1);
    struct buffer b = {.used = 0};
    add(&b, OMP_REQ_START, 0);
    cr_expect_eq(__omp_collector_api((char *)b.words + 2), -1, "misaligned");
    cr_expect_eq(b.words[2], -1, "nothing processed");

    struct buffer odd = {.used = 0};
    size_t first = add(&odd, OMP_REQ_START, 0), bad = add(&odd, OMP_REQ_STATE, 12),
           later = add(&odd, OMP_REQ_STOP, 0);
    odd.words[bad] = 18; /* not a multiple of 4 */
    cr_expect_eq(__omp_collector_api(odd.words), -1);
    cr_expect_eq(ec(&odd, first), OMP_ERRCODE_OK, "entries before the bad one are processed");
    cr_expect_eq(ec(&odd, bad), -1, "the bad entry is not");
    cr_expect_eq(ec(&odd, later), -1, "nor anything after it");

    struct buffer tiny = {.used = 0};
    size_t t = add(&tiny, OMP_REQ_STATE, 0);
    tiny.words[t] = 8; /* below the 16-byte header */
    cr_expect_eq(__omp_collector_api(tiny.words), -1);
    tiny.words[t] = -16;
    cr_expect_eq(__omp_collector_api(tiny.words), -1, "a negative size");
    tiny.words[t] = 1 << 28;
    cr_expect_eq(__omp_collector_api(tiny.words), -1, "a size beyond any request");
    cr_expect_eq(ec(&tiny, t), -1);
}
