/* The directive grammar: names, clauses with raw arguments, and error columns. */
#include <criterion/criterion.h>
#include <string.h>

#include "directive.h"

Test(directive, combined_name_and_clauses)
{
    struct directive d;
    cr_assert_eq(directive_parse("omp parallel for reduction(+:s) schedule(dynamic, 4) private(a,b)", &d), 0);
    cr_assert_str_eq(d.sentinel, "omp");
    cr_assert_str_eq(d.name, "parallel for");
    cr_assert_eq(d.nclauses, 3);
    cr_assert_str_eq(d.clauses[0].word, "reduction");
    cr_assert_str_eq(d.clauses[0].arg, "+:s");
    cr_assert_str_eq(d.clauses[1].arg, "dynamic, 4");
    cr_assert_eq(d.clauses[1].column, 32);
    cr_assert_str_eq(directive_clause(&d, "private")->arg, "a,b");
    cr_assert_null(directive_clause(&d, "nowait"));
    directive_free(&d);
}

Test(directive, longest_name_wins)
{
    static const char *const cases[][2] = {
        {"omp target teams distribute parallel for simd map(to: a)", "target teams distribute parallel for simd"},
        {"omp for ordered", "for"},
        {"omp cancellation point for", "cancellation point"},
        {"omp taskloop simd grainsize(4)", "taskloop simd"},
        {"  omp   single   copyprivate(x)", "single"},
        {"omp barrier", "barrier"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct directive d;
        cr_assert_eq(directive_parse(cases[i][0], &d), 0, "%s: %s", cases[i][0], d.error);
        cr_expect_str_eq(d.name, cases[i][1]);
        directive_free(&d);
    }
}

Test(directive, critical_name_is_the_directive_argument)
{
    struct directive d;
    cr_assert_eq(directive_parse("omp critical(accumulate) hint(omp_sync_hint_none)", &d), 0);
    cr_assert_str_eq(d.name, "critical");
    cr_assert_str_eq(d.name_arg, "accumulate");
    cr_assert_eq(d.nclauses, 1);
    directive_free(&d);
}

Test(directive, arguments_are_balanced_and_keep_strings)
{
    struct directive d;
    cr_assert_eq(directive_parse("omp parallel if(f(\")\", ')')) num_threads((n + 1) * 2)", &d), 0);
    cr_assert_str_eq(directive_clause(&d, "if")->arg, "f(\")\", ')')");
    cr_assert_str_eq(directive_clause(&d, "num_threads")->arg, "(n + 1) * 2");
    directive_free(&d);
}

Test(directive, commas_between_clauses)
{
    struct directive d;
    cr_assert_eq(directive_parse("omp for, nowait, schedule(static)", &d), 0);
    cr_assert_eq(d.nclauses, 2);
    directive_free(&d);
}

struct bad {
    const char *text;
    int column;
    const char *message;
};

Test(directive, errors_name_the_column)
{
    static const struct bad cases[] = {
        {"omp parallel private(x", 20, "unbalanced '('"},
        {"omp parallel )", 13, "unbalanced ')'"},
        {"omp parallel $x", 13, "unexpected character '$'"},
        {"omp frobnicate", 4, "unknown OpenMP directive 'frobnicate'"},
        {"omp", 0, "unknown OpenMP directive"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct directive d;
        cr_assert_eq(directive_parse(cases[i].text, &d), -1, "%s", cases[i].text);
        cr_expect_eq(d.error_column, cases[i].column, "%s: column %d", cases[i].text, d.error_column);
        cr_expect(strstr(d.error, cases[i].message) != NULL, "%s: '%s'", cases[i].text, d.error);
        directive_free(&d);
    }
}

Test(directive, other_sentinels_keep_their_items)
{
    struct directive d;
    cr_assert_eq(directive_parse("pomp inst begin(phase1)", &d), 0);
    cr_assert_str_eq(d.sentinel, "pomp");
    cr_assert_null(d.name);
    cr_assert_eq(d.nitems, 2);
    cr_assert_str_eq(d.items[1].word, "begin");
    cr_assert_str_eq(d.items[1].arg, "phase1");
    directive_free(&d);
}
