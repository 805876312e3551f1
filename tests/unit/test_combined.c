/* Splitting combined constructs: which leaf gets which clause (OpenMP 5.2 §17.2),
 * and the shared(...) a default clause needs on the outer leaf. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "combined.h"
#include "directive.h"

/* "word(arg) word ..." of a directive's clauses, in order. */
static char *clauses(const struct directive *d)
{
    struct strbuf b = {0};
    sb_add(&b, "");
    for (size_t i = 0; i < d->nclauses; i++) {
        sb_printf(&b, "%s%s", i ? " " : "", d->clauses[i].word);
        if (d->clauses[i].arg)
            sb_printf(&b, "(%s)", d->clauses[i].arg);
    }
    return b.s;
}

/* Splits "omp <text>" once and checks the outer and inner clause lists. */
static void check_split_vars(const char *text, const char *loop_vars, const char *outer,
                             const char *inner, const char *outer_clauses,
                             const char *inner_clauses)
{
    struct directive d, od, id;
    cr_assert_eq(directive_parse(text, &d), 0, "%s: %s", text, d.error);
    const char *o, *i;
    cr_assert(combined_split(d.name, &o, &i), "%s is split", d.name);
    cr_assert_str_eq(o, outer);
    cr_assert_str_eq(i, inner);
    combined_distribute(&d, o, i, loop_vars, &od, &id);
    char *oc = clauses(&od), *ic = clauses(&id);
    cr_expect_str_eq(oc, outer_clauses, "%s: outer", text);
    cr_expect_str_eq(ic, inner_clauses, "%s: inner", text);
    cr_expect_str_eq(od.name, outer);
    cr_expect_str_eq(id.name, inner);
    free(oc);
    free(ic);
    combined_free(&od);
    combined_free(&id);
    directive_free(&d);
}

static void check_split(const char *text, const char *outer, const char *inner,
                        const char *outer_clauses, const char *inner_clauses)
{
    check_split_vars(text, NULL, outer, inner, outer_clauses, inner_clauses);
}

Test(combined, parallel_for)
{
    check_split("omp parallel for num_threads(4) if(n > 1) schedule(dynamic, 2) private(t) "
                "firstprivate(f) lastprivate(l) reduction(+: s) collapse(2) copyin(tp) proc_bind(close)",
                "parallel", "for", "num_threads(4) if(n > 1) copyin(tp) proc_bind(close)",
                "schedule(dynamic, 2) private(t) firstprivate(f) lastprivate(l) reduction(+: s) collapse(2)");
}

Test(combined, default_clause_shares_what_the_loop_lists)
{
    check_split("omp parallel for default(none) shared(n) private(t) reduction(+: s, q[0:4]) linear(j: 2)",
                "parallel", "for", "default(none) shared(n) shared(t, s, q, j)",
                "private(t) reduction(+: s, q[0:4]) linear(j: 2)");
}

/* default(none): the associated loops' variables declared before them are
 * private on the outer leaf, unless a clause names them already. */
Test(combined, default_none_privatizes_the_loop_variables)
{
    check_split_vars("omp parallel for simd default(none) shared(y)", "i", "parallel", "for simd",
                     "default(none) shared(y) private(i)", "");
    check_split_vars("omp parallel for simd collapse(2) default(none) reduction(+: s)", "i, j",
                     "parallel", "for simd", "default(none) shared(s) private(i, j)",
                     "collapse(2) reduction(+: s)");
    /* lastprivate: shared on the outer leaf, as the combined construct has it */
    check_split_vars("omp parallel loop default(none) lastprivate(i)", "i", "parallel", "loop",
                     "default(none) shared(i)", "lastprivate(i)");
    /* default(shared): nothing to add; no loop leaf: nothing either */
    check_split_vars("omp parallel for simd default(shared)", "i", "parallel", "for simd",
                     "default(shared)", "");
    check_split_vars("omp parallel sections default(none)", "i", "parallel", "sections",
                     "default(none)", "");
}

Test(combined, firstprivate_where_the_inner_leaf_cannot_take_it)
{
    /* loop takes no firstprivate: it stays on parallel (§17.2) */
    check_split("omp parallel loop firstprivate(f) lastprivate(l) reduction(+: s)", "parallel", "loop",
                "firstprivate(f)", "lastprivate(l) reduction(+: s)");
    /* masked takes only filter */
    check_split("omp parallel masked filter(1) private(p) firstprivate(f) reduction(+: s)",
                "parallel", "masked", "private(p) firstprivate(f) reduction(+: s)", "filter(1)");
}

Test(combined, if_with_and_without_modifier)
{
    check_split("omp parallel for simd if(parallel: a) if(simd: b)", "parallel", "for simd",
                "if(parallel: a)", "if(simd: b)");
    /* no modifier: every leaf that takes an if clause */
    check_split("omp parallel masked taskloop if(c)", "parallel", "masked taskloop", "if(c)", "if(c)");
    check_split("omp parallel for if(c)", "parallel", "for", "if(c)", "");
}

Test(combined, teams)
{
    check_split("omp teams distribute num_teams(2) thread_limit(4) firstprivate(f) reduction(+: s) "
                "dist_schedule(static, 4)",
                "teams", "distribute", "num_teams(2) thread_limit(4) reduction(+: s)",
                "firstprivate(f) dist_schedule(static, 4)");
    /* distribute simd takes a reduction too: both leaves */
    check_split("omp teams distribute simd reduction(+: s)", "teams", "distribute simd", "reduction(+: s)",
                "reduction(+: s)");
    /* teams loop is not split: its loop leaf would need the reduction, which
     * Clang rejects on a loop bound to teams (instrumented around the whole) */
    const char *outer, *inner;
    cr_assert_eq(combined_split("teams loop", &outer, &inner), 0, "teams loop is split");
}

Test(combined, allocate_follows_its_privatized_variables)
{
    check_split("omp parallel for private(x) firstprivate(y) allocate(omp_low_lat_mem_alloc: x) allocate(y)",
                "parallel", "for", "", "private(x) firstprivate(y) allocate(omp_low_lat_mem_alloc: x) allocate(y)");
    check_split("omp parallel loop firstprivate(y) allocate(y)", "parallel", "loop",
                "firstprivate(y) allocate(y)", "");
}

Test(combined, masked_taskloop_and_nested_splits)
{
    check_split("omp masked taskloop filter(0) grainsize(4) nogroup", "masked", "taskloop", "filter(0)",
                "grainsize(4) nogroup");
    check_split("omp parallel masked taskloop simd num_threads(2) filter(0) num_tasks(3)", "parallel",
                "masked taskloop simd", "num_threads(2)", "filter(0) num_tasks(3)");
}

Test(combined, composite_and_target_constructs_stay_whole)
{
    const char *o, *i;
    cr_expect_not(combined_split("distribute parallel for", &o, &i));
    cr_expect_not(combined_split("for simd", &o, &i));
    cr_expect_not(combined_split("target teams distribute parallel for", &o, &i));
    cr_expect_not(combined_split("target parallel", &o, &i));
    cr_expect_not(combined_split("taskloop simd", &o, &i));
}

Test(combined, list_variables)
{
    struct directive_item linear = {.word = "linear", .arg = "i, j: 2"};
    struct directive_item red = {.word = "reduction", .arg = "inscan, +: a[0:n], b"};
    struct directive_item aligned = {.word = "aligned", .arg = "p, q: 64"};
    struct strbuf v = {0};
    combined_list_vars(&v, &linear);
    combined_list_vars(&v, &red);
    combined_list_vars(&v, &aligned);
    cr_expect_str_eq(v.s, "i, j, a, b, p, q");
    free(v.s);
}
