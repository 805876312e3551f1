/* The sampled call-path tree: paths, per-state counts, a full pool, merging. */
#include <criterion/criterion.h>

#include "pomp_sample_tree.h"

static uint32_t count_at(const struct pomp_sample_tree *t, const uintptr_t *path, size_t n,
                         enum pomp_sample_state s)
{
    uint32_t node = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = t->nodes[node].first_child;
        while (c && t->nodes[c].frame != path[i])
            c = t->nodes[c].next_sibling;
        if (!c)
            return UINT32_MAX;
        node = c;
    }
    return t->nodes[node].samples[s];
}

Test(sample_tree, shares_prefixes_and_counts_per_state)
{
    struct pomp_sample_tree t;
    cr_assert_eq(pomp_sample_tree_init(&t, 16), 0);
    uintptr_t a[] = {0x1000, 0x2000, 0x3000}, b[] = {0x1000, 0x2000, 0x4000};
    pomp_sample_tree_add(&t, a, 3, POMP_SAMPLE_WORK, 1);
    pomp_sample_tree_add(&t, a, 3, POMP_SAMPLE_WORK, 2);
    pomp_sample_tree_add(&t, a, 3, POMP_SAMPLE_LOCK, 1);
    pomp_sample_tree_add(&t, b, 3, POMP_SAMPLE_IDLE, 1);
    cr_assert_eq(t.used, 5, "root + 1000 + 2000 + 3000 + 4000, got %u nodes", t.used);
    cr_assert_eq(count_at(&t, a, 3, POMP_SAMPLE_WORK), 3);
    cr_assert_eq(count_at(&t, a, 3, POMP_SAMPLE_LOCK), 1);
    cr_assert_eq(count_at(&t, b, 3, POMP_SAMPLE_IDLE), 1);
    cr_assert_eq(count_at(&t, a, 2, POMP_SAMPLE_WORK), 0, "samples count where the path ends");
    pomp_sample_tree_destroy(&t);
}

Test(sample_tree, full_pool_counts_under_truncated)
{
    struct pomp_sample_tree t;
    cr_assert_eq(pomp_sample_tree_init(&t, 4), 0);
    uintptr_t deep[] = {0x10, 0x20, 0x30, 0x40, 0x50};
    pomp_sample_tree_add(&t, deep, 5, POMP_SAMPLE_WORK, 1);
    cr_assert_eq(t.truncated, 1);
    cr_assert_leq(t.used, t.capacity);
    uint64_t total = 0;
    for (uint32_t i = 0; i < t.used; i++)
        total += t.nodes[i].samples[POMP_SAMPLE_WORK];
    cr_assert_eq(total, 1, "the sample is kept, somewhere on its path");
    pomp_sample_tree_destroy(&t);
}

Test(sample_tree, merge_adds_paths_and_grows)
{
    struct pomp_sample_tree a, b, m;
    cr_assert_eq(pomp_sample_tree_init(&a, 8), 0);
    cr_assert_eq(pomp_sample_tree_init(&b, 8), 0);
    cr_assert_eq(pomp_sample_tree_init(&m, 2), 0);
    uintptr_t p[] = {0x1, 0x2}, q[] = {0x1, 0x3};
    pomp_sample_tree_add(&a, p, 2, POMP_SAMPLE_WORK, 2);
    pomp_sample_tree_add(&b, p, 2, POMP_SAMPLE_WORK, 3);
    pomp_sample_tree_add(&b, q, 2, POMP_SAMPLE_CRITICAL, 1);
    cr_assert_eq(pomp_sample_tree_merge(&m, &a), 0);
    cr_assert_eq(pomp_sample_tree_merge(&m, &b), 0);
    cr_assert_eq(count_at(&m, p, 2, POMP_SAMPLE_WORK), 5);
    cr_assert_eq(count_at(&m, q, 2, POMP_SAMPLE_CRITICAL), 1);
    cr_assert_eq(m.used, 4);
    pomp_sample_tree_destroy(&a);
    pomp_sample_tree_destroy(&b);
    pomp_sample_tree_destroy(&m);
}

Test(sample_tree, states_have_names_and_pseudo_frames)
{
    cr_assert_str_eq(pomp_sample_state_name(POMP_SAMPLE_IDLE), "idle");
    cr_assert_str_eq(pomp_sample_state_pseudo_frame(POMP_SAMPLE_IDLE), "<OMP-idle>");
    cr_assert_str_eq(pomp_sample_state_pseudo_frame(POMP_SAMPLE_LOCK), "<OMP-lock_wait>");
    cr_assert_str_eq(pomp_sample_state_pseudo_frame(POMP_SAMPLE_WORK), "");
    cr_assert(POMP_SAMPLE_REDUCTION < POMP_SAMPLE_FIRST_WAIT, "reduction is OpenMP Work");
    cr_assert(POMP_SAMPLE_OVERHEAD >= POMP_SAMPLE_FIRST_WAIT, "overhead is OpenMP Wait");
}
