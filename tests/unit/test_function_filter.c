/* --pomp-functions rules: parsing, errors, and which functions they select. */
#include <criterion/criterion.h>
#include <string.h>

#include "function_filter.h"

static struct function_filter f;
static char err[256];
static void fini(void) { function_filter_free(&f); }
TestSuite(filter, .fini = fini);

static void parse_ok(const char *spec)
{
    cr_assert_eq(function_filter_parse(&f, spec, err, sizeof err), 0, "%s: %s", spec, err);
}

Test(filter, no_rules_select_everything)
{
    cr_assert(function_filter_matches(&f, "main", "a.c"));
    cr_assert(function_filter_matches(&f, "ns::C::m", "dir/b.cpp"));
}

Test(filter, name_includes_and_excludes)
{
    parse_ok("include:solve*,include:init,exclude:solve_debug");
    cr_assert(function_filter_matches(&f, "solve", "a.c"));
    cr_assert(function_filter_matches(&f, "solve_fast", "a.c"));
    cr_assert(function_filter_matches(&f, "init", "a.c"));
    cr_assert_not(function_filter_matches(&f, "solve_debug", "a.c"), "exclude wins");
    cr_assert_not(function_filter_matches(&f, "main", "a.c"), "not included");
}

Test(filter, a_bare_pattern_is_an_include)
{
    parse_ok("kernel_*");
    cr_assert(function_filter_matches(&f, "kernel_1", "a.c"));
    cr_assert_not(function_filter_matches(&f, "main", "a.c"));
}

Test(filter, excludes_alone_keep_the_rest)
{
    parse_ok("exclude:file:util.c,exclude:tiny_*");
    cr_assert(function_filter_matches(&f, "main", "src/main.c"));
    cr_assert_not(function_filter_matches(&f, "main", "src/util.c"), "file by base name");
    cr_assert_not(function_filter_matches(&f, "tiny_helper", "src/main.c"));
}

Test(filter, file_patterns_with_a_slash_match_the_path)
{
    parse_ok("include:file:src/*");
    cr_assert(function_filter_matches(&f, "f", "src/a.c"));
    cr_assert(function_filter_matches(&f, "f", "src/deep/b.c"), "* crosses '/'");
    cr_assert_not(function_filter_matches(&f, "f", "lib/src/a.c"));
    cr_assert_not(function_filter_matches(&f, "f", "a.c"));
}

Test(filter, names_and_files_together)
{
    parse_ok("include:file:*.cpp,include:compute");
    cr_assert(function_filter_matches(&f, "compute", "x.cpp"));
    cr_assert_not(function_filter_matches(&f, "compute", "x.c"), "file include not met");
    cr_assert_not(function_filter_matches(&f, "other", "x.cpp"), "name include not met");
}

Test(filter, cxx_names_match_whole_or_by_last_part)
{
    parse_ok("include:Matrix::*,include:norm");
    cr_assert(function_filter_matches(&f, "la::Matrix::mul", "m.cpp") == 0,
              "Matrix::* does not match la::Matrix::mul whole, and not its last part");
    cr_assert(function_filter_matches(&f, "Matrix::mul", "m.cpp"));
    cr_assert(function_filter_matches(&f, "la::Vector::norm", "m.cpp"), "by last part");
    function_filter_free(&f);
    parse_ok("include:*::Matrix::*");
    cr_assert(function_filter_matches(&f, "la::Matrix::mul", "m.cpp"));
}

Test(filter, rules_accumulate_over_calls)
{
    parse_ok("include:a");
    parse_ok("include:b");
    cr_assert_eq(f.n, 2);
    cr_assert(function_filter_matches(&f, "b", "x.c"));
}

Test(filter, errors_name_the_rule)
{
    cr_assert_eq(function_filter_parse(&f, "include:", err, sizeof err), -1);
    cr_assert(strstr(err, "'include:' has no pattern"), "%s", err);
    function_filter_free(&f);
    cr_assert_eq(function_filter_parse(&f, "include:a,,exclude:b", err, sizeof err), -1);
    cr_assert(strstr(err, "empty rule in 'include:a,,exclude:b'"), "%s", err);
    function_filter_free(&f);
    cr_assert_eq(function_filter_parse(&f, "exclude:file:", err, sizeof err), -1);
    cr_assert(strstr(err, "'exclude:file:' has no pattern"), "%s", err);
}
