/* libpomp: the per-thread profile with synthetic timestamps, handle
 * initialization (lazy, concurrent, malformed CTC), and the merge of threads. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pomplib.h>

#include "pomp_merge.h"
#include "pomp_profile.h"
#include "pomp_region.h"
#include "pomp_thread.h"
#include "ctc.h"
#include "pomp_eventlog.h"

/* A CTC string built by the library under test, so its length field is right. */
static char *ctc_for(const char *type, const char *file, int line)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", type);
    ctc_builder_add(&b, "file", file);
    ctc_builder_add_lines(&b, "slines", line, line);
    return ctc_builder_finish(&b);
}

static void quiet_output(void)
{
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-unit-test-output", 1);
    setenv("POMP_SUMMARY", "off", 1);
}

TestSuite(handles, .init = quiet_output);
TestSuite(merge, .init = quiet_output);

/* Regions for the profile tests: only their addresses matter. */
static struct POMP_Region_s A, B, P, X[3];

/* One profile per test (each test runs in its own process), released at its end. */
static struct pomp_profile *current;
static struct pomp_profile *new_profile(uint32_t nodes)
{
    current = malloc(sizeof *current);
    cr_assert_eq(pomp_profile_init(current, nodes, 0), 0);
    return current;
}
static void free_profile(void)
{
    if (current) {
        pomp_profile_destroy(current);
        free(current);
        current = NULL;
    }
}

TestSuite(profile, .init = quiet_output, .fini = free_profile);

static struct pomp_node *child(struct pomp_node *parent, struct POMP_Region_s *r)
{
    for (struct pomp_node *c = parent->first_child; c; c = c->next_sibling)
        if (c->region == r)
            return c;
    return NULL;
}

/* The task root of task region r (a child of the thread's root), or NULL. */
static struct pomp_node *task_root_node(struct pomp_profile *p, struct POMP_Region_s *r)
{
    struct pomp_node *found = NULL;
    for (struct pomp_node *n = p->root.first_child; n; n = n->next_sibling)
        if (n->region == r && n->task_root)
            found = n;
    return found;
}

Test(profile, inclusive_and_exclusive_time)
{
    struct pomp_profile *p = new_profile(16);
    cr_assert_eq(pomp_profile_enter(p, &A, 0, 0), POMP_SUCCESS);
    cr_assert_eq(pomp_profile_enter(p, &B, 10, 0), POMP_SUCCESS);
    cr_assert_eq(pomp_profile_exit(p, &B, 30), POMP_SUCCESS);
    cr_assert_eq(pomp_profile_enter(p, &B, 40, 0), POMP_SUCCESS);
    cr_assert_eq(pomp_profile_exit(p, &B, 45), POMP_SUCCESS);
    cr_assert_eq(pomp_profile_exit(p, &A, 100), POMP_SUCCESS);
    struct pomp_node *a = child(&p->root, &A), *b = child(a, &B);
    cr_assert_not_null(b);
    cr_assert_eq(a->visits, 1);
    cr_assert_eq(a->incl, 100);
    cr_assert_eq(a->excl, 75);
    cr_assert_eq(b->visits, 2);
    cr_assert_eq(b->incl, 25);
    cr_assert_eq(b->min, 5);
    cr_assert_eq(b->max, 20);
    cr_assert_eq(p->depth, 1);
    cr_assert_eq(p->nesting_errors, 0);
}

Test(profile, begin_after_enter_is_the_same_node)
{
    struct pomp_profile *p = new_profile(16);
    pomp_profile_enter(p, &P, 0, 0);
    pomp_profile_begin(p, &P, 5, 0, NULL);
    cr_assert_eq(p->depth, 2, "begin after enter opens no second frame");
    pomp_profile_end(p, &P, 50);
    pomp_profile_exit(p, &P, 60);
    struct pomp_node *n = child(&p->root, &P);
    cr_assert_eq(n->visits, 1);
    cr_assert_eq(n->begins, 1);
    cr_assert_eq(n->incl, 60);
    cr_assert_eq(n->body, 45);
    cr_assert_null(n->first_child);
}

Test(profile, begin_without_enter_is_a_team_share)
{
    struct pomp_profile *p = new_profile(16);
    pomp_profile_begin(p, &P, 3, 0, NULL);
    pomp_profile_end(p, &P, 10);
    struct pomp_node *n = child(&p->root, &P);
    cr_assert_eq(n->visits, 0);
    cr_assert_eq(n->begins, 1);
    cr_assert_eq(n->incl, 7);
    cr_assert_eq(p->depth, 1);
}

Test(profile, unmatched_events_are_counted_not_fatal)
{
    struct pomp_profile *p = new_profile(16);
    pomp_profile_enter(p, &A, 0, 0);
    pomp_profile_enter(p, &B, 1, 0);
    /* B never exits: A's exit closes it and counts one error */
    cr_assert_eq(pomp_profile_exit(p, &A, 10), POMP_SUCCESS);
    cr_assert_eq(p->nesting_errors, 1);
    cr_assert_eq(p->depth, 1);
    /* an exit of a region that is not open */
    cr_assert_eq(pomp_profile_exit(p, &B, 11), POMP_ERR_NESTING);
    cr_assert_eq(pomp_profile_end(p, &B, 12), POMP_ERR_NESTING);
    cr_assert_eq(p->nesting_errors, 3);
    cr_assert_eq(child(child(&p->root, &A), &B)->incl, 9);
}

Test(profile, full_pool_goes_to_the_overflow_node)
{
    struct pomp_profile *p = new_profile(2);
    for (int i = 0; i < 3; i++) {
        pomp_profile_enter(p, &X[i], (uint64_t)i * 10, 0);
        pomp_profile_exit(p, &X[i], (uint64_t)i * 10 + 4);
    }
    cr_assert_eq(p->nodes_used, 2);
    cr_assert_eq(p->dropped_paths, 1);
    cr_assert_eq(p->overflow.visits, 1);
    cr_assert_eq(p->overflow.incl, 4);
    cr_assert_eq(p->nesting_errors, 0, "exits still match through the frame's region");
}

Test(profile, nesting_deeper_than_recorded)
{
    struct pomp_profile *p = new_profile(4);
    const int extra = 5, max = 3 * POMP_FIRST_DEPTH; /* grown twice, the second time to max */
    pomp_profile_set_max_depth(p, max);
    for (int i = 0; i < max - 1 + extra; i++)
        pomp_profile_enter(p, &A, (uint64_t)i, 0);
    cr_assert_eq(p->depth, max);
    cr_assert_eq(p->frames_cap, max);
    cr_assert_eq(p->too_deep, (uint32_t)extra);
    for (int i = 0; i < max - 1 + extra; i++)
        cr_assert_eq(pomp_profile_exit(p, &A, 1000), POMP_SUCCESS);
    cr_assert_eq(p->depth, 1);
    cr_assert_eq(p->too_deep, 0);
    cr_assert_eq(p->nesting_errors, 0);
    cr_assert_eq(p->deep_events, 2 * extra, "every enter and exit beyond the depth is counted");
}

/* A recursion of tasks deeper than the frames recorded, each waiting for its
 * child in a taskwait counted without a frame (a leaf): the exits of the
 * taskwaits beyond the depth count those down, and everything after the
 * deep part is recorded again (a leaf of the same region open below them was
 * taken for theirs, and the depth never came back: every later event was
 * lost). */
Test(profile, a_task_recursion_past_the_depth_recovers)
{
    static struct POMP_Region_s T = {.task_root = 1};
    static struct POMP_Region_s W = {.a_wait = 1};
    struct pomp_profile *p = new_profile(64);
    pomp_profile_set_max_depth(p, POMP_FIRST_DEPTH);
    const int levels = POMP_FIRST_DEPTH + 10;
    uint64_t t = 0;
    for (int i = 0; i < levels; i++) { /* a task, then its taskwait, in which its child runs */
        pomp_profile_begin(p, &T, t++, 0, NULL);
        if (!pomp_profile_leaf_open(p, &W, t++, 1))
            pomp_profile_enter(p, &W, t++, 0);
    }
    for (int i = 0; i < levels; i++) {
        if (pomp_profile_leaf_is(p, &W))
            pomp_profile_leaf_close(p, &W, t++);
        else
            pomp_profile_exit(p, &W, t++);
        pomp_profile_end(p, &T, t++);
    }
    const int recorded = POMP_FIRST_DEPTH - 1, deep = levels - recorded; /* the root frame */
    cr_assert_eq(p->depth, 1);
    cr_assert_eq(p->too_deep, 0);
    cr_assert_eq(p->nesting_errors, 0);
    cr_assert_eq(p->deep_events, 4 * deep, "a deep level's begin, enter, exit and end");
    pomp_profile_begin(p, &T, t++, 0, NULL); /* recorded again */
    pomp_profile_end(p, &T, t++);
    struct pomp_node *root = task_root_node(p, &T);
    cr_assert_eq(root->begins, recorded + 1);
    cr_assert_eq(child(root, &W)->visits, recorded);
}

/* The store grows chunk by chunk as new paths come, far past its first chunk. */
Test(profile, paths_beyond_the_first_chunk_are_all_kept)
{
    enum { PATHS = 5000 };
    struct POMP_Region_s *r = calloc(PATHS, sizeof *r);
    struct pomp_profile *p = new_profile(1 << 20);
    for (int i = 0; i < PATHS; i++) {
        pomp_profile_enter(p, &r[i], (uint64_t)i * 10, 0);
        pomp_profile_exit(p, &r[i], (uint64_t)i * 10 + 3);
    }
    cr_assert_eq(p->nodes_used, PATHS);
    cr_assert_eq(p->dropped_paths, 0);
    int found = 0;
    for (struct pomp_node *c = p->root.first_child; c; c = c->next_sibling)
        found += c->visits == 1 && c->incl == 3;
    cr_assert_eq(found, PATHS);
    free(r);
}

/* ---- POMP_Off and POMP_On ---- */

Test(profile, regions_open_at_off_still_close)
{
    struct pomp_profile *p = new_profile(16);
    pomp_profile_enter(p, &A, 0, 0);
    /* off from here: B is not opened, A closes as usual */
    cr_assert_eq(pomp_profile_enter(p, &B, 10, 1), POMP_PROFILE_SKIPPED);
    cr_assert_eq(pomp_profile_exit(p, &B, 20), POMP_PROFILE_SKIPPED);
    cr_assert_eq(pomp_profile_exit(p, &A, 30), POMP_SUCCESS);
    struct pomp_node *a = child(&p->root, &A);
    cr_assert_eq(a->visits, 1);
    cr_assert_eq(a->incl, 30);
    cr_assert_eq(a->excl, 30, "a skipped region's time stays with its parent");
    cr_assert_null(a->first_child);
    cr_assert_eq(p->nesting_errors, 0);
    cr_assert_eq(p->depth, 1);
}

Test(profile, regions_opened_while_off_are_skipped_after_on)
{
    struct pomp_profile *p = new_profile(16);
    pomp_profile_enter(p, &A, 0, 1);       /* off */
    pomp_profile_begin(p, &A, 1, 0, NULL);       /* on again: A's own block stays skipped */
    cr_assert_eq(pomp_profile_enter(p, &B, 2, 0), POMP_SUCCESS);
    pomp_profile_exit(p, &B, 5);
    cr_assert_eq(pomp_profile_event(p, &A, 6, 0, 0), POMP_PROFILE_SKIPPED);
    cr_assert_eq(pomp_profile_event(p, &X[0], 6, 0, 0), POMP_SUCCESS);
    cr_assert_eq(pomp_profile_end(p, &A, 7), POMP_PROFILE_SKIPPED);
    cr_assert_eq(pomp_profile_exit(p, &A, 8), POMP_PROFILE_SKIPPED);
    cr_assert_null(child(&p->root, &A));
    struct pomp_node *b = child(&p->root, &B);
    cr_assert_not_null(b, "B, opened after POMP_On, hangs from the nearest recorded ancestor");
    cr_assert_eq(b->incl, 3);
    cr_assert_eq(child(&p->root, &X[0])->visits, 1);
    cr_assert_eq(p->nesting_errors, 0);
    cr_assert_eq(p->depth, 1);
}

Test(profile, single_events_while_off_are_not_counted)
{
    struct pomp_profile *p = new_profile(16);
    cr_assert_eq(pomp_profile_event(p, &A, 0, 1, 0), POMP_PROFILE_SKIPPED);
    cr_assert_null(child(&p->root, &A));
}

/* ---- handles ---- */

enum { THREADS = 8, HANDLES = 64 };
static POMP_Handle_t shared_handles[HANDLES];
static POMP_Handle_t seen[THREADS][HANDLES];
static char ctcs[HANDLES][64];
static pthread_barrier_t start;
static int worker_failures;

static void *enter_all(void *arg)
{
    long t = (long)arg;
    pthread_barrier_wait(&start);
    for (int i = 0; i < HANDLES; i++) {
        int h = (int)((i + t * 7) % HANDLES); /* threads race on different orders */
        /* workers only report; the test thread asserts (Criterion asserts
         * belong on the test's own thread) */
        if (POMP_Critical_enter(&shared_handles[h], (int)t, ctcs[h]) != POMP_SUCCESS ||
            POMP_Critical_exit(shared_handles[h], (int)t) != POMP_SUCCESS)
            __atomic_add_fetch(&worker_failures, 1, __ATOMIC_RELAXED);
        seen[t][h] = shared_handles[h];
    }
    return NULL;
}

Test(handles, concurrent_lazy_initialization_gives_one_region_each)
{
    for (int i = 0; i < HANDLES; i++) {
        char *c = ctc_for("critical", "x.c", i + 1);
        snprintf(ctcs[i], sizeof ctcs[i], "%s", c);
        free(c);
    }
    pthread_barrier_init(&start, NULL, THREADS);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, enter_all, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    cr_assert_eq(worker_failures, 0, "every enter and exit returned POMP_SUCCESS");
    cr_assert_eq(pomp_region_count(), HANDLES);
    for (int i = 0; i < HANDLES; i++) {
        cr_assert_not_null(shared_handles[i]);
        cr_assert_eq(shared_handles[i]->init_kind, POMP_INIT_LAZY);
        cr_assert_eq(shared_handles[i]->ctc_error, CTC_OK, "%s", ctcs[i]);
        for (int t = 0; t < THREADS; t++)
            cr_assert_eq(seen[t][i], shared_handles[i]);
    }
}

/* Every thread's first event arrives while another thread initializes the
 * library: none may be lost (a fresh process per run, many runs). */
static POMP_Handle_t race_handle;
static char race_ctc[64];

static void *first_event(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start);
    POMP_Barrier_enter(&race_handle, 0, race_ctc);
    POMP_Barrier_exit(race_handle, 0);
    return NULL;
}

static int race_runs[40];
ParameterizedTestParameters(handles, no_event_lost_during_initialization)
{
    return cr_make_param_array(int, race_runs, sizeof race_runs / sizeof *race_runs);
}

ParameterizedTest(int *run, handles, no_event_lost_during_initialization)
{
    (void)run;
    quiet_output();
    char *c = ctc_for("barrier", "race.c", 1);
    snprintf(race_ctc, sizeof race_ctc, "%s", c);
    free(c);
    pthread_barrier_init(&start, NULL, THREADS);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, first_event, NULL);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    /* a thread that ended before another's first event may have left its
     * record to it (pomp_thread.c, take_over): the records together stand
     * for every thread, and hold every thread's event */
    uint32_t n, os_threads = 0;
    uint64_t visits = 0;
    struct pomp_thread *list = pomp_thread_list(&n);
    for (struct pomp_thread *t = list; t; t = t->next) {
        os_threads += t->os_threads;
        visits += t->profile.root.first_child ? t->profile.root.first_child->visits : 0;
    }
    cr_assert(n >= 1 && n <= THREADS);
    cr_assert_eq(os_threads, THREADS, "every thread has a record");
    cr_assert_eq(visits, THREADS, "every thread recorded its event");
}

Test(handles, get_handle_keeps_an_initialized_handle)
{
    POMP_Handle_t h = NULL;
    char *a = ctc_for("single", "a.c", 1), *b = ctc_for("single", "b.c", 2);
    cr_assert_eq(POMP_Get_handle(&h, a), POMP_SUCCESS);
    POMP_Handle_t first = h;
    cr_assert_eq(first->init_kind, POMP_INIT_HANDLE);
    cr_assert_eq(POMP_Get_handle(&h, b), POMP_SUCCESS);
    cr_assert_eq(h, first);
    cr_assert_eq(pomp_region_count(), 1);
    free(a);
    free(b);
}

Test(handles, malformed_ctc_still_gives_a_region)
{
    POMP_Handle_t h = NULL;
    cr_assert_eq(POMP_Get_handle(&h, "99*type=for**"), POMP_ERR_BAD_CTC);
    cr_assert_not_null(h);
    cr_assert_str_eq(pomp_region_type(h), "unknown");
    cr_assert_eq(POMP_Loop_exit(h, 0), POMP_ERR_NESTING);
}

Test(handles, missing_context)
{
    POMP_Handle_t h = NULL;
    cr_assert_eq(POMP_Barrier_enter(&h, 0, NULL), POMP_ERR_NO_CONTEXT);
    cr_assert_eq(POMP_Barrier_enter(NULL, 0, "2**"), POMP_ERR_NULL_ARGUMENT);
    cr_assert_eq(POMP_Barrier_exit(NULL, 0), POMP_ERR_NO_CONTEXT);
    cr_assert_eq(POMP_Get_handle(NULL, "2**"), POMP_ERR_NULL_ARGUMENT);
}

Test(handles, on_and_off_through_the_api)
{
    setenv("POMP_TRACE", "events", 1);
    POMP_Handle_t a = NULL, b = NULL;
    char *ca = ctc_for("critical", "a.c", 1), *cb = ctc_for("single", "b.c", 2);
    cr_assert_eq(POMP_Critical_enter(&a, 0, ca), POMP_SUCCESS);
    cr_assert_eq(POMP_Off(), POMP_SUCCESS);
    cr_assert_eq(POMP_Single_enter(&b, 0, cb), POMP_SUCCESS);
    cr_assert_eq(POMP_Single_exit(b, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_Critical_exit(a, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_On(), POMP_SUCCESS);
    cr_assert_eq(POMP_Single_enter(&b, 0, cb), POMP_SUCCESS);
    cr_assert_eq(POMP_Single_exit(b, 0), POMP_SUCCESS);
    const struct pomp_eventlog *log = &pomp_tls_thread->log;
    cr_assert_eq(log->used, 4, "critical enter and exit, then single enter and exit after POMP_On");
    cr_assert_eq(log->buf[1].kind, POMP_EV_CRITICAL_EXIT);
    cr_assert_eq(log->buf[2].kind, POMP_EV_SINGLE_ENTER);
    cr_assert_eq(pomp_tls_thread->profile.nesting_errors, 0);
    cr_assert_eq(POMP_Finalize(), POMP_SUCCESS);
    cr_assert_eq(POMP_On(), POMP_ERR_FINALIZED);
    cr_assert_eq(POMP_Off(), POMP_ERR_FINALIZED);
    free(ca);
    free(cb);
}

Test(handles, events_after_finalize_are_ignored)
{
    POMP_Handle_t h = NULL;
    cr_assert_eq(POMP_Init(), POMP_SUCCESS);
    cr_assert_eq(POMP_Finalize(), POMP_SUCCESS);
    cr_assert_eq(POMP_Finalize(), POMP_ERR_FINALIZED);
    cr_assert_eq(POMP_Barrier_enter(&h, 0, "2**"), POMP_ERR_FINALIZED);
}

/* ---- merge ---- */

static POMP_Handle_t par;

static void *team_member(void *arg)
{
    (void)arg;
    POMP_Parallel_begin(par, 1);
    POMP_Parallel_end(par, 1);
    return NULL;
}

Test(merge, worker_share_joins_the_entered_region)
{
    char *c = ctc_for("parallel", "m.c", 3);
    cr_assert_eq(POMP_Get_handle(&par, c), POMP_SUCCESS);
    free(c);
    POMP_Parallel_enter(&par, 0, 2, 1, NULL);
    POMP_Parallel_begin(par, 0);
    pthread_t th;
    pthread_create(&th, NULL, team_member, NULL);
    pthread_join(th, NULL);
    POMP_Parallel_end(par, 0);
    POMP_Parallel_exit(par, 0);

    struct pomp_merged m;
    cr_assert_eq(pomp_merge(&m), 0);
    cr_assert_eq(m.nthreads, 2);
    cr_assert_eq(m.count, 2, "root and one node for the parallel region");
    cr_assert_eq(m.nodes[1].region->id, par->id, "the node of region par");
    cr_assert_eq(pomp_merged_stat(&m, 1, 0)->visits, 1);
    cr_assert_eq(pomp_merged_stat(&m, 1, 0)->begins, 1);
    cr_assert_eq(pomp_merged_stat(&m, 1, 1)->visits, 0);
    cr_assert_eq(pomp_merged_stat(&m, 1, 1)->begins, 1);
    pomp_merged_free(&m);
}

/* Inline counters (POMP_Fast_count): counted at the depth they were registered
 * at, off while a region is open inside, added to their node when the frame
 * they counted under closes. */
/* The counter counts while the top frame stands on a node it was registered
 * under (what the inserted code compares: POMP_Fast_top, published here in top). */
static int counting(const POMP_Fast_count *c, const void *top)
{
    return top && (c->parent[0] == top || c->parent[1] == top);
}

/* A task execution's counter counts while any task's execution is on top
 * (POMP_Fast_task_counted: POMP_Fast_top's lowest bit), or (its slot 1)
 * while the region its construct's creations count in is, and slot 0 holds
 * the root its body publishes. top: the slot given for POMP_Fast_top. */
static int counting_in_task(const POMP_Fast_count *c, const void *top)
{
    return (c->parent[0] && ((uintptr_t)top & 1)) || (top && c->parent[1] == top && c->parent[0]);
}

/* What POMP_Fast_top holds while a task's execution on node n is on top. */
static const void *task_top(const struct pomp_node *n) { return (const void *)((uintptr_t)n | 1); }

Test(profile, inline_counter_follows_its_frame)
{
    struct pomp_profile *p = new_profile(64);
    const void *top = NULL;
    pomp_profile_fast_attach(p, &top);
    cr_assert_eq(top, &p->root, "attaching publishes the top frame");
    A.throttled = 1;
    POMP_Fast_count c = {0};
    pomp_profile_enter(p, &P, 10, 0);
    pomp_profile_event(p, &A, POMP_UNTIMED, 0, 0); /* the site's call: A under P */
    pomp_profile_fast_register(p, &c, &A, 1, POMP_FAST_VISIT);
    cr_assert(counting(&c, top), "counting under P");
    c.visits[0] += 5;
    pomp_profile_enter(p, &B, 20, 0);
    cr_assert(!counting(&c, top), "B open inside P: A's visits there are not P's");
    pomp_profile_exit(p, &B, 30);
    cr_assert(counting(&c, top), "back under P");
    c.visits[0] += 2;
    struct pomp_node *a = child(child(&p->root, &P), &A);
    cr_assert_eq(a->visits, 1, "inline visits wait for the fold");
    pomp_profile_exit(p, &P, 40);
    cr_assert(!counting(&c, top), "P closed: the counter stops");
    pomp_profile_enter(p, &P, 50, 0);
    cr_assert(counting(&c, top), "P open again (the same node): it counts again");
    pomp_profile_exit(p, &P, 60);
    cr_assert_eq(p->nfast, 1, "registered until it is folded");
    pomp_profile_fast_fold(p, 1);
    cr_assert_null(c.parent[0]);
    cr_assert_eq(c.visits[0], 0);
    cr_assert_eq(p->nfast, 0);
    cr_assert_eq(a->visits, 8);
    cr_assert_eq(a->untimed, 8);
    cr_assert_eq(p->untimed_events, 7);
    pomp_profile_fast_detach(p);
    pomp_profile_enter(p, &B, 70, 0);
    cr_assert_eq(top, &p->root, "detached: the top is no longer published");
    A.throttled = 0;
}

/* A recursion that folds onto the same node (a task run inside a task of the
 * same construct: one task root) counts on, at any depth; another path of
 * the same code registers the counter there too (its second path), and a
 * third takes the place of the path registered first, whose counts so far
 * are folded. */
Test(profile, inline_counter_in_a_folding_recursion)
{
    static struct POMP_Region_s T = {.task_root = 1};
    struct pomp_profile *p = new_profile(64);
    const void *top = NULL;
    pomp_profile_fast_attach(p, &top);
    A.throttled = 1;
    POMP_Fast_count c = {0};
    pomp_profile_begin(p, &T, 10, 0, NULL);           /* a task's execution: its task root */
    pomp_profile_event(p, &A, POMP_UNTIMED, 0, 0); /* the site, inside */
    pomp_profile_fast_register(p, &c, &A, 1, POMP_FAST_VISIT);
    c.visits[0] += 3;
    pomp_profile_enter(p, &B, 20, 0);           /* a wait, in which ... */
    cr_assert(!counting(&c, top));
    pomp_profile_begin(p, &T, 30, 0, NULL);           /* ... another task of T runs: the same root */
    cr_assert_eq(p->depth, 4);
    cr_assert(counting(&c, top), "deeper, on the same node: still counting");
    c.visits[0] += 4;
    pomp_profile_end(p, &T, 40);
    pomp_profile_exit(p, &B, 50);
    pomp_profile_end(p, &T, 60);
    struct pomp_node *root = task_root_node(p, &T);
    cr_assert_not_null(root);
    pomp_profile_enter(p, &P, 70, 0);           /* the same code under P */
    pomp_profile_event(p, &A, POMP_UNTIMED, 0, 0);
    pomp_profile_fast_register(p, &c, &A, 1, POMP_FAST_VISIT);
    cr_assert(counting(&c, top), "now counting under P too");
    cr_assert_eq(c.parent[0], task_top(root), "and still under the task root");
    cr_assert_eq(child(root, &A)->visits, 1, "its counts there not folded yet");
    c.visits[1] += 2;
    pomp_profile_exit(p, &P, 80);
    pomp_profile_enter(p, &B, 90, 0);           /* a third path: the first one's place, ... */
    for (int k = 1; k < POMP_FAST_MISSES; k++) {
        pomp_profile_event(p, &A, POMP_UNTIMED, 0, 0);
        pomp_profile_fast_register(p, &c, &A, 1, POMP_FAST_VISIT);
        cr_assert(!counting(&c, top), "... not before POMP_FAST_MISSES visits there");
    }
    pomp_profile_event(p, &A, POMP_UNTIMED, 0, 0);
    pomp_profile_fast_register(p, &c, &A, 1, POMP_FAST_VISIT);
    cr_assert(counting(&c, top), "now counting under B");
    cr_assert_eq(child(root, &A)->visits, 8, "the task root's counts folded there");
    cr_assert_eq(child(&p->root, &B)->first_child->visits, POMP_FAST_MISSES, "B's through the calls");
    cr_assert_eq(c.parent[1], child(&p->root, &P), "P's path kept");
    cr_assert_eq(p->nfast, 2);
    pomp_profile_exit(p, &B, 100);
    pomp_profile_fast_fold(p, 1);
    cr_assert_eq(child(child(&p->root, &P), &A)->visits, 3, "P's: its call and 2 inline");
    A.throttled = 0;
}

/* A task's execution run directly inside an execution of a task of another
 * construct (an included task: final, if(0)): counted inline while a task's
 * root is on top, its begins on its own root, untimed; not where it runs
 * inside a wait (a leaf) of that task. */
Test(profile, inline_execution_inside_another_construct)
{
    static struct POMP_Region_s X = {.task_root = 1, .throttled = 1},
                                Y = {.task_root = 1, .throttled = 1}, W = {0};
    struct pomp_profile *p = new_profile(64);
    const void *top = NULL;
    pomp_profile_fast_attach(p, &top);
    POMP_Fast_count ex = {0};
    pomp_profile_begin(p, &Y, 10, 0, NULL);   /* a task of Y, ... */
    struct pomp_node *ry = task_root_node(p, &Y);
    cr_assert_eq(top, task_top(ry), "a task's execution on top: marked");
    pomp_profile_begin(p, &X, 20, 0, NULL);   /* ... an X run at once inside it */
    pomp_profile_fast_register(p, &ex, &X, 2, POMP_FAST_EXECUTION);
    struct pomp_node *rx = task_root_node(p, &X);
    cr_assert_eq(ex.parent[0], task_top(rx), "registered, once: what its bodies publish");
    cr_assert(counting_in_task(&ex, top), "inside X's own execution: an included X counts");
    pomp_profile_end(p, &X, 30);
    cr_assert(counting_in_task(&ex, top), "Y's root on top again: the next X is counted inline");
    ex.visits[0] += 6;
    cr_assert(pomp_profile_leaf_open(p, &W, 40, 1), "a wait of Y's task (a taskwait)");
    cr_assert(!counting_in_task(&ex, top), "inside the wait: an X run there is timed");
    pomp_profile_begin(p, &X, 50, 0, NULL);   /* X run in that wait: ... */
    pomp_profile_fast_register(p, &ex, &X, 2, POMP_FAST_EXECUTION);
    cr_assert_null(ex.parent[1], "... registered already: nothing more");
    pomp_profile_end(p, &X, 60);
    pomp_profile_leaf_close(p, &W, 70);
    pomp_profile_enter(p, &P, 75, 0);         /* a region inside Y's task: not a task's */
    cr_assert(!counting_in_task(&ex, top), "another region on top: timed");
    pomp_profile_exit(p, &P, 76);
    pomp_profile_end(p, &Y, 80);
    cr_assert(!counting_in_task(&ex, top), "outside tasks: timed");
    pomp_profile_fast_fold(p, 1);
    cr_assert_eq(rx->begins, 8, "two timed executions of X, six counted inline");
    cr_assert_eq(rx->untimed, 6);
    cr_assert_eq(ry->begins, 1);
}

/* An execution counted inline runs its body with its task root published
 * (POMP_Fast_task_counted): a creation counted inline there counts on that
 * root's path, not on that of the task it ran in; a region its body opens
 * makes the rest of it a frame on the root (its time from then on, no
 * execution counted), which the inserted code's end closes; the slot holds
 * what it held before again. (Counted on the enclosing task's paths, a fib
 * with an if-clause cutoff put a third of one site's creations under the
 * other; before 2026-12-04.) */
Test(profile, inline_execution_body_counts_on_its_own_root)
{
    static struct POMP_Region_s T = {.task_root = 1, .throttled = 1}, Y = {.task_root = 1},
                                U = {.task_root = 1, .throttled = 1};
    struct pomp_profile *p = new_profile(64);
    const void *top = NULL;
    pomp_profile_fast_attach(p, &top);
    POMP_Fast_count ex = {0}, cr = {0};
    pomp_profile_enter(p, &P, 0, 0);
    pomp_profile_begin(p, &T, 10, 0, NULL); /* a timed execution of T: its counter registers */
    pomp_profile_fast_register(p, &ex, &T, 2, POMP_FAST_EXECUTION);
    struct pomp_node *rt = task_root_node(p, &T);
    cr_assert_eq(ex.parent[0], task_top(rt));
    cr_assert(pomp_profile_leaf_open(p, &U, 15, 1)); /* it creates a U, ... */
    cr_assert_eq(pomp_profile_leaf_close(p, &U, 16), POMP_SUCCESS);
    pomp_profile_fast_register(p, &cr, &U, 2, POMP_FAST_VISIT); /* ... whose counter registers there */
    cr_assert_eq(cr.parent[0], task_top(rt));
    pomp_profile_end(p, &T, 30);
    pomp_profile_begin(p, &Y, 40, 0, NULL); /* a task of Y, ... */
    struct pomp_node *ry = task_root_node(p, &Y);
    const void *in_y = top;
    /* ... a T included in it, counted inline: the inserted code */
    cr_assert(counting_in_task(&ex, top));
    ex.visits[0]++;
    const void *before = top;
    top = ex.parent[0];
    cr_assert_eq(cr.parent[0], top, "the U it creates counts inline on T's path");
    cr.visits[0]++;
    pomp_profile_enter(p, &A, 50, 0); /* a region its body opens */
    cr_assert_eq(p->depth, 5, "P, Y, the rest of T, A");
    pomp_profile_exit(p, &A, 60);
    cr_assert_neq(top, ex.parent[0], "the rest of T a frame: the end knows");
    pomp_profile_inline_task_end(p, 70);
    top = before;
    cr_assert_eq(p->depth, 3, "P and Y");
    cr_assert_eq(top, in_y);
    cr_assert(counting_in_task(&ex, top), "and the next T included in Y counts inline again");
    /* a body whose counter lost its root meanwhile (its slot taken by another
     * site's): the end finds the slot other than the root, yet no frame of
     * the body's, and closes none (Y's stays) */
    ex.visits[0]++;
    top = ex.parent[0];
    pomp_profile_inline_task_end(p, 75);
    cr_assert_eq(p->depth, 3, "no frame closed");
    top = in_y;
    pomp_profile_end(p, &Y, 80);
    pomp_profile_exit(p, &P, 100);
    pomp_profile_fast_fold(p, 1);
    cr_assert_eq(child(rt, &A)->visits, 1, "the region T's body opened is T's");
    cr_assert_null(child(ry, &A), "not Y's");
    cr_assert_eq(child(rt, &U)->visits, 2, "both creations of U on T's path");
    cr_assert_null(child(ry, &U));
    cr_assert_eq(rt->begins, 3, "one timed execution, two counted inline");
    cr_assert_eq(rt->untimed, 2);
    cr_assert_eq(rt->incl, 40, "the timed execution's 20 ticks and the frame's 20");
    cr_assert_eq(rt->max, 20, "the frame no execution of its own");
    cr_assert_eq(ry->incl, 20, "Y's 40 less the 20 of T's that were T's");
    cr_assert_eq(p->nesting_errors, 0);
}

/* An execution counted inline at the deepest depth recorded: the rest of it
 * cannot become a frame, and what its body opens counts where it runs
 * (beyond the depth: counted in deep_events), every close still matched; its
 * end closes nothing of the frames below. */
Test(profile, inline_execution_body_at_the_depth_recorded)
{
    static struct POMP_Region_s T = {.task_root = 1, .throttled = 1};
    struct pomp_profile *p = new_profile(64);
    const void *top = NULL;
    pomp_profile_fast_attach(p, &top);
    POMP_Fast_count ex = {0};
    pomp_profile_set_max_depth(p, POMP_FIRST_DEPTH);
    pomp_profile_begin(p, &T, 1, 0, NULL);
    pomp_profile_fast_register(p, &ex, &T, 2, POMP_FAST_EXECUTION);
    for (uint32_t i = 2; i < POMP_FIRST_DEPTH; i++)
        pomp_profile_enter(p, &A, i, 0);
    cr_assert_eq(p->depth, POMP_FIRST_DEPTH);
    const void *before = top;
    top = ex.parent[0]; /* a T counted inline, its body opens a region */
    pomp_profile_enter(p, &B, 500, 0);
    cr_assert_eq(p->too_deep, 1, "B beyond the depth, and nothing else");
    pomp_profile_exit(p, &B, 510);
    cr_assert_eq(p->too_deep, 0);
    pomp_profile_inline_task_end(p, 520);
    top = before;
    cr_assert_eq(p->depth, POMP_FIRST_DEPTH, "no frame closed by the end");
    for (uint32_t i = 2; i < POMP_FIRST_DEPTH; i++)
        cr_assert_eq(pomp_profile_exit(p, &A, 600), POMP_SUCCESS);
    pomp_profile_end(p, &T, 700);
    cr_assert_eq(p->depth, 1);
    cr_assert_eq(p->nesting_errors, 0);
    cr_assert_eq(p->deep_events, 3, "the frame not made, B's enter and exit");
}

/* An undeferred task run at once where its construct's creations are
 * counted inline (POMP_FAST_EXECUTION_IN_PLACE, slot 1): registered at a timed
 * execution that began with that region on top, no leaf open; then counted
 * inline there, its begins on its root, untimed, its time the region's own.
 * Not where the creations are not counted inline, not where a leaf (a wait,
 * a timed creation) is open, not inside another region. */
Test(profile, inline_execution_in_place_of_its_creation)
{
    static struct POMP_Region_s T = {.task_root = 1, .throttled = 1}, W = {.a_wait = 1};
    struct pomp_profile *p = new_profile(64);
    const void *top = NULL;
    pomp_profile_fast_attach(p, &top);
    POMP_Fast_count cr = {0}, ex = {0};
    pomp_profile_enter(p, &P, 0, 0);
    const void *place = top;
    pomp_profile_begin(p, &T, 10, 0, NULL); /* an execution before any creation counted */
    pomp_profile_fast_register(p, &ex, &T, 2, POMP_FAST_EXECUTION_IN_PLACE);
    cr_assert_null(ex.parent[1], "the creations of T do not count inline in P: not registered");
    pomp_profile_end(p, &T, 20);
    cr_assert(pomp_profile_leaf_open(p, &T, 30, 1)); /* a timed creation, ... */
    cr_assert_eq(pomp_profile_leaf_close(p, &T, 40), POMP_SUCCESS);
    pomp_profile_fast_register(p, &cr, &T, 2, POMP_FAST_VISIT); /* ... its counter offered */
    cr_assert_eq(cr.parent[0], place, "the creations count inline in P");
    cr_assert(pomp_profile_leaf_open(p, &T, 50, 1)); /* a creation timed again (its calls), ... */
    pomp_profile_begin(p, &T, 55, 0, NULL);          /* ... its task run at once inside it */
    pomp_profile_fast_register(p, &ex, &T, 2, POMP_FAST_EXECUTION_IN_PLACE);
    cr_assert_null(ex.parent[1], "inside a timed creation (a leaf): not registered");
    pomp_profile_end(p, &T, 60);
    cr_assert_eq(pomp_profile_leaf_close(p, &T, 65), POMP_SUCCESS);
    pomp_profile_begin(p, &T, 70, 0, NULL); /* a creation counted inline, its task run at once */
    cr_assert_null(ex.parent[0]);
    pomp_profile_fast_register(p, &ex, &T, 2, POMP_FAST_EXECUTION_IN_PLACE);
    cr_assert_null(ex.parent[1], "not before its first slot holds the root its bodies publish");
    /* as POMP_Task_begin_id_slow offers them: inside tasks, then in place */
    pomp_profile_fast_register(p, &ex, &T, 2, POMP_FAST_EXECUTION);
    pomp_profile_fast_register(p, &ex, &T, 2, POMP_FAST_EXECUTION_IN_PLACE);
    struct pomp_node *root = task_root_node(p, &T);
    cr_assert_eq(ex.parent[1], place, "registered where the creations count");
    cr_assert_eq(ex.parent[0], task_top(root), "its first slot: the executions inside tasks");
    pomp_profile_end(p, &T, 80);
    cr_assert(counting_in_task(&ex, top), "P on top again: the next ones count");
    ex.visits[1] += 7;
    cr_assert(pomp_profile_leaf_open(p, &W, 90, 1));
    cr_assert(!counting_in_task(&ex, top), "inside a wait: a task run there is timed");
    cr_assert_eq(pomp_profile_leaf_close(p, &W, 100), POMP_SUCCESS);
    pomp_profile_enter(p, &A, 110, 0);
    cr_assert(!counting_in_task(&ex, top), "inside another region: timed");
    pomp_profile_exit(p, &A, 120);
    cr_assert(counting_in_task(&ex, top));
    pomp_profile_exit(p, &P, 200);
    pomp_profile_fast_fold(p, 1);
    cr_assert_eq(root->begins, 10, "three timed executions, seven counted inline");
    cr_assert_eq(root->visits, 0, "executions count begins only");
    cr_assert_eq(root->untimed, 7);
    cr_assert_null(ex.parent[1], "folded: the counter unregistered");
}

/* POMP_FAST_SITES sites registered at once: one more under the same frame keeps its calls;
 * one under another frame takes the slot of a site not counting there, whose
 * counts go to its node first. */
Test(profile, inline_counter_slots)
{
    static struct POMP_Region_s S[POMP_FAST_SITES + 2];
    struct pomp_profile *p = new_profile(256);
    const void *top = NULL;
    pomp_profile_fast_attach(p, &top);
    POMP_Fast_count c[POMP_FAST_SITES + 2];
    memset(c, 0, sizeof c);
    pomp_profile_enter(p, &P, 10, 0);
    for (int k = 0; k <= POMP_FAST_SITES; k++) {
        S[k].throttled = 1;
        pomp_profile_event(p, &S[k], POMP_UNTIMED, 0, 0);
        pomp_profile_fast_register(p, &c[k], &S[k], 1, POMP_FAST_VISIT);
    }
    cr_assert_eq(p->nfast, POMP_FAST_SITES);
    cr_assert(counting(&c[0], top));
    cr_assert_null(c[POMP_FAST_SITES].parent[0], "all count under P: one more keeps its calls");
    c[0].visits[0] = 5;
    pomp_profile_enter(p, &B, 20, 0);
    S[POMP_FAST_SITES + 1].throttled = 1;
    pomp_profile_event(p, &S[POMP_FAST_SITES + 1], POMP_UNTIMED, 0, 0);
    pomp_profile_fast_register(p, &c[POMP_FAST_SITES + 1], &S[POMP_FAST_SITES + 1], 1, POMP_FAST_VISIT);
    cr_assert(counting(&c[POMP_FAST_SITES + 1], top), "under B: a slot of P's sites is taken");
    cr_assert_null(c[0].parent[0], "the first slot in turn: its site stops");
    struct pomp_node *s0 = child(child(&p->root, &P), &S[0]);
    cr_assert_eq(s0->visits, 6, "its inline visits folded into its node");
    pomp_profile_exit(p, &B, 30);
    pomp_profile_exit(p, &P, 40);
}

/* Task roots are found through the child cache, then by the root's
 * children: three constructs in turn, behind top-level regions, each keep
 * one tree with all their executions. */
Test(profile, task_roots_in_turn)
{
    static struct POMP_Region_s T[3] = {{.task_root = 1}, {.task_root = 1}, {.task_root = 1}};
    struct pomp_profile *p = new_profile(256);
    for (int k = 0; k < 3; k++) { /* a tree of each first: the others come after them */
        pomp_profile_begin(p, &T[k], 1, 0, NULL);
        pomp_profile_end(p, &T[k], 2);
    }
    for (int k = 0; k < 3; k++) {
        pomp_profile_enter(p, &X[k], 3, 0);
        pomp_profile_exit(p, &X[k], 4);
    }
    static const int order[] = {0, 1, 2, 0, 0, 2, 1, 1, 0, 2};
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        pomp_profile_begin(p, &T[order[i]], 10, 0, NULL);
        pomp_profile_end(p, &T[order[i]], 12);
    }
    int roots = 0;
    for (struct pomp_node *n = p->root.first_child; n; n = n->next_sibling)
        if (n->task_root) {
            roots++;
            cr_expect_eq(n->begins, n->region == &T[0] ? 5 : n->region == &T[1] ? 4 : 4);
        }
    cr_expect_eq(roots, 3, "one tree per task construct");
}

/* Children are found through a cache (find_child) when the last two miss: a
 * parent with more children than the cache has slots, visited in turn, still
 * has one node per region, with all its visits; a team share of the same
 * region is a node of its own. */
Test(profile, many_children_in_turn)
{
    enum { N = 1500 };
    static struct POMP_Region_s R[N];
    struct pomp_profile *p = new_profile(4 * N);
    for (int round = 0; round < 3; round++)
        for (int k = 0; k < N; k++) {
            pomp_profile_enter(p, &R[k], 1, 0);
            pomp_profile_exit(p, &R[k], 2);
        }
    pomp_profile_team_begin(p, &R[7], &p->root, 3, 0);
    pomp_profile_exit(p, &R[7], 4);
    int children = 0, shares = 0, wrong = 0;
    for (struct pomp_node *n = p->root.first_child; n; n = n->next_sibling) {
        if (n->fork) {
            shares++;
            wrong += n->begins != 1 || n->region != &R[7];
        } else {
            children++;
            wrong += n->visits != 3;
        }
    }
    cr_expect_eq(children, N, "one node per region");
    cr_expect_eq(shares, 1, "the team share apart");
    cr_expect_eq(wrong, 0, "every visit on its node");
}

/* Regions met in turn under one parent (a recursive task's two creations and
 * its taskwait; a time step's regions) find their nodes through the one found
 * after each last time: a turn of three missed a cache of the last two found
 * every time, ~80 instructions an event. Each links to the next, and each
 * keeps its own visits. */
Test(profile, children_in_turn_link_to_the_next)
{
    static struct POMP_Region_s P, A, B, C;
    struct POMP_Region_s *turn[] = {&A, &B, &C};
    struct pomp_profile *p = new_profile(64);
    pomp_profile_enter(p, &P, 1, 0);
    for (int round = 0; round < 4; round++)
        for (int k = 0; k < 3; k++) {
            pomp_profile_enter(p, turn[k], 2, 0);
            pomp_profile_exit(p, turn[k], 3);
        }
    pomp_profile_exit(p, &P, 4);
    struct pomp_node *top = child(&p->root, &P);
    cr_assert_not_null(top);
    struct pomp_node *a = child(top, &A), *b = child(top, &B), *c = child(top, &C);
    cr_assert(a && b && c);
    cr_expect_eq(a->next_hit, b);
    cr_expect_eq(b->next_hit, c);
    cr_expect_eq(c->next_hit, a);
    cr_expect_eq(top->last_hit, c);
    cr_expect(a->visits == 4 && b->visits == 4 && c->visits == 4, "every visit on its node");
    cr_expect_eq(p->nodes_used, 4);
}

/* Every node is in the children index, which doubles as the store grows
 * and stays at most half full: a program of thousands of regions finds each
 * again without a walk of its parent's list (before, a lossy cache: the
 * first visit of each walked the list, and so did the second after the
 * cache grew; 2,000 generated kernels took 9 us each on their second call,
 * against 5 from then on). */
Test(profile, every_child_is_in_the_index)
{
    enum { N = 3000 };
    static struct POMP_Region_s R[N];
    struct pomp_profile *p = new_profile(4 * N);
    for (int k = 0; k < N; k++) {
        pomp_profile_enter(p, &R[k], 1, 0);
        pomp_profile_enter(p, &R[N - 1 - k], 1, 0); /* a child of its own */
        pomp_profile_exit(p, &R[N - 1 - k], 2);
        pomp_profile_exit(p, &R[k], 2);
    }
    cr_assert_eq(p->nodes_used, 2 * N);
    cr_assert_geq(p->index_slots, 2 * p->nodes_used, "at most half full");
    uint32_t top = 0, below = 0;
    for (uint32_t i = 0; i < p->index_slots; i++) {
        top += p->child_index[i] && p->child_index[i]->parent == &p->root;
        below += p->child_index[i] && p->child_index[i]->parent != &p->root;
    }
    cr_expect_eq(top, N);
    cr_expect_eq(below, N);
}

/* A node the runtime made and POMP took over goes back to the store and out
 * of the index (deletion by backward shift): every child is found again,
 * and the index holds exactly the nodes of the store. */
Test(profile, a_node_given_back_leaves_the_index)
{
    enum { N = 40 };
    static struct POMP_Region_s P, C[N], runtime_masked, pomp_masked;
    struct pomp_profile *p = new_profile(1024);
    pomp_profile_enter(p, &P, 1, 0);
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < N; k++) {
            pomp_profile_enter(p, &C[k], 2, 0);
            pomp_profile_exit(p, &C[k], 3);
        }
        /* the runtime's begin, then the instrumentation's for the same construct */
        pomp_profile_begin(p, &runtime_masked, 4, 0, NULL);
        pomp_profile_mark_adoptable(p);
        struct POMP_Region_s *adopted_from = NULL;
        cr_expect_eq(pomp_profile_begin(p, &pomp_masked, 4, 0, &adopted_from), POMP_PROFILE_ADOPTED);
        cr_expect_eq(adopted_from, &runtime_masked, "the runtime's region, for a trace to close");
        pomp_profile_end(p, &pomp_masked, 5);
    }
    pomp_profile_exit(p, &P, 6);
    cr_assert_eq(p->nodes_used, 1 + N + 1, "P, its children and the adopted begin, once each");
    uint32_t indexed = 0;
    for (uint32_t i = 0; i < p->index_slots; i++)
        if (p->child_index[i]) {
            indexed++;
            cr_expect_not_null(p->child_index[i]->region, "no node given back in the index");
        }
    cr_expect_eq(indexed, p->nodes_used);
    struct pomp_node *top = child(&p->root, &P);
    cr_assert_not_null(top);
    for (int k = 0; k < N; k++)
        cr_expect_eq(child(top, &C[k])->visits, 3);
    cr_expect_eq(child(top, &pomp_masked)->begins, 3);
    /* nothing points at the node given back, whose place a new node takes */
    int stale = top->last_hit && top->last_hit->parent != top;
    for (struct pomp_node *n = top->first_child; n; n = n->next_sibling)
        stale += n->next_hit && (n->next_hit->region == NULL || n->next_hit->parent != top);
    cr_expect_eq(stale, 0, "no link to a node given back");
}

Test(profile, inline_counter_saved_at_thread_end)
{
    struct pomp_profile *p = new_profile(64);
    A.throttled = 1;
    POMP_Fast_count c = {0};
    pomp_profile_enter(p, &P, 10, 0);
    pomp_profile_enter(p, &A, POMP_UNTIMED, 0); /* a critical: counted as visit and begin */
    pomp_profile_exit(p, &A, POMP_UNTIMED);
    pomp_profile_fast_register(p, &c, &A, 4, POMP_FAST_VISIT_BEGIN);
    c.visits[0] = 3;
    pomp_profile_fast_save(p); /* the thread's TLS goes */
    c.visits[0] = 1000;        /* not read again */
    pomp_profile_fast_fold(p, 0);
    struct pomp_node *a = child(child(&p->root, &P), &A);
    cr_assert_eq(a->visits, 4);
    cr_assert_eq(a->begins, 3);
    cr_assert_eq(p->untimed_events, 12);
    A.throttled = 0;
}

Test(profile, inline_counter_not_registered_on_the_overflow_node)
{
    struct pomp_profile *p = new_profile(1);
    A.throttled = 1;
    POMP_Fast_count c = {0};
    pomp_profile_enter(p, &P, 10, 0);           /* the one node */
    pomp_profile_event(p, &A, POMP_UNTIMED, 0, 0); /* to the overflow node */
    pomp_profile_fast_register(p, &c, &A, 1, POMP_FAST_VISIT);
    cr_assert_null(c.parent[0], "an overflowed path keeps its calls");
    cr_assert_eq(p->nfast, 0);
    A.throttled = 0;
}

/* A throttled task construct's executions: the counter registered at a begin
 * counts under the task root itself, so an execution run directly inside one
 * of the same construct is counted inline (a begin, untimed, no visit), and
 * its time stays in the enclosing execution, on the same node. Not inside a
 * wait or a creation open without a frame (a leaf): a task counted there
 * would put its time into the leaf, so POMP_Fast_top names no node then. */
Test(profile, task_execution_counted_inline_under_its_own_root)
{
    static struct POMP_Region_s T = {.task_root = 1, .throttled = 1};
    static struct POMP_Region_s W = {.a_wait = 1};
    struct pomp_profile *p = new_profile(64);
    const void *top = NULL;
    pomp_profile_fast_attach(p, &top);
    POMP_Fast_count c = {0};
    pomp_profile_enter(p, &P, 0, 0);
    pomp_profile_begin(p, &T, 10, 0, NULL); /* an execution inside P: timed, registers */
    pomp_profile_fast_register(p, &c, &T, 2, POMP_FAST_EXECUTION);
    struct pomp_node *root = task_root_node(p, &T);
    cr_assert_eq(c.parent[0], task_top(root), "registered: what its bodies publish, its root");
    cr_assert(counting_in_task(&c, top), "inside an execution of T: the next ones count");
    c.visits[0] += 5; /* five executions run at once inside this one */
    cr_assert(pomp_profile_leaf_open(p, &W, 20, 1));
    cr_assert(!counting_in_task(&c, top), "inside a wait without a frame: no inline count");
    cr_assert_neq(top, NULL);
    pomp_profile_begin(p, &T, 30, 0, NULL); /* a task run inside the wait: timed */
    cr_assert(counting_in_task(&c, top), "inside that task: counting again");
    pomp_profile_end(p, &T, 40);
    cr_assert(!counting_in_task(&c, top), "back in the wait: not counting");
    cr_assert_eq(pomp_profile_leaf_close(p, &W, 50), POMP_SUCCESS);
    cr_assert(counting_in_task(&c, top), "the wait closed: counting again");
    pomp_profile_end(p, &T, 100);
    cr_assert(!counting_in_task(&c, top));
    pomp_profile_exit(p, &P, 110);
    pomp_profile_fast_fold(p, 1);
    cr_assert_eq(root->visits, 0, "executions are begins, not visits");
    cr_assert_eq(root->begins, 7);
    cr_assert_eq(root->untimed, 5);
    cr_assert_eq(p->untimed_events, 10);
    cr_assert_eq(root->incl, 90, "the outer execution's 90 ticks: 80 of its own (the five "
                                 "counted inline among them), 10 of the task run in the wait");
    cr_assert_eq(child(root, &W)->incl, 20, "the wait less the task run in it");
}

/* A throttled task creation opens an untimed frame (its enter reads no
 * clock, so no leaf); its task, run at once inside it, opens the task root:
 * the creation's exit still counts on the creation's node, so the site's
 * counter registers there (it took the task root for the node counted on and
 * never registered: every later creation went through the calls). */
Test(profile, creation_counter_registers_after_a_task_ran_inside)
{
    static struct POMP_Region_s T = {.task_root = 1, .throttled = 1};
    struct pomp_profile *p = new_profile(64);
    POMP_Fast_count c = {0};
    pomp_profile_enter(p, &P, 0, 0);
    pomp_profile_enter(p, &T, POMP_UNTIMED, 0); /* the creation */
    pomp_profile_begin(p, &T, 10, 0, NULL);           /* its task, at once */
    pomp_profile_end(p, &T, 20);
    pomp_profile_exit(p, &T, POMP_UNTIMED);
    pomp_profile_fast_register(p, &c, &T, 2, POMP_FAST_VISIT);
    cr_assert_eq(c.parent[0], child(&p->root, &P), "registered under the creating frame");
    cr_assert_eq(p->nfast, 1);
    pomp_profile_exit(p, &P, 30);
    pomp_profile_fast_fold(p, 1);
}

/* An execution of T's is counted inline only where it would count on T's
 * root: not registered from a frame that is not its task's. */
Test(profile, task_execution_counter_needs_its_task_frame)
{
    static struct POMP_Region_s T = {.task_root = 1, .throttled = 1};
    struct pomp_profile *p = new_profile(64);
    POMP_Fast_count c = {0};
    pomp_profile_begin(p, &T, 10, 0, NULL);
    pomp_profile_enter(p, &P, 20, 0); /* the last event counted on P, not on T's root */
    pomp_profile_fast_register(p, &c, &T, 2, POMP_FAST_EXECUTION);
    cr_assert_null(c.parent[0]);
    cr_assert_eq(p->nfast, 0);
}

/* Each task has a leaf of its own: a task run inside a wait without a frame
 * (a taskwait's leaf) waits in a taskwait of its own without a frame too, and
 * the outer wait is the thread's leaf again when the task ends. */
Test(profile, a_task_inside_a_leaf_opens_its_own)
{
    static struct POMP_Region_s T = {.task_root = 1};
    static struct POMP_Region_s W = {.a_wait = 1};
    struct pomp_profile *p = new_profile(64);
    pomp_profile_begin(p, &T, 0, 0, NULL);                    /* a task ... */
    cr_assert(pomp_profile_leaf_open(p, &W, 10, 1));    /* ... waits for its children */
    pomp_profile_begin(p, &T, 20, 0, NULL);                   /* one runs inside the wait */
    cr_assert(pomp_profile_leaf_open(p, &W, 30, 1), "the inner task's taskwait: a leaf too");
    cr_assert_eq(pomp_profile_leaf_close(p, &W, 35), POMP_SUCCESS);
    pomp_profile_end(p, &T, 40);
    cr_assert(pomp_profile_leaf_is(p, &W), "the outer wait is the thread's leaf again");
    cr_assert_eq(pomp_profile_leaf_close(p, &W, 60), POMP_SUCCESS);
    pomp_profile_end(p, &T, 70);
    struct pomp_node *root = task_root_node(p, &T), *w = child(root, &W);
    cr_assert_eq(root->begins, 2);
    cr_assert_eq(root->incl, 70, "the outer task's 50 of its own, the inner task's 20");
    cr_assert_eq(w->visits, 2);
    cr_assert_eq(w->incl, 35, "the outer wait's 30 less the task run in it, and the inner 5");
    cr_assert_eq(p->nesting_errors, 0);
}

/* A runtime's helper task (libomp's split of a taskloop) found out while it
 * runs: its begin is taken back, its time stays in the task root, and it is no
 * execution's shortest or longest. */
Test(profile, a_helper_task_is_no_execution)
{
    static struct POMP_Region_s T = {.task_root = 1};
    struct pomp_profile *p = new_profile(64);
    pomp_profile_begin(p, &T, 0, 0, NULL); /* a real task: 100 ticks */
    pomp_profile_end(p, &T, 100);
    pomp_profile_begin(p, &T, 200, 0, NULL); /* the helper: 5 ticks */
    pomp_profile_uncount_begin(p, &A); /* another region on top: nothing */
    pomp_profile_uncount_begin(p, &T);
    pomp_profile_uncount_begin(p, &T); /* once */
    pomp_profile_end(p, &T, 205);
    struct pomp_node *root = task_root_node(p, &T);
    cr_assert_eq(root->begins, 1);
    cr_assert_eq(root->incl, 105);
    cr_assert_eq(root->min, 100);
    cr_assert_eq(root->max, 100);
}

/* The untimed frames below a task do not make its events untimed: a task run
 * at once inside a throttled creation (an untimed frame) times its waits. */
Test(profile, task_inside_an_untimed_frame_is_timed)
{
    static struct POMP_Region_s T = {.task_root = 1};
    static struct POMP_Region_s C = {.throttled = 1};
    struct pomp_profile *p = new_profile(64);
    pomp_profile_enter(p, &P, 0, 0);
    pomp_profile_enter(p, &C, POMP_UNTIMED, 0);
    cr_assert_eq(p->untimed, 1);
    pomp_profile_begin(p, &T, 10, 0, NULL);
    cr_assert_eq(p->untimed, 0, "inside the task, nothing untimed is open");
    pomp_profile_enter(p, &B, 20, 0);
    cr_assert_eq(p->frames[p->depth - 1].untimed, 0, "a frame inside the task is timed");
    pomp_profile_exit(p, &B, 30);
    pomp_profile_end(p, &T, 40);
    cr_assert_eq(p->untimed, 1, "after the task, the throttled frame again");
    pomp_profile_exit(p, &C, POMP_UNTIMED);
    cr_assert_eq(p->untimed, 0);
    pomp_profile_exit(p, &P, 50);
    struct pomp_node *b = child(task_root_node(p, &T), &B);
    cr_assert_eq(b->incl, 10);
    cr_assert_eq(b->untimed, 0);
}

/* A wait counted without a frame (pomp_profile_leaf_open/_close) gives the
 * figures enter..exit gives: with a task run inside it, the task's time is
 * the task root's, not the wait's own time, in both forms. */
static struct POMP_Region_s waiting_task = {.task_root = 1};

/* A wait of r opened at tick `at` as a leaf or a frame, and its close. */
static void wait_opens(struct pomp_profile *p, int leaf, struct POMP_Region_s *r, uint64_t at)
{
    if (leaf)
        cr_assert(pomp_profile_leaf_open(p, r, at, 0));
    else
        pomp_profile_enter(p, r, at, 0);
}

static void wait_closes(struct pomp_profile *p, int leaf, struct POMP_Region_s *r, uint64_t at)
{
    if (leaf)
        cr_assert_eq(pomp_profile_leaf_close(p, r, at), POMP_SUCCESS);
    else
        pomp_profile_exit(p, r, at);
}

/* The task runs 20..50; task_waits: it waits in the same region too, 30..40. */
static void barrier_with_a_task(struct pomp_profile *p, int leaf, int task_waits)
{
    pomp_profile_enter(p, &P, 0, 0);
    wait_opens(p, leaf, &B, 10);
    pomp_profile_begin(p, &waiting_task, 20, 0, NULL); /* a task run while waiting */
    if (task_waits) {
        pomp_profile_enter(p, &B, 30, 0);
        pomp_profile_exit(p, &B, 40);
    }
    pomp_profile_end(p, &waiting_task, 50);
    wait_closes(p, leaf, &B, 70);
    pomp_profile_exit(p, &P, 80);
}

Test(profile, a_wait_without_a_frame_counts_as_with_one)
{
    for (int leaf = 0; leaf < 2; leaf++) {
        struct pomp_profile *p = new_profile(16);
        barrier_with_a_task(p, leaf, 0);
        struct pomp_node *par = child(&p->root, &P), *bar = child(par, &B);
        cr_assert_not_null(bar, "leaf %d", leaf);
        cr_expect_eq(bar->visits, 1, "leaf %d", leaf);
        cr_expect_eq(bar->incl, 60, "leaf %d", leaf);
        cr_expect_eq(bar->excl, 30, "leaf %d: the task's 30 ticks are not the wait's", leaf);
        cr_expect_eq(bar->min, 60, "leaf %d", leaf);
        cr_expect_eq(bar->max, 60, "leaf %d", leaf);
        cr_expect_eq(par->incl, 80, "leaf %d", leaf);
        cr_expect_eq(par->excl, 20, "leaf %d", leaf);
        cr_expect_eq(p->depth, 1, "leaf %d", leaf);
        cr_expect_eq(p->nesting_errors, 0, "leaf %d", leaf);
        free_profile();
    }
}

Test(profile, a_wait_without_a_frame_closes_what_was_left_open)
{
    struct pomp_profile *p = new_profile(16);
    pomp_profile_enter(p, &P, 0, 0);
    cr_assert(pomp_profile_leaf_open(p, &B, 10, 0));
    cr_expect_not(pomp_profile_leaf_open(p, &X[0], 15, 0), "one leaf at a time");
    pomp_profile_enter(p, &A, 20, 0); /* never exited */
    cr_expect_eq(pomp_profile_leaf_close(p, &B, 40), POMP_SUCCESS);
    cr_expect_eq(p->nesting_errors, 1);
    cr_expect_eq(p->depth, 2, "the frame the wait stood on is on top again");
    pomp_profile_exit(p, &P, 50);
    cr_expect_eq(pomp_profile_leaf_close(p, &B, 60), POMP_ERR_NESTING,
                 "no leaf open: counted, not recorded");
    cr_expect_eq(p->nesting_errors, 2);
    struct pomp_node *bar = child(child(&p->root, &P), &B);
    cr_assert_not_null(bar);
    cr_expect_eq(bar->incl, 30);
    cr_expect_eq(child(bar, &A)->incl, 20, "closed with the wait, inside it");
}

/* A region opened inside a wait counted without a frame, in no task the
 * profile saw (a task the runtime ran unseen, or one filtered out, waits in
 * a wait of its own): the leaf becomes the frame it stands for, so that the
 * region nests in it, as with frames (a trace); beside it, the parent's
 * children would count the inner wait twice. A task run in the wait before
 * keeps its time out of the wait's own, in both forms. */
static void wait_in_an_unseen_task(struct pomp_profile *p, int leaf)
{
    pomp_profile_enter(p, &P, 0, 0);
    wait_opens(p, leaf, &B, 10);                 /* the outer taskwait */
    pomp_profile_begin(p, &waiting_task, 20, 0, NULL); /* a task it runs, seen: 20..30 */
    pomp_profile_end(p, &waiting_task, 30);
    /* an unseen task's taskwait, 40..90: a frame where no leaf can open (as
     * the event layer and the bridges do) */
    if (!leaf || !pomp_profile_leaf_open(p, &A, 40, 0))
        pomp_profile_enter(p, &A, 40, 0);
    if (pomp_profile_leaf_is(p, &A))
        pomp_profile_leaf_close(p, &A, 90);
    else
        pomp_profile_exit(p, &A, 90);
    wait_closes(p, leaf, &B, 100);
    pomp_profile_exit(p, &P, 110);
}

Test(profile, a_region_inside_a_wait_without_a_frame_nests_in_it)
{
    for (int leaf = 0; leaf < 2; leaf++) {
        struct pomp_profile *p = new_profile(16);
        wait_in_an_unseen_task(p, leaf);
        struct pomp_node *par = child(&p->root, &P), *bar = child(par, &B);
        cr_assert_not_null(bar, "leaf %d", leaf);
        cr_expect_null(child(par, &A), "leaf %d: the inner wait is not beside the outer", leaf);
        struct pomp_node *in = child(bar, &A);
        cr_assert_not_null(in, "leaf %d", leaf);
        cr_expect_eq(in->visits, 1, "leaf %d", leaf);
        cr_expect_eq(in->incl, 50, "leaf %d", leaf);
        cr_expect_eq(bar->visits, 1, "leaf %d", leaf);
        cr_expect_eq(bar->incl, 90, "leaf %d", leaf);
        cr_expect_eq(bar->excl, 30, "leaf %d: less the task's 10 and the inner wait's 50", leaf);
        cr_expect_eq(par->incl, 110, "leaf %d", leaf);
        cr_expect_eq(par->excl, 20, "leaf %d: less the wait (the task run in it included)", leaf);
        cr_expect_eq(p->depth, 1, "leaf %d", leaf);
        cr_expect_eq(p->nesting_errors, 0, "leaf %d", leaf);
        cr_expect_null(p->leaf.region, "leaf %d", leaf);
        free_profile();
    }
}

/* The frame a leaf stands on closes first (an exit of the enclosing region
 * before the wait's): the leaf goes with it, counted as a nesting error, and
 * the next wait gets a leaf again. */
Test(profile, a_wait_without_a_frame_goes_with_its_frame)
{
    struct pomp_profile *p = new_profile(16);
    pomp_profile_enter(p, &P, 0, 0);
    cr_assert(pomp_profile_leaf_open(p, &B, 10, 0));
    pomp_profile_exit(p, &P, 20);
    cr_expect_eq(p->nesting_errors, 1);
    cr_expect_null(p->leaf.region);
    pomp_profile_enter(p, &P, 30, 0);
    cr_expect(pomp_profile_leaf_open(p, &B, 40, 0));
    cr_expect(pomp_profile_leaf_is(p, &B));
    cr_expect_eq(pomp_profile_leaf_close(p, &B, 50), POMP_SUCCESS);
    pomp_profile_exit(p, &P, 60);
    struct pomp_node *bar = child(child(&p->root, &P), &B);
    cr_assert_not_null(bar);
    cr_expect_eq(bar->visits, 1);
    cr_expect_eq(bar->incl, 10);
}

/* Inside a task, a wait without a frame leaves out the tasks run in it (a task
 * switch), as its frame would: task T waits 10..70 and runs task U 20..50. */
static void task_waits_for_a_task(struct pomp_profile *p, int leaf)
{
    static struct POMP_Region_s U = {.task_root = 1};
    pomp_profile_begin(p, &waiting_task, 0, 0, NULL);
    wait_opens(p, leaf, &B, 10);
    pomp_profile_begin(p, &U, 20, 0, NULL);
    pomp_profile_end(p, &U, 50);
    wait_closes(p, leaf, &B, 70);
    pomp_profile_end(p, &waiting_task, 100);
}

Test(profile, a_wait_inside_a_task_without_a_frame_counts_as_with_one)
{
    for (int leaf = 0; leaf < 2; leaf++) {
        struct pomp_profile *p = new_profile(16);
        task_waits_for_a_task(p, leaf);
        struct pomp_node *t = task_root_node(p, &waiting_task), *bar = t ? child(t, &B) : NULL;
        cr_assert_not_null(bar, "leaf %d", leaf);
        cr_expect_eq(bar->visits, 1, "leaf %d", leaf);
        cr_expect_eq(bar->incl, 30, "leaf %d: 60 ticks less the other task's 30", leaf);
        cr_expect_eq(bar->excl, 30, "leaf %d", leaf);
        cr_expect_eq(bar->overlap, 0, "leaf %d", leaf);
        cr_expect_eq(t->incl, 70, "leaf %d", leaf);
        cr_expect_eq(t->excl, 40, "leaf %d", leaf);
        cr_expect_eq(p->depth, 1, "leaf %d", leaf);
        cr_expect_eq(p->nesting_errors, 0, "leaf %d", leaf);
        free_profile();
    }
}

/* A task run at once inside its creation (undeferred) is a task root as any
 * other, whether the creation opened a leaf or a frame: a recursion of
 * undeferred tasks folds, and the creation's own time leaves the task out. */
static void undeferred_task(struct pomp_profile *p, int leaf)
{
    pomp_profile_enter(p, &P, 0, 0);
    if (leaf)
        cr_assert(pomp_profile_leaf_open(p, &waiting_task, 10, 1));
    else
        pomp_profile_enter(p, &waiting_task, 10, 0);
    pomp_profile_begin(p, &waiting_task, 20, 0, NULL);
    pomp_profile_enter(p, &A, 30, 0); /* inside the task */
    pomp_profile_exit(p, &A, 40);
    pomp_profile_end(p, &waiting_task, 50);
    cr_expect(!leaf || pomp_profile_leaf_is(p, &waiting_task), "leaf %d", leaf);
    if (leaf)
        cr_assert_eq(pomp_profile_leaf_close(p, &waiting_task, 60), POMP_SUCCESS);
    else
        pomp_profile_exit(p, &waiting_task, 60);
    pomp_profile_exit(p, &P, 70);
}

Test(profile, an_undeferred_task_is_a_task_root_with_a_leaf_or_a_frame)
{
    for (int leaf = 0; leaf < 2; leaf++) {
        struct pomp_profile *p = new_profile(16);
        undeferred_task(p, leaf);
        struct pomp_node *par = child(&p->root, &P), *c = par ? child(par, &waiting_task) : NULL;
        struct pomp_node *t = task_root_node(p, &waiting_task);
        cr_assert_not_null(c, "leaf %d", leaf);
        cr_assert_not_null(t, "leaf %d", leaf);
        cr_expect_eq(c->visits, 1, "leaf %d", leaf);
        cr_expect_eq(c->begins, 0, "leaf %d", leaf);
        cr_expect_eq(c->incl, 50, "leaf %d", leaf);
        cr_expect_eq(c->excl, 20, "leaf %d: the task's 30 ticks are its own", leaf);
        cr_expect_eq(t->begins, 1, "leaf %d", leaf);
        cr_expect_eq(t->incl, 30, "leaf %d", leaf);
        cr_assert_not_null(child(t, &A), "leaf %d: what the task did nests in its root", leaf);
        cr_expect_eq(par->excl, 20, "leaf %d", leaf);
        cr_expect_eq(p->nesting_errors, 0, "leaf %d", leaf);
        free_profile();
    }
}

/* A leaf open when measurement ends (exit() inside a barrier) is closed then
 * and counted open at the end, as a frame is. */
Test(profile, a_wait_without_a_frame_open_at_the_end)
{
    struct pomp_profile *p = new_profile(16);
    pomp_profile_enter(p, &P, 0, 0);
    cr_assert(pomp_profile_leaf_open(p, &B, 10, 0));
    pomp_profile_close_open(p, 100);
    struct pomp_node *par = child(&p->root, &P), *bar = par ? child(par, &B) : NULL;
    cr_assert_not_null(bar);
    cr_expect_eq(bar->incl, 90);
    cr_expect_eq(par->incl, 100);
    cr_expect_eq(par->excl, 10);
    cr_expect_eq(p->open_at_end, 2);
    cr_expect_eq(p->depth, 1);
}

/* ... and so is one open outside every region (a league worker's teams
 * barrier, whose end LLVM libomp reports after pomp wrote its output): it
 * was dropped without a word. */
Test(profile, a_wait_without_a_frame_outside_every_region_open_at_the_end)
{
    struct pomp_profile *p = new_profile(16);
    cr_assert(pomp_profile_leaf_open(p, &B, 10, 0));
    pomp_profile_close_open(p, 100);
    struct pomp_node *bar = child(&p->root, &B);
    cr_assert_not_null(bar);
    cr_expect_eq(bar->visits, 1);
    cr_expect_eq(bar->incl, 90);
    cr_expect_eq(p->open_at_end, 1);
    cr_expect_null(p->leaf.region);
}

/* A task run inside a wait open without a frame, which waits in the same
 * region (a taskgroup's wait in a recursion of tasks): its wait overlaps the
 * outer one, as with a frame, so the region's time over its paths counts the
 * outer wait once. */
Test(profile, a_wait_without_a_frame_is_open_outside_its_tasks)
{
    for (int leaf = 0; leaf < 2; leaf++) {
        struct pomp_profile *p = new_profile(16);
        barrier_with_a_task(p, leaf, 1);
        struct pomp_node *t = task_root_node(p, &waiting_task);
        cr_assert_not_null(t);
        struct pomp_node *inner = child(t, &B);
        cr_assert_not_null(inner, "leaf %d", leaf);
        cr_expect_eq(inner->overlap, 10, "leaf %d: the inner wait lies inside the outer one", leaf);
        cr_expect_null(p->leaf.region, "leaf %d", leaf);
        free_profile();
    }
}

/* A twin of a wait open outside the tasks (an inline function's taskwait
 * inlined into a single, whose recursion in tasks waits at the function's
 * own code address: two regions, which the output folds into one): the inner
 * wait's time is its node's twin_overlap, and the node keeps the twin. A
 * region of another type with the same kind bit is no twin. */
Test(profile, a_twin_open_outside_the_tasks_is_noted)
{
    static struct POMP_Region_s outer = {.ctc = {.type = "taskwait"}, .kind_bit = 1u << 7},
                                inner = {.ctc = {.type = "taskwait"}, .kind_bit = 1u << 7},
                                other = {.ctc = {.type = "barrier"}, .kind_bit = 1u << 7};
    for (int leaf = 0; leaf < 2; leaf++) {
        struct pomp_profile *p = new_profile(16);
        pomp_profile_enter(p, &P, 0, 0);
        wait_opens(p, leaf, &outer, 10);
        pomp_profile_begin(p, &waiting_task, 20, 0, NULL);
        wait_opens(p, leaf, &inner, 30);
        wait_closes(p, leaf, &inner, 40);
        wait_opens(p, leaf, &other, 41);
        wait_closes(p, leaf, &other, 44);
        pomp_profile_end(p, &waiting_task, 50);
        wait_closes(p, leaf, &outer, 60);
        pomp_profile_exit(p, &P, 70);
        struct pomp_node *t = task_root_node(p, &waiting_task);
        cr_assert_not_null(t);
        struct pomp_node *in = child(t, &inner), *o = child(t, &other);
        cr_assert_not_null(in, "leaf %d", leaf);
        cr_assert_not_null(o, "leaf %d", leaf);
        cr_expect_eq(in->overlap, 0, "leaf %d: another region", leaf);
        cr_expect_eq(in->twin_overlap, 10, "leaf %d: all of it inside its twin's wait", leaf);
        cr_expect_eq(in->twin, &outer, "leaf %d", leaf);
        cr_expect_eq(o->twin_overlap, 0, "leaf %d: a barrier is no taskwait's twin", leaf);
        cr_expect_null(o->twin, "leaf %d", leaf);
        cr_expect_eq(p->nesting_errors, 0, "leaf %d", leaf);
        free_profile();
    }
}

/* Each task started outside tasks finds the regions open below it then: one
 * that starts after the frame below changed (A closed, B opened at the same
 * depth) finds B open outside it, not A (pomp_profile.outside_regions). */
Test(profile, a_task_finds_the_frames_open_below_it_now)
{
    static struct POMP_Region_s T = {.task_root = 1};
    struct pomp_profile *p = new_profile(16);
    pomp_profile_enter(p, &A, 0, 0);
    pomp_profile_begin(p, &T, 1, 0, NULL); /* a task inside A: A open outside it */
    pomp_profile_enter(p, &A, 2, 0);
    pomp_profile_exit(p, &A, 4);
    pomp_profile_end(p, &T, 5);
    pomp_profile_exit(p, &A, 6);
    pomp_profile_enter(p, &B, 10, 0); /* the same depth, another region */
    pomp_profile_begin(p, &T, 11, 0, NULL);
    pomp_profile_enter(p, &B, 12, 0);
    pomp_profile_exit(p, &B, 15);
    pomp_profile_enter(p, &A, 16, 0);
    pomp_profile_exit(p, &A, 17);
    pomp_profile_end(p, &T, 18);
    pomp_profile_exit(p, &B, 20);
    struct pomp_node *t = task_root_node(p, &T);
    cr_assert_not_null(t);
    struct pomp_node *b = child(t, &B), *a = child(t, &A);
    cr_assert_not_null(b);
    cr_assert_not_null(a);
    cr_expect_eq(b->overlap, 3, "B was open outside the second task");
    cr_expect_eq(a->overlap, 2, "A was open outside the first task only");
    cr_expect_eq(p->nesting_errors, 0);
}

/* The team a task's root is keyed by follows the frame below it as it
 * changes, though the frame's node stays: a parallel frame marked as its
 * team's fork after a first task ran on it, then closed and opened again at
 * the same depth unmarked. */
Test(profile, tasks_on_the_same_frames_follow_their_changes)
{
    static struct POMP_Region_s T = {.task_root = 1}, Par = {.team_region = 1};
    struct pomp_profile *p = new_profile(32);
    pomp_profile_enter(p, &Par, 0, 0);
    pomp_profile_begin(p, &T, 1, 0, NULL); /* not marked yet: no team */
    pomp_profile_end(p, &T, 2);
    struct pomp_node *par = child(&p->root, &Par);
    cr_assert_not_null(par);
    pomp_profile_mark_fork(p, par);
    pomp_profile_begin(p, &T, 3, 0, NULL); /* the same frame, now its team's fork */
    pomp_profile_end(p, &T, 5);
    pomp_profile_begin(p, &T, 6, 0, NULL);
    pomp_profile_end(p, &T, 9);
    pomp_profile_exit(p, &Par, 10);
    pomp_profile_enter(p, &Par, 20, 0); /* the same node again, not marked */
    pomp_profile_begin(p, &T, 21, 0, NULL);
    pomp_profile_end(p, &T, 22);
    pomp_profile_exit(p, &Par, 30);
    uint64_t unforked = 0, forked = 0;
    for (struct pomp_node *n = p->root.first_child; n; n = n->next_sibling) {
        if (n->region != &T || !n->task_root)
            continue;
        if (n->fork == par)
            forked += n->begins;
        else if (n->fork == NULL)
            unforked += n->begins;
    }
    cr_expect_eq(forked, 2, "the two tasks run after the mark are in its team");
    cr_expect_eq(unforked, 2, "the first task and the one in the unmarked frame are in none");
    cr_expect_eq(p->nesting_errors, 0);
}

/* A block inside a task whose thread ran another task meanwhile (an undeferred
 * task's block, whose taskwait ran a sibling): the other task's time is a task
 * switch, out of the block's time as it is out of the inclusive time. */
Test(profile, a_block_inside_a_task_leaves_out_the_tasks_run_in_it)
{
    static struct POMP_Region_s T = {.task_root = 1}, U = {.task_root = 1};
    struct pomp_profile *p = new_profile(16);
    pomp_profile_begin(p, &T, 0, 0, NULL);
    pomp_profile_enter(p, &B, 10, 0);
    pomp_profile_begin(p, &B, 11, 0, NULL);
    pomp_profile_begin(p, &U, 20, 0, NULL); /* run inside B's block */
    pomp_profile_end(p, &U, 50);
    pomp_profile_end(p, &B, 60);
    pomp_profile_exit(p, &B, 61);
    pomp_profile_end(p, &T, 70);
    struct pomp_node *b = child(task_root_node(p, &T), &B);
    cr_assert_not_null(b);
    cr_expect_eq(b->incl, 21, "51 ticks less the other task's 30");
    cr_expect_eq(b->body, 19, "49 ticks less the other task's 30, within the inclusive time");
}
