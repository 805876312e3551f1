/* The OMPT bridge without a runtime: its callbacks are called in the orders
 * libomp 19 calls them (a worker's closing barrier ends late, when its team is
 * next forked), with POMP instrumentation around them or without; and the
 * profile's team shares merged under their fork points at any nesting depth. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pomplib.h>

#include "bridge_callbacks.h"
#include "bridge_regions.h"
#include "bridge_thread.h"
#include "ctc.h"
#include "pomp_eventlog.h"
#include "pomp_merge.h"
#include "pomp_profile.h"
#include "pomp_region.h"
#include "pomp_thread.h"

static void setup(void)
{
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-unit-test-output", 1);
    setenv("POMP_SUMMARY", "off", 1);
    setenv("POMP_TRACE", "events", 1);
}

TestSuite(bridge, .init = setup);
TestSuite(team_merge, .init = setup);

static char *ctc_for(const char *type, int line)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", type);
    ctc_builder_add(&b, "file", "t.c");
    ctc_builder_add_lines(&b, "slines", line, line);
    return ctc_builder_finish(&b);
}

static POMP_Handle_t handle_for(const char *type, int line)
{
    POMP_Handle_t h = NULL;
    char *c = ctc_for(type, line);
    cr_assert_eq(POMP_Get_handle(&h, c), POMP_SUCCESS);
    free(c);
    return h;
}

/* The code addresses the runtime would pass: any distinct addresses will do. */
static const char fork_site[1], critical_site[1], lock_site[1], loop_site[1];

/* ---- a team of two: the worker's closing barrier ends at the master's join ---- */

struct team_run {
    int instrumented;
    POMP_Handle_t par;
    ompt_data_t parallel_data;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int worker_arrived, master_joined;
    struct pomp_thread *worker;
};

static void wait_for(struct team_run *run, int *flag)
{
    pthread_mutex_lock(&run->lock);
    while (!*flag)
        pthread_cond_wait(&run->cond, &run->lock);
    pthread_mutex_unlock(&run->lock);
}

static void raise_flag(struct team_run *run, int *flag)
{
    pthread_mutex_lock(&run->lock);
    *flag = 1;
    pthread_cond_broadcast(&run->cond);
    pthread_mutex_unlock(&run->lock);
}

static void *worker(void *arg)
{
    struct team_run *run = arg;
    ompt_data_t task = {0};
    bridge_on_thread_begin(ompt_thread_worker, &(ompt_data_t){0});
    bridge_on_implicit_task(ompt_scope_begin, &run->parallel_data, &task, 2, 1, ompt_task_implicit);
    if (run->instrumented) {
        POMP_Parallel_begin(run->par, 1);
        POMP_Parallel_end(run->par, 1);
    }
    bridge_on_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin,
                          &run->parallel_data, &task, NULL);
    raise_flag(run, &run->worker_arrived);
    wait_for(run, &run->master_joined);
    usleep(20000); /* libomp reports the end only when the worker is next put to work */
    bridge_on_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL, &task,
                          NULL);
    bridge_on_implicit_task(ompt_scope_end, NULL, &task, 0, 1, ompt_task_implicit);
    run->worker = pomp_tls_thread;
    return NULL;
}

static void run_team(struct team_run *run)
{
    pthread_mutex_init(&run->lock, NULL);
    pthread_cond_init(&run->cond, NULL);
    ompt_data_t task = {0};
    POMP_Init();
    bridge_on_thread_begin(ompt_thread_initial, &(ompt_data_t){0});
    if (run->instrumented) {
        run->par = handle_for("parallel", 3);
        POMP_Parallel_enter(&run->par, 0, 2, 1, NULL);
    }
    bridge_on_parallel_begin(NULL, NULL, &run->parallel_data, 2, ompt_parallel_team, fork_site);
    cr_assert_not_null(run->parallel_data.ptr, "the team record travels in parallel_data");
    bridge_on_implicit_task(ompt_scope_begin, &run->parallel_data, &task, 2, 0, ompt_task_implicit);
    if (run->instrumented)
        POMP_Parallel_begin(run->par, 0);
    pthread_t th;
    pthread_create(&th, NULL, worker, run);
    if (run->instrumented)
        POMP_Parallel_end(run->par, 0);
    wait_for(run, &run->worker_arrived);
    bridge_on_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin,
                          &run->parallel_data, &task, fork_site);
    usleep(5000);
    bridge_on_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL, &task,
                          fork_site);
    raise_flag(run, &run->master_joined);
    bridge_on_implicit_task(ompt_scope_end, NULL, &task, 2, 0, ompt_task_implicit);
    bridge_on_parallel_end(&run->parallel_data, &task, ompt_parallel_team, fork_site);
    if (run->instrumented)
        POMP_Parallel_exit(run->par, 0);
    pthread_join(th, NULL);
}

/* The events of a thread's log, names separated by spaces. */
static void sequence(const struct pomp_thread *t, char *out, size_t size)
{
    out[0] = '\0';
    for (uint32_t i = 0; i < t->log.used; i++) {
        strncat(out, pomp_event_name((enum pomp_event_kind)t->log.buf[i].kind),
                size - strlen(out) - 2);
        strcat(out, " ");
    }
}

static uint64_t time_of(const struct pomp_thread *t, enum pomp_event_kind kind)
{
    for (uint32_t i = 0; i < t->log.used; i++)
        if (t->log.buf[i].kind == kind)
            return t->log.buf[i].time;
    cr_assert_fail("no %s event", pomp_event_name(kind));
    return 0;
}

static void check_team(const struct team_run *run)
{
    const struct pomp_thread *master = pomp_tls_thread, *w = run->worker;
    char seq[1024];
    sequence(master, seq, sizeof seq);
    cr_expect_str_eq(seq, "Parallel_enter Parallel_begin Parallel_end Implicit_barrier_enter "
                          "Implicit_barrier_exit Parallel_exit ");
    sequence(w, seq, sizeof seq);
    cr_expect_str_eq(seq, "Parallel_begin Parallel_end Implicit_barrier_enter "
                          "Implicit_barrier_exit ",
                     "the worker's share is counted once: %s", seq);
    cr_expect_eq(time_of(w, POMP_EV_IMPLICIT_BARRIER_EXIT),
                 time_of(master, POMP_EV_IMPLICIT_BARRIER_EXIT),
                 "the worker's barrier ends when the master leaves it, not when reported");
    cr_expect_eq(master->profile.nesting_errors + w->profile.nesting_errors, 0);

    struct pomp_merged m;
    cr_assert_eq(pomp_merge(&m), 0);
    cr_assert_eq(m.count, 3, "root, the parallel region, its implicit barrier");
    cr_expect_str_eq(m.nodes[1].region->type, "parallel");
    cr_expect_str_eq(m.nodes[2].region->type, "implicit_barrier");
    cr_expect_eq(m.nodes[2].parent, 1);
    uint32_t wi = w->index, mi = master->index;
    cr_expect_eq(pomp_merged_stat(&m, 1, mi)->visits, 1);
    cr_expect_eq(pomp_merged_stat(&m, 1, mi)->begins, 1);
    cr_expect_eq(pomp_merged_stat(&m, 1, wi)->visits, 0);
    cr_expect_eq(pomp_merged_stat(&m, 1, wi)->begins, 1, "one begin for the worker's share");
    cr_expect_eq(pomp_merged_stat(&m, 2, wi)->visits, 1);
    /* the worker waited from its arrival until the master's join (5 ms), not
     * until the late report 20 ms after it */
    cr_expect_lt(pomp_merged_stat(&m, 2, wi)->incl, pomp_merged_stat(&m, 1, mi)->incl);
    pomp_merged_free(&m);
}

Test(bridge, instrumented_team_is_counted_once)
{
    struct team_run run = {.instrumented = 1};
    run_team(&run);
    check_team(&run);
    cr_expect_eq(run.par->init_kind, POMP_INIT_HANDLE, "POMP's region, not a second one");
}

Test(bridge, uninstrumented_team_gets_a_region_of_its_code_address)
{
    struct team_run run = {.instrumented = 0};
    run_team(&run);
    check_team(&run);
    const struct POMP_Region_s *r = ((struct bridge_team *)run.parallel_data.ptr)->region;
    cr_assert_not_null(r);
    cr_expect_eq(r->init_kind, POMP_INIT_OMPT);
    cr_expect_str_eq(pomp_region_type(r), "parallel");
    cr_expect_not_null(ctc_get(&r->ctc, "codeptr"), "named by its code address after the run");
}

/* ---- mutexes: the wait under the region the thread is in ---- */

static struct pomp_node *child_of_type(struct pomp_node *parent, const char *type,
                                       const char *name)
{
    for (struct pomp_node *c = parent->first_child; c; c = c->next_sibling)
        if (c->region && strcmp(pomp_region_type(c->region), type) == 0 &&
            (!name || (c->region->ctc.name && strcmp(c->region->ctc.name, name) == 0)))
            return c;
    return NULL;
}

Test(bridge, critical_wait_is_under_the_instrumented_critical)
{
    POMP_Init();
    POMP_Handle_t crit = handle_for("critical", 7);
    POMP_Critical_enter(&crit, 0, NULL);
    bridge_on_mutex_acquire(ompt_mutex_critical, 0, 0, 42, critical_site);
    bridge_on_mutex_acquired(ompt_mutex_critical, 42, critical_site);
    POMP_Critical_begin(crit, 0);
    POMP_Critical_end(crit, 0);
    bridge_on_mutex_released(ompt_mutex_critical, 42, critical_site);
    POMP_Critical_exit(crit, 0);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    struct pomp_node *c = child_of_type(&p->root, "critical", NULL);
    cr_assert_not_null(c);
    cr_expect_eq(c->region, crit, "no second critical region");
    cr_expect_eq(c->visits, 1);
    cr_expect_eq(c->begins, 1);
    struct pomp_node *w = child_of_type(c, "wait", "critical");
    cr_assert_not_null(w, "the wait to enter is a child of the critical region");
    cr_expect_eq(w->visits, 1);
    cr_expect_null(child_of_type(&p->root, "wait", NULL), "nothing beside the critical region");
    cr_expect_eq(p->nesting_errors, 0);
}

Test(bridge, uninstrumented_critical_and_lock)
{
    POMP_Init();
    bridge_on_mutex_acquire(ompt_mutex_critical, 0, 0, 42, critical_site);
    bridge_on_mutex_acquired(ompt_mutex_critical, 42, critical_site);
    bridge_on_mutex_acquire(ompt_mutex_lock, 0, 0, 43, lock_site);
    bridge_on_mutex_acquired(ompt_mutex_lock, 43, lock_site);
    bridge_on_mutex_released(ompt_mutex_lock, 43, lock_site);
    bridge_on_mutex_acquire(ompt_mutex_test_lock, 0, 0, 43, lock_site); /* fails: no acquired */
    bridge_on_mutex_released(ompt_mutex_critical, 42, critical_site);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    struct pomp_node *c = child_of_type(&p->root, "critical", NULL);
    cr_assert_not_null(c, "the bridge opened the critical region");
    cr_expect_eq(c->region->init_kind, POMP_INIT_OMPT);
    cr_expect_eq(c->visits, 1);
    cr_expect_eq(c->begins, 1);
    cr_expect_not_null(child_of_type(c, "wait", "critical"));
    cr_expect_not_null(child_of_type(c, "wait", "lock"), "a lock set inside the critical region");
    cr_expect_eq(p->depth, 1, "every frame closed");
    cr_expect_eq(p->nesting_errors, 0);
}

/* ---- chunks of a dynamic loop: one begin of the loop's region each ---- */

static void run_loop(POMP_Handle_t *loop)
{
    ompt_data_t none = {0};
    if (loop)
        POMP_Loop_enter(loop, 0, -1, 0, 0, 0, NULL);
    bridge_on_work(ompt_work_loop_dynamic, ompt_scope_begin, &none, &none, 5, loop_site);
    for (int i = 0; i < 5; i++)
        bridge_on_dispatch(&none, &none, ompt_dispatch_ws_loop_chunk, none);
    bridge_on_work(ompt_work_loop_dynamic, ompt_scope_end, &none, &none, 0, loop_site);
    if (loop)
        POMP_Loop_exit(*loop, 0);
}

Test(bridge, chunks_of_an_instrumented_loop)
{
    setenv("POMP_LOOP", "Chunks", 1);
    POMP_Init();
    POMP_Handle_t loop = handle_for("for", 9);
    run_loop(&loop);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    struct pomp_node *n = child_of_type(&p->root, "for", NULL);
    cr_assert_not_null(n);
    cr_expect_eq(n->region, loop, "the chunks begin POMP's loop region");
    cr_expect_eq(n->visits, 1);
    cr_expect_eq(n->begins, 5, "one begin per chunk");
    cr_expect_null(n->next_sibling, "no second loop region");
    cr_expect_eq(p->nesting_errors, 0);
}

Test(bridge, chunks_of_an_uninstrumented_loop_and_levels)
{
    setenv("POMP_LOOP", "Chunks", 1);
    POMP_Init();
    run_loop(NULL);
    struct pomp_node *n = child_of_type(&pomp_tls_thread->profile.root, "for", NULL);
    cr_assert_not_null(n);
    cr_expect_eq(n->region->init_kind, POMP_INIT_OMPT);
    cr_expect_eq(n->visits, 1);
    cr_expect_eq(n->begins, 5);
}

Test(bridge, no_chunks_at_enterexit)
{
    POMP_Init(); /* POMP_LOOP=EnterExit, the default */
    run_loop(NULL);
    struct pomp_node *n = child_of_type(&pomp_tls_thread->profile.root, "for", NULL);
    cr_assert_not_null(n);
    cr_expect_eq(n->begins, 0);
}

Test(bridge, group_none_records_nothing)
{
    setenv("POMP_SYNC", "none", 1);
    setenv("POMP_RUNTIME", "none", 1);
    POMP_Init();
    bridge_on_mutex_acquire(ompt_mutex_critical, 0, 0, 42, critical_site);
    bridge_on_mutex_acquired(ompt_mutex_critical, 42, critical_site);
    bridge_on_mutex_released(ompt_mutex_critical, 42, critical_site);
    cr_expect_null(pomp_tls_thread ? pomp_tls_thread->profile.root.first_child : NULL);
}

/* ---- regions by code address ---- */

Test(bridge, one_region_per_construct_and_address)
{
    POMP_Init();
    struct POMP_Region_s *a = bridge_region(BC_PARALLEL, fork_site);
    cr_assert_not_null(a);
    cr_expect_eq(bridge_region(BC_PARALLEL, fork_site), a);
    cr_expect_neq(bridge_region(BC_FOR, fork_site), a, "another construct at the same address");
    cr_expect_neq(bridge_region(BC_PARALLEL, loop_site), a);
    struct POMP_Region_s *none = bridge_region(BC_IMPLICIT_BARRIER_PARALLEL, NULL);
    cr_assert_not_null(none);
    cr_expect_null(ctc_get(&none->ctc, "codeptr"));
    cr_expect_str_eq(none->ctc.name, "parallel");
}

/* ---- nested teams: each share merges under its own fork point ---- */

static struct pomp_thread *registered;
static void *register_thread(void *arg)
{
    registered = pomp_thread_self(*(int *)arg, NULL);
    return NULL;
}
static struct pomp_thread *new_thread(int num)
{
    pthread_t th;
    pthread_create(&th, NULL, register_thread, &num);
    pthread_join(th, NULL);
    return registered;
}

Test(team_merge, nested_shares_keep_their_fork_points)
{
    POMP_Init();
    POMP_Handle_t outer = handle_for("parallel", 1), inner = handle_for("parallel", 2),
                  other = handle_for("parallel", 3);
    /* registered innermost first, so the merge must take rounds */
    struct pomp_thread *b = new_thread(1), *a = new_thread(1), *m = new_thread(0);
    pomp_profile_enter(&m->profile, outer, 0, 0);
    pomp_profile_enter(&m->profile, other, 1, 0); /* the same inner region forked elsewhere too */
    pomp_profile_enter(&m->profile, inner, 2, 0);
    pomp_profile_exit(&m->profile, inner, 3);
    pomp_profile_exit(&m->profile, other, 4);
    struct pomp_node *m_outer = m->profile.frames[m->profile.depth - 1].node;
    cr_assert_eq(pomp_profile_team_begin(&a->profile, outer, m_outer, 5, 0), POMP_SUCCESS);
    pomp_profile_enter(&a->profile, inner, 6, 0);
    struct pomp_node *a_inner = a->profile.frames[a->profile.depth - 1].node;
    cr_assert_eq(pomp_profile_team_begin(&b->profile, inner, a_inner, 7, 0), POMP_SUCCESS);
    pomp_profile_exit(&b->profile, inner, 8);
    pomp_profile_exit(&a->profile, inner, 9);
    pomp_profile_exit(&a->profile, outer, 10);
    pomp_profile_exit(&m->profile, outer, 11);

    struct pomp_merged mg;
    cr_assert_eq(pomp_merge(&mg), 0);
    /* root; outer; outer/other; outer/other/inner; outer/inner */
    cr_assert_eq(mg.count, 5);
    size_t outer_i = 0, inner_i = 0;
    for (size_t i = 1; i < mg.count; i++) {
        uint32_t id = mg.nodes[i].region ? mg.nodes[i].region->id : 0;
        if (id == outer->id)
            outer_i = i;
        if (id == inner->id && mg.nodes[i].parent == outer_i && outer_i)
            inner_i = i;
    }
    cr_assert(outer_i && inner_i, "outer/inner exists");
    cr_expect_eq(pomp_merged_stat(&mg, outer_i, a->index)->begins, 1, "A's share under the fork");
    cr_expect_eq(pomp_merged_stat(&mg, inner_i, a->index)->visits, 1, "A forked the inner team");
    cr_expect_eq(pomp_merged_stat(&mg, inner_i, b->index)->begins, 1,
                 "B's share merged where A forked it, not under outer/other/inner");
    for (size_t i = 1; i < mg.count; i++)
        if (i != inner_i)
            cr_expect_eq(pomp_merged_stat(&mg, i, b->index)->begins, 0);
    pomp_merged_free(&mg);
}

/* libomp's pool threads are workers at several nesting levels in turn: P is a
 * worker of the outer team (and forks the inner region there itself), later a
 * worker of M's inner team. P's column of outer/inner then holds its own fork
 * and, grafted, the later share, which is not inside P's time in outer: the
 * merge says how much is grafted (share), so that the two can be told apart. */
Test(team_merge, a_share_grafted_beside_the_threads_own_path_is_counted_as_share)
{
    POMP_Init();
    POMP_Handle_t outer = handle_for("parallel", 1), inner = handle_for("parallel", 2);
    struct pomp_thread *m = new_thread(0), *p = new_thread(1);
    pomp_profile_enter(&m->profile, outer, 0, 0);
    struct pomp_node *m_outer = m->profile.frames[m->profile.depth - 1].node;
    cr_assert_eq(pomp_profile_team_begin(&p->profile, outer, m_outer, 2, 0), POMP_SUCCESS);
    pomp_profile_enter(&p->profile, inner, 3, 0);
    pomp_profile_exit(&p->profile, inner, 4);
    pomp_profile_exit(&p->profile, outer, 5); /* P back in the pool */
    pomp_profile_enter(&m->profile, inner, 9, 0);
    struct pomp_node *m_inner = m->profile.frames[m->profile.depth - 1].node;
    cr_assert_eq(pomp_profile_team_begin(&p->profile, inner, m_inner, 10, 0), POMP_SUCCESS);
    pomp_profile_exit(&p->profile, inner, 30);
    pomp_profile_exit(&m->profile, inner, 31);
    pomp_profile_exit(&m->profile, outer, 32);
    cr_assert_eq(p->profile.nesting_errors, 0);

    struct pomp_merged mg;
    cr_assert_eq(pomp_merge(&mg), 0);
    cr_assert_eq(mg.count, 3, "root; outer; outer/inner");
    size_t outer_i = 0, inner_i = 0;
    for (size_t i = 1; i < mg.count; i++)
        *(mg.nodes[i].region->id == outer->id ? &outer_i : &inner_i) = i;
    cr_assert(outer_i && inner_i && mg.nodes[inner_i].parent == outer_i);
    const struct pomp_stat *po = pomp_merged_stat(&mg, outer_i, p->index),
                           *pi = pomp_merged_stat(&mg, inner_i, p->index);
    cr_expect_eq(po->incl, 3);
    cr_expect_eq(po->share, 3, "P's outer share is grafted under M's node");
    cr_expect_eq(pi->visits, 1, "P forked the inner region itself");
    cr_expect_eq(pi->begins, 1, "and was a worker of M's inner team");
    cr_expect_eq(pi->incl, 21);
    cr_expect_eq(pi->share, 20, "of which the grafted share");
    cr_expect_leq(pi->incl - pi->share, po->incl, "P's own path nests in its outer time");
    cr_expect_eq(pomp_merged_stat(&mg, outer_i, m->index)->share, 0, "M's own paths");
    cr_expect_eq(pomp_merged_stat(&mg, inner_i, m->index)->share, 0);
    pomp_merged_free(&mg);
}

Test(team_merge, instrumented_begin_inside_a_team_frame_counts_once)
{
    POMP_Init();
    POMP_Handle_t par = handle_for("parallel", 1);
    struct pomp_thread *m = new_thread(0), *w = new_thread(1);
    pomp_profile_enter(&m->profile, par, 0, 0);
    struct pomp_node *fork = m->profile.frames[1].node;
    pomp_profile_team_begin(&w->profile, par, fork, 1, 0);
    cr_expect_eq(pomp_profile_begin(&w->profile, par, 2, 0, NULL), POMP_SUCCESS);
    cr_expect_eq(pomp_profile_end(&w->profile, par, 5), POMP_SUCCESS);
    cr_expect_eq(w->profile.depth, 2, "the end of the block leaves the share open");
    cr_expect_eq(pomp_profile_exit(&w->profile, par, 9), POMP_SUCCESS);
    struct pomp_node *n = w->profile.root.first_child;
    cr_assert_not_null(n);
    cr_expect_eq(n->fork, fork);
    cr_expect_eq(n->begins, 1);
    cr_expect_eq(n->visits, 0);
    cr_expect_eq(n->body, 3);
    cr_expect_eq(n->incl, 8);
    cr_expect_eq(w->profile.nesting_errors, 0);
}

/* ---- masked: the runtime reports it before POMP_Master_begin runs ---- */

static const char masked_site[1], task_site[1], inner_task_site[1], taskwait_site[1];

Test(bridge, masked_taken_over_by_the_instrumentation)
{
    POMP_Init();
    ompt_data_t none = {0};
    POMP_Handle_t master = NULL;
    char *c = ctc_for("master", 11);
    bridge_on_masked(ompt_scope_begin, &none, &none, masked_site);
    POMP_Master_begin(&master, 0, c);
    POMP_Master_end(master, 0);
    bridge_on_masked(ompt_scope_end, &none, &none, masked_site);
    free(c);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    struct pomp_node *n = p->root.first_child;
    cr_assert_not_null(n);
    cr_expect_eq(n->region, master, "POMP's region");
    cr_expect_eq(n->begins, 1);
    cr_expect_null(n->next_sibling, "no node of the runtime's masked region");
    cr_expect_null(n->first_child);
    cr_expect_eq(p->depth, 1);
    cr_expect_eq(p->nesting_errors, 0);
    char seq[256];
    sequence(pomp_tls_thread, seq, sizeof seq);
    /* the runtime's block ends where POMP's begins: its begin alone stayed open
     * in the trace to the team's end, every later construct drawn inside it */
    cr_expect_str_eq(seq, "Master_begin Master_end Master_begin Master_end ",
                     "the runtime's begin, closed at POMP's begin, then POMP's block");
}

Test(bridge, masked_without_instrumentation)
{
    POMP_Init();
    ompt_data_t none = {0};
    bridge_on_masked(ompt_scope_begin, &none, &none, masked_site);
    bridge_on_masked(ompt_scope_end, &none, &none, masked_site);
    struct pomp_node *n = pomp_tls_thread->profile.root.first_child;
    cr_assert_not_null(n);
    cr_expect_str_eq(pomp_region_type(n->region), "masked");
    cr_expect_eq(n->begins, 1);
    cr_expect_eq(pomp_tls_thread->profile.depth, 1);
}

/* ---- tasks ---- */

Test(bridge, task_suspended_in_a_taskwait_keeps_its_frame)
{
    POMP_Init();
    ompt_data_t implicit = {0}, a = {0}, b = {0};
    bridge_on_task_create(&implicit, NULL, &a, ompt_task_explicit, 0, task_site);
    bridge_on_task_schedule(&implicit, ompt_task_switch, &a);       /* a starts */
    bridge_on_task_create(&a, NULL, &b, ompt_task_explicit, 0, inner_task_site);
    bridge_on_sync_region(ompt_sync_region_taskwait, ompt_scope_begin, NULL, &a, taskwait_site);
    bridge_on_task_schedule(&a, ompt_task_switch, &b);              /* b runs inside a's taskwait */
    bridge_on_task_schedule(&b, ompt_task_complete, &a);            /* a resumes */
    bridge_on_sync_region(ompt_sync_region_taskwait, ompt_scope_end, NULL, &a, taskwait_site);
    bridge_on_task_schedule(&a, ompt_task_complete, &implicit);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    cr_expect_eq(p->depth, 1, "every frame closed");
    cr_expect_eq(p->nesting_errors, 0);
    /* a's and b's executions are task roots of their own sites */
    struct pomp_node *ta = NULL, *tb = NULL;
    for (struct pomp_node *c = p->root.first_child; c; c = c->next_sibling)
        if (c->task_root && c->begins && child_of_type(c, "taskwait", NULL))
            ta = c;
        else if (c->task_root)
            tb = c;
    cr_assert_not_null(ta);
    cr_expect_eq(ta->begins, 1, "a ran once (its resumption is no second begin)");
    struct pomp_node *tw = child_of_type(ta, "taskwait", NULL);
    cr_assert_not_null(tw, "a's taskwait");
    cr_expect_null(child_of_type(tw, "task", NULL), "b's execution is not a's wait");
    cr_assert_not_null(tb, "b ran inside a's taskwait, as a task root");
    cr_expect_eq(tb->begins, 1);
    cr_expect_eq(tw->excl, tw->incl, "b's time is neither a's wait nor inside it (a task switch)");
    cr_expect_not_null(child_of_type(&p->root, "task_create", NULL), "a's creation");
    cr_expect_not_null(child_of_type(ta, "task_create", NULL), "b's creation, inside a");
}

Test(bridge, instrumented_task_is_measured_by_pomp_only)
{
    POMP_Init();
    ompt_data_t implicit = {0}, a = {0};
    POMP_Handle_t task = handle_for("task", 13);
    struct pomp_profile *p = &pomp_thread_self(0, NULL)->profile;
    pomp_profile_enter(p, task, 1, 0); /* POMP_Task_enter, as the instrumenter emits it */
    bridge_on_task_create(&implicit, NULL, &a, ompt_task_explicit, 0, task_site);
    pomp_profile_exit(p, task, 2);
    bridge_on_task_schedule(&implicit, ompt_task_switch, &a);
    pomp_profile_begin(p, task, 3, 0, NULL); /* POMP_Task_begin/end in the body */
    pomp_profile_end(p, task, 4);
    bridge_on_task_schedule(&a, ompt_task_complete, &implicit);
    /* POMP's creation node and POMP's task root of the same region, nothing of the runtime's */
    int nodes = 0;
    for (struct pomp_node *n = p->root.first_child; n; n = n->next_sibling, nodes++) {
        cr_expect_eq(n->region, task, "no task or task_create node of the runtime's");
        cr_expect_null(n->first_child);
        cr_expect_eq(n->task_root ? n->begins : n->visits, 1);
    }
    cr_expect_eq(nodes, 2, "the creation and the task root");
    cr_expect_eq(p->nesting_errors, 0);
}

/* ---- untied tasks that go on elsewhere (libomp's order for Clang's code) ---- */

/* Clang's code of an untied task re-queues the task at each scheduling point
 * in its body (and at its start); libomp ends that part by switching back to
 * the task it interrupted, and any thread may run the next part. */
struct untied_run {
    ompt_data_t *task, *implicit;
    POMP_Handle_t region;
    struct pomp_node *root; /* the thread's task root of the region */
    uint64_t depth, nesting_errors;
};

static struct pomp_node *task_root_of(struct pomp_profile *p, POMP_Handle_t r)
{
    for (struct pomp_node *c = p->root.first_child; c; c = c->next_sibling)
        if (c->task_root && c->region == r)
            return c;
    return NULL;
}

static void untied_run_done(struct untied_run *run)
{
    struct pomp_profile *p = &pomp_thread_self(0, NULL)->profile;
    run->root = task_root_of(p, run->region);
    run->depth = p->depth;
    run->nesting_errors = p->nesting_errors;
}

/* The middle part, on another thread: it waits for a child in a taskwait,
 * then ends its part. */
static void *untied_middle_part(void *arg)
{
    struct untied_run *run = arg;
    ompt_data_t child = {0};
    bridge_on_task_schedule(run->implicit, ompt_task_switch, run->task);
    bridge_on_sync_region(ompt_sync_region_taskwait, ompt_scope_begin, NULL, run->task,
                          taskwait_site);
    bridge_on_task_schedule(run->task, ompt_task_switch, &child); /* a task run while waiting */
    bridge_on_task_schedule(&child, ompt_task_complete, run->task);
    bridge_on_sync_region(ompt_sync_region_taskwait, ompt_scope_end, NULL, run->task,
                          taskwait_site);
    bridge_on_task_schedule(run->task, ompt_task_switch, run->implicit); /* re-queued */
    untied_run_done(run);
    return NULL;
}

/* One execution in three parts: an empty first part on this thread (Clang's
 * re-queue at the start), the part up to its taskwait on another thread, the
 * rest here. */
static void run_untied(struct untied_run *run, ompt_data_t *implicit)
{
    bridge_on_task_schedule(implicit, ompt_task_switch, run->task);
    bridge_on_task_schedule(run->task, ompt_task_switch, implicit);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, untied_middle_part, run), 0);
    pthread_join(t, NULL);
    bridge_on_task_schedule(implicit, ompt_task_switch, run->task);
    bridge_on_task_schedule(run->task, ompt_task_complete, implicit);
}

static void expect_parts_counted_once(const struct untied_run *other, POMP_Handle_t region)
{
    struct pomp_profile *p = &pomp_tls_thread->profile;
    struct pomp_node *root = task_root_of(p, region);
    cr_assert_not_null(root, "the first and last parts, on this thread");
    cr_assert_not_null(other->root, "the middle part, on the other thread");
    cr_expect_eq(root->begins + other->root->begins, 1, "one execution, one begin");
    struct pomp_stat middle = {.begins = other->root->begins, .incl = other->root->incl};
    cr_expect(pomp_stat_recorded(&middle),
              "the thread that ran only a later part was in the task root: profile.json says so");
    cr_expect_eq(p->depth, 1, "no frame left open here");
    cr_expect_eq(other->depth, 1, "nor on the other thread");
    cr_expect_eq(p->nesting_errors + other->nesting_errors, 0);
    cr_expect_not_null(child_of_type(other->root, "taskwait", NULL),
                       "the taskwait in the part that waited");
}

Test(bridge, untied_task_without_body_events_is_measured_by_the_bridge)
{
    POMP_Init();
    ompt_data_t implicit = {0}, a = {0};
    char *c = ctc_for("task", 31);
    struct ctc_builder b;
    cr_assert_eq(ctc_builder_init_from(&b, c), 0);
    ctc_builder_add(&b, "bodyEvents", "none");
    char *untied = ctc_builder_finish(&b);
    POMP_Handle_t task = NULL;
    cr_assert_eq(POMP_Get_handle(&task, untied), POMP_SUCCESS);
    free(c);
    free(untied);
    struct pomp_profile *p = &pomp_thread_self(0, NULL)->profile;
    pomp_profile_enter(p, task, 1, 0); /* POMP_Task_enter; the body has no begin/end */
    bridge_on_unreported_task_create(&implicit, NULL, &a, ompt_task_explicit, 0, task_site);
    pomp_profile_exit(p, task, 2);
    struct untied_run other = {.task = &a, .implicit = &implicit, .region = task};
    run_untied(&other, &implicit);
    expect_parts_counted_once(&other, task);
    struct pomp_node *created = NULL;
    for (struct pomp_node *n = p->root.first_child; n; n = n->next_sibling) {
        cr_expect_eq(n->region, task, "POMP's region: no task or task_create node of the runtime's");
        if (!n->task_root)
            created = n;
    }
    cr_assert_not_null(created);
    cr_expect_eq(created->visits, 1, "POMP's creation");
}

Test(bridge, untied_task_of_uninstrumented_code_counts_once)
{
    POMP_Init();
    ompt_data_t implicit = {0}, a = {0};
    bridge_on_task_create(&implicit, NULL, &a, ompt_task_explicit, 0, task_site);
    struct untied_run other = {.task = &a, .implicit = &implicit,
                               .region = bridge_region(BC_TASK, task_site)};
    run_untied(&other, &implicit);
    expect_parts_counted_once(&other, other.region);
}

/* An included untied task (a final task's child): libomp runs each next part
 * at once, inside the part that re-queued the task, from the task itself. */
Test(bridge, untied_task_run_at_once_goes_on_from_itself)
{
    POMP_Init();
    ompt_data_t implicit = {0}, a = {0};
    bridge_on_task_create(&implicit, NULL, &a, ompt_task_explicit, 0, task_site);
    bridge_on_task_schedule(&implicit, ompt_task_switch, &a);
    bridge_on_task_schedule(&a, ompt_task_switch, &implicit); /* first part ends */
    bridge_on_task_schedule(&a, ompt_task_switch, &a);        /* the next, at once */
    bridge_on_task_schedule(&a, ompt_task_switch, &a);        /* and one more */
    bridge_on_task_schedule(&a, ompt_task_complete, &implicit);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    struct pomp_node *root = task_root_of(p, bridge_region(BC_TASK, task_site));
    cr_assert_not_null(root);
    cr_expect_eq(root->begins, 1);
    cr_expect_eq(p->depth, 1);
    cr_expect_eq(p->nesting_errors, 0);
}

Test(bridge, cancel_in_instrumented_code_is_pomps)
{
    POMP_Init();
    ompt_data_t none = {0};
    POMP_Handle_t par = handle_for("parallel", 20);
    POMP_Parallel_enter(&par, 0, 1, 1, NULL);
    POMP_Parallel_begin(par, 0);
    bridge_on_cancel(&none, ompt_cancel_parallel | ompt_cancel_activated, task_site);
    bridge_on_cancel(&none, ompt_cancel_parallel | ompt_cancel_detected, task_site);
    POMP_Parallel_end(par, 0);
    POMP_Parallel_exit(par, 0);
    struct pomp_node *n = pomp_tls_thread->profile.root.first_child;
    cr_expect_null(child_of_type(n, "cancel", "activated"), "POMP_Cancel_event's");
    cr_expect_not_null(child_of_type(n, "cancel", "detected"), "only the runtime knows");
}

/* libomp gives the end of an untied task's last part to the thread of the
 * part before where that one's own end comes later (both count the task's
 * parts down, and the one counting last reports it): the thread that ran the
 * last part gets no event, its frame stayed open, and the taskwait it ran in
 * did not match its end (a probe: 5-9 unmatched events in 2 runs of 150). The
 * frame closes at the thread's next event, which reports the task it
 * interrupted running again. */
static void *untied_part_before(void *arg)
{
    ompt_data_t *a = arg, implicit = {0};
    bridge_on_task_schedule(&implicit, ompt_task_switch, a);
    bridge_on_task_schedule(a, ompt_task_switch, &implicit); /* re-queued: its part goes on */
    return NULL;
}

static void *untied_late_completion(void *arg)
{
    ompt_data_t *a = arg, implicit = {0};
    bridge_on_task_schedule(a, ompt_task_complete, &implicit); /* the part before, counting last */
    struct pomp_thread *t = pomp_thread_self(0, NULL);
    cr_expect_eq(t->profile.depth, 1, "nothing opened or closed here");
    cr_expect_eq(t->profile.nesting_errors, 0);
    return NULL;
}

Test(bridge, untied_last_part_ended_by_the_part_before)
{
    POMP_Init();
    ompt_data_t implicit = {0}, a = {0}, b = {0};
    bridge_on_task_create(&implicit, NULL, &a, ompt_task_explicit | ompt_task_untied, 0, task_site);
    bridge_on_task_create(&implicit, NULL, &b, ompt_task_explicit, 0, inner_task_site);
    bridge_on_sync_region(ompt_sync_region_taskwait, ompt_scope_begin, NULL, &implicit,
                          taskwait_site);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, untied_part_before, &a), 0);
    pthread_join(t, NULL);
    bridge_on_task_schedule(&implicit, ompt_task_switch, &a); /* the last part, here: no end */
    bridge_on_task_schedule(&implicit, ompt_task_switch, &b); /* the taskwait runs b next */
    bridge_on_task_schedule(&b, ompt_task_complete, &implicit);
    bridge_on_sync_region(ompt_sync_region_taskwait, ompt_scope_end, NULL, &implicit,
                          taskwait_site);
    cr_assert_eq(pthread_create(&t, NULL, untied_late_completion, &a), 0);
    pthread_join(t, NULL);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    cr_expect_eq(p->depth, 1, "every frame closed: a's last part, b's, the taskwait");
    cr_expect_eq(p->nesting_errors, 0);
    struct pomp_node *tw = child_of_type(&p->root, "taskwait", NULL);
    cr_assert_not_null(tw, "the taskwait");
    cr_expect_eq(tw->visits, 1);
    cr_expect_null(child_of_type(tw, "taskwait", NULL), "no taskwait inside it");
    struct pomp_node *ta = task_root_of(p, bridge_region(BC_TASK, task_site));
    struct pomp_node *tb = task_root_of(p, bridge_region(BC_TASK, inner_task_site));
    cr_assert_not_null(ta, "a's last part, a task root here");
    cr_assert_not_null(tb, "b, a task root beside it");
    cr_expect_null(child_of_type(ta, "task", NULL), "b did not run inside a's part");
}
