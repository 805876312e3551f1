/* libpomp: user values (POMP_User_region_begin_values, _end_values,
 * POMP_User_event_values): statistics per position, bad lists, levels,
 * POMP_Off, the per-thread pool, saturation, and the merge of threads. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <pomplib.h>

#include "ctc.h"
#include "pomp_merge.h"
#include "pomp_profile.h"
#include "pomp_thread.h"
#include "pomp_values.h"

static void quiet_output(void)
{
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-unit-test-output", 1);
    setenv("POMP_SUMMARY", "off", 1);
}
TestSuite(values, .init = quiet_output);

static char *ctc_for(const char *type, const char *name)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", type);
    ctc_builder_add(&b, "file", "v.c");
    ctc_builder_add(&b, "name", name);
    return ctc_builder_finish(&b);
}

static const struct pomp_value_block *block_of(const struct pomp_node *n, enum pomp_value_kind k)
{
    for (const struct pomp_value_block *b = n->values; b; b = b->next)
        if (b->kind == k)
            return b;
    return NULL;
}

static void assert_stat(const struct pomp_value_stat *s, uint64_t count, int64_t sum, int64_t min,
                        int64_t max)
{
    cr_assert_eq(s->count, count);
    cr_assert_eq(s->sum, sum);
    cr_assert_eq(s->min, min);
    cr_assert_eq(s->max, max);
}

Test(values, begin_and_end_values_per_position)
{
    POMP_Handle_t h = NULL;
    char *c = ctc_for("userregion", "phase");
    const POMP_Int64 b1[] = {10, -5}, b2[] = {30, 7}, e1[] = {100};
    cr_assert_eq(POMP_User_region_begin_values(&h, 0, 2, b1, c), POMP_SUCCESS);
    cr_assert_eq(POMP_User_region_end_values(h, 0, 1, e1), POMP_SUCCESS);
    cr_assert_eq(POMP_User_region_begin_values(&h, 0, 2, b2, c), POMP_SUCCESS);
    cr_assert_eq(POMP_User_region_end(h, 0), POMP_SUCCESS, "the plain end closes it too");
    struct pomp_node *n = pomp_tls_thread->profile.root.first_child;
    cr_assert_eq(n->region, h);
    cr_assert_eq(n->begins, 2);
    const struct pomp_value_block *b = block_of(n, POMP_VALUES_BEGIN);
    cr_assert_not_null(b);
    cr_assert_eq(b->npos, 2);
    assert_stat(&b->stat[0], 2, 40, 10, 30);
    assert_stat(&b->stat[1], 2, 2, -5, 7);
    const struct pomp_value_block *e = block_of(n, POMP_VALUES_END);
    cr_assert_not_null(e);
    cr_assert_eq(e->npos, 1);
    assert_stat(&e->stat[0], 1, 100, 100, 100);
    cr_assert_null(block_of(n, POMP_VALUES_EVENT));
    cr_assert_eq(pomp_tls_thread->profile.nesting_errors, 0);
    free(c);
}

Test(values, event_values_go_to_the_event_node)
{
    POMP_Handle_t r = NULL, ev = NULL;
    char *cr = ctc_for("userregion", "outer"), *ce = ctc_for("userevent", "tick");
    cr_assert_eq(POMP_User_region_begin(&r, 0, cr), POMP_SUCCESS);
    for (POMP_Int64 i = 1; i <= 4; i++)
        cr_assert_eq(POMP_User_event_values(&ev, 0, 1, &i, ce), POMP_SUCCESS);
    cr_assert_eq(POMP_User_region_end(r, 0), POMP_SUCCESS);
    struct pomp_node *outer = pomp_tls_thread->profile.root.first_child;
    cr_assert_null(outer->values, "no values on the enclosing region");
    struct pomp_node *tick = outer->first_child;
    cr_assert_eq(tick->region, ev);
    cr_assert_eq(tick->visits, 4);
    assert_stat(&block_of(tick, POMP_VALUES_EVENT)->stat[0], 4, 10, 1, 4);
    free(cr);
    free(ce);
}

Test(values, bad_value_lists_record_the_event_only)
{
    POMP_Handle_t h = NULL;
    char *c = ctc_for("userregion", "bad");
    POMP_Int64 many[POMP_MAX_VALUES + 1] = {0};
    cr_assert_eq(POMP_User_region_begin_values(&h, 0, POMP_MAX_VALUES + 1, many, c), POMP_ERR_VALUES);
    cr_assert_eq(POMP_User_region_end_values(h, 0, -1, many), POMP_ERR_VALUES);
    cr_assert_eq(POMP_User_region_begin_values(&h, 0, 2, NULL, c), POMP_ERR_VALUES);
    cr_assert_eq(POMP_User_region_end_values(h, 0, 0, NULL), POMP_SUCCESS, "no values is fine");
    struct pomp_node *n = pomp_tls_thread->profile.root.first_child;
    cr_assert_eq(n->begins, 2, "both regions were recorded");
    cr_assert_null(n->values);
    cr_assert_eq(pomp_tls_thread->profile.nesting_errors, 0);
    free(c);
}

Test(values, not_recorded_at_level_none)
{
    setenv("POMP_USER", "none", 1);
    POMP_Handle_t h = NULL;
    char *c = ctc_for("userevent", "x");
    POMP_Int64 v = 5;
    cr_assert_eq(POMP_User_event_values(&h, 0, 1, &v, c), POMP_SUCCESS);
    cr_assert(pomp_tls_thread == NULL || pomp_tls_thread->profile.root.first_child == NULL);
    free(c);
}

Test(values, not_recorded_while_off)
{
    POMP_Handle_t h = NULL;
    char *c = ctc_for("userregion", "off");
    POMP_Int64 v = 5;
    cr_assert_eq(POMP_Init(), POMP_SUCCESS);
    cr_assert_eq(POMP_Off(), POMP_SUCCESS);
    cr_assert_eq(POMP_User_region_begin_values(&h, 0, 1, &v, c), POMP_SUCCESS);
    cr_assert_eq(POMP_On(), POMP_SUCCESS);
    cr_assert_eq(POMP_User_region_end_values(h, 0, 1, &v), POMP_SUCCESS);
    cr_assert_null(pomp_tls_thread->profile.root.first_child, "the skipped region got no node");
    cr_assert_eq(pomp_tls_thread->profile.values.used, 0, "and no value block");
    free(c);
}

static struct POMP_Region_s *region_addr(int i)
{
    static char regions[8];
    return (struct POMP_Region_s *)&regions[i];
}

Test(values, full_pool_drops_and_counts)
{
    struct pomp_value_pool vp;
    cr_assert_eq(pomp_value_pool_init(&vp, 2), 0);
    struct pomp_node nodes[3] = {{.region = region_addr(0)}, {.region = region_addr(1)},
                                 {.region = region_addr(2)}};
    POMP_Int64 v = 1;
    cr_assert_eq(pomp_values_add(&vp, &nodes[0], POMP_VALUES_BEGIN, 1, &v), 0);
    cr_assert_eq(pomp_values_add(&vp, &nodes[0], POMP_VALUES_BEGIN, 1, &v), 0, "same block again");
    cr_assert_eq(pomp_values_add(&vp, &nodes[1], POMP_VALUES_EVENT, 1, &v), 0);
    cr_assert_eq(pomp_values_add(&vp, &nodes[2], POMP_VALUES_EVENT, 1, &v), -1);
    cr_assert_eq(vp.dropped, 1);
    cr_assert_eq(nodes[0].values->stat[0].count, 2);
    cr_assert_null(nodes[2].values);
    pomp_value_pool_destroy(&vp);
}

Test(values, sums_saturate_and_say_so)
{
    struct pomp_value_pool vp;
    cr_assert_eq(pomp_value_pool_init(&vp, 1), 0);
    struct pomp_node n = {0};
    POMP_Int64 v[2] = {INT64_MAX - 1, -3};
    cr_assert_eq(pomp_values_add(&vp, &n, POMP_VALUES_END, 2, v), 0);
    cr_assert_eq(pomp_values_add(&vp, &n, POMP_VALUES_END, 2, v), 0);
    cr_assert_eq(n.values->stat[0].sum, INT64_MAX);
    cr_assert_eq(n.values->sum_saturated, 1, "position 0 saturated, position 1 did not");
    assert_stat(&n.values->stat[1], 2, -6, -3, -3);
    pomp_value_pool_destroy(&vp);
}

Test(values, merge_adds_blocks_of_the_same_kind)
{
    struct pomp_value_block a = {.kind = POMP_VALUES_BEGIN, .npos = 1, .stat = {{2, 10, 4, 6}}};
    struct pomp_value_block b = {.kind = POMP_VALUES_BEGIN, .npos = 2,
                                 .stat = {{1, -1, -1, -1}, {1, 9, 9, 9}}};
    struct pomp_value_block c = {.kind = POMP_VALUES_EVENT, .npos = 1, .stat = {{1, 3, 3, 3}}};
    b.next = &c;
    struct pomp_value_block *m = NULL;
    cr_assert_eq(pomp_values_merge(&m, &a), 0);
    cr_assert_eq(pomp_values_merge(&m, &b), 0);
    const struct pomp_value_block *begin = NULL, *event = NULL;
    for (const struct pomp_value_block *x = m; x; x = x->next)
        *(x->kind == POMP_VALUES_BEGIN ? &begin : &event) = x;
    cr_assert_not_null(begin);
    cr_assert_not_null(event);
    cr_assert_eq(begin->npos, 2);
    assert_stat(&begin->stat[0], 3, 9, -1, 6);
    assert_stat(&begin->stat[1], 1, 9, 9, 9);
    assert_stat(&event->stat[0], 1, 3, 3, 3);
    pomp_values_free(m);
}

/* Two threads record values on one region: the merge keeps a column each. */
static POMP_Handle_t shared;
static char *shared_ctc;
static void *add_from_thread(void *arg)
{
    POMP_Int64 v = (POMP_Int64)(intptr_t)arg;
    POMP_User_region_begin_values(&shared, 1, 1, &v, shared_ctc);
    POMP_User_region_end(shared, 1);
    return NULL;
}

Test(values, per_thread_columns_after_merge)
{
    shared_ctc = ctc_for("userregion", "both");
    POMP_Int64 v = 3;
    POMP_User_region_begin_values(&shared, 0, 1, &v, shared_ctc);
    POMP_User_region_end(shared, 0);
    pthread_t th;
    pthread_create(&th, NULL, add_from_thread, (void *)(intptr_t)11);
    pthread_join(th, NULL);
    struct pomp_merged m;
    cr_assert_eq(pomp_merge(&m), 0);
    cr_assert_eq(m.count, 2);
    assert_stat(&pomp_merged_stat(&m, 1, 0)->values->stat[0], 1, 3, 3, 3);
    assert_stat(&pomp_merged_stat(&m, 1, 1)->values->stat[0], 1, 11, 11, 11);
    pomp_merged_free(&m);
    free(shared_ctc);
}
