/* CTC strings: building, parsing, escapes and every error with its offset. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctc.h"

static char *build_demo(void)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", "parallel");
    ctc_builder_add(&b, "file", "demo.c");
    ctc_builder_add_lines(&b, "slines", 7, 8);
    ctc_builder_add_lines(&b, "elines", 12, 12);
    return ctc_builder_finish(&b);
}

Test(ctc, builds_with_length_prefix)
{
    char *s = build_demo();
    cr_assert_str_eq(s, "52*type=parallel*file=demo.c*slines=7,8*elines=12,12**");
    free(s);
}

Test(ctc, shortest_string)
{
    struct ctc c;
    size_t off;
    cr_assert_eq(ctc_parse("2**", &c, &off), CTC_OK);
    cr_assert_eq(c.nattrs, 0);
    ctc_free(&c);
}

Test(ctc, parses_known_keys)
{
    char *s = build_demo();
    struct ctc c;
    size_t off;
    cr_assert_eq(ctc_parse(s, &c, &off), CTC_OK);
    cr_assert_str_eq(c.type, "parallel");
    cr_assert_str_eq(c.file, "demo.c");
    cr_assert_eq(c.start_line_first, 7);
    cr_assert_eq(c.start_line_last, 8);
    cr_assert_eq(c.end_line_first, 12);
    cr_assert_eq(c.end_line_last, 12);
    cr_assert_null(c.name);
    ctc_free(&c);
    free(s);
}

Test(ctc, seed_example_length_is_checked)
{
    /* seed 002 prints 51 for this string; by its own rule it has 53 characters */
    struct ctc c;
    size_t off = 99;
    cr_assert_eq(ctc_parse("51*type=preregion*file=demo.c*slines=7,8*elines=12,12**", &c, &off),
                 CTC_ERR_LENGTH_MISMATCH);
    cr_assert_eq(off, 0);
    cr_assert_eq(ctc_parse("53*type=preregion*file=demo.c*slines=7,8*elines=12,12**", &c, &off),
                 CTC_OK);
    cr_assert_str_eq(c.type, "preregion");
    ctc_free(&c);
}

Test(ctc, star_and_backslash_round_trip)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "name", "a*b\\c");
    ctc_builder_add(&b, "file", "dir*/x.c");
    char *s = ctc_builder_finish(&b);
    cr_assert_str_eq(s, "30*name=a\\*b\\\\c*file=dir\\*/x.c**");
    struct ctc c;
    size_t off;
    cr_assert_eq(ctc_parse(s, &c, &off), CTC_OK);
    cr_assert_str_eq(c.name, "a*b\\c");
    cr_assert_str_eq(c.file, "dir*/x.c");
    ctc_free(&c);
    free(s);
}

/* Random values of '*', '\\', '=' and plain runs, many fields: what the
 * builder escapes (a run at a time) the parser gives back (into one block). */
Test(ctc, random_values_round_trip)
{
    static const char alphabet[] = "ab*\\=/.x";
    static const char *const keys[] = {"type", "name", "file", "codeptr", "vendorA", "vendorB"};
    srand(5);
    for (int round = 0; round < 5000; round++) {
        char values[6][40];
        size_t nkeys = 1 + (size_t)(rand() % 6);
        struct ctc_builder b;
        ctc_builder_init(&b);
        for (size_t k = 0; k < nkeys; k++) {
            size_t len = (size_t)(rand() % 39);
            for (size_t i = 0; i < len; i++)
                values[k][i] = alphabet[rand() % (int)(sizeof alphabet - 1)];
            values[k][len] = '\0';
            ctc_builder_add(&b, keys[k], values[k]);
        }
        char *s = ctc_builder_finish(&b);
        cr_assert_not_null(s);
        struct ctc c;
        size_t off;
        cr_assert_eq(ctc_parse(s, &c, &off), CTC_OK, "%s", s);
        cr_assert_eq(c.nattrs, nkeys);
        for (size_t k = 0; k < nkeys; k++) {
            cr_assert_str_eq(c.attrs[k].key, keys[k]);
            cr_assert_str_eq(c.attrs[k].value, values[k], "%s", s);
        }
        ctc_free(&c);
        free(s);
    }
}

Test(ctc, unknown_keys_are_kept_in_order)
{
    struct ctc c;
    size_t off;
    cr_assert_eq(ctc_parse("27*type=for*vendorKey=42*x=**", &c, &off), CTC_OK);
    cr_assert_eq(c.nattrs, 3);
    cr_assert_str_eq(c.attrs[1].key, "vendorKey");
    cr_assert_str_eq(ctc_get(&c, "vendorKey"), "42");
    cr_assert_str_eq(ctc_get(&c, "x"), "");
    cr_assert_null(ctc_get(&c, "missing"));
    ctc_free(&c);
}

Test(ctc, a_finished_string_takes_more_fields)
{
    char *s = build_demo();
    struct ctc_builder b;
    cr_assert_eq(ctc_builder_init_from(&b, s), 0);
    ctc_builder_add(&b, "bodyEvents", "none");
    char *more = ctc_builder_finish(&b);
    cr_assert_str_eq(more, "68*type=parallel*file=demo.c*slines=7,8*elines=12,12*bodyEvents=none**");
    struct ctc c;
    size_t off;
    cr_assert_eq(ctc_parse(more, &c, &off), CTC_OK);
    cr_assert_str_eq(ctc_get(&c, "bodyEvents"), "none");
    ctc_free(&c);
    free(more);
    free(s);
    cr_assert_eq(ctc_builder_init_from(&b, "2**"), 0);
    ctc_builder_add(&b, "k", "v");
    more = ctc_builder_finish(&b);
    cr_assert_str_eq(more, "6*k=v**");
    free(more);
    cr_assert_eq(ctc_builder_init_from(&b, "*type=x**"), -1, "no length");
    cr_assert_eq(ctc_builder_init_from(&b, "9*type=x*"), -1, "not finished");
}

struct bad_case {
    const char *s;
    enum ctc_error error;
    size_t offset;
};

Test(ctc, malformed_strings_report_code_and_offset)
{
    static const struct bad_case cases[] = {
        {"", CTC_ERR_EMPTY, 0},
        {"*type=x**", CTC_ERR_LENGTH_SYNTAX, 0},
        {"12type=x**", CTC_ERR_LENGTH_SYNTAX, 2},
        {"10*type=x*", CTC_ERR_NO_TERMINATOR, 10},
        {"9*type=x**junk", CTC_ERR_NO_TERMINATOR, 10},
        {"8*type=x**", CTC_ERR_LENGTH_MISMATCH, 0},
        {"9*typex**", CTC_ERR_FIELD_SYNTAX, 2},
        {"5*=x**", CTC_ERR_FIELD_SYNTAX, 2},
        {"10*a=\\q**", CTC_ERR_BAD_ESCAPE, 5},
        {"12*a=1*a=2**", CTC_ERR_DUPLICATE_KEY, 7},
        {"13*slines=9,3**", CTC_ERR_BAD_LINES, 3},
        {"13*elines=x,3**", CTC_ERR_BAD_LINES, 3},
        {"13*slines=0,3**", CTC_ERR_BAD_LINES, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct ctc c;
        size_t off = 12345;
        enum ctc_error e = ctc_parse(cases[i].s, &c, &off);
        cr_expect_eq(e, cases[i].error, "\"%s\": error %d (%s), expected %d", cases[i].s, e,
                     ctc_error_string(e), cases[i].error);
        cr_expect_eq(off, cases[i].offset, "\"%s\": offset %zu, expected %zu", cases[i].s, off,
                     cases[i].offset);
        cr_expect_eq(c.nattrs, 0, "\"%s\": a failed parse leaves nothing behind", cases[i].s);
    }
}

Test(ctc, null_is_empty)
{
    struct ctc c;
    size_t off;
    cr_assert_eq(ctc_parse(NULL, &c, &off), CTC_ERR_EMPTY);
}

Test(ctc, too_many_fields)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    char key[16];
    for (int i = 0; i <= CTC_MAX_ATTRS; i++) {
        snprintf(key, sizeof key, "k%d", i);
        ctc_builder_add(&b, key, "v");
    }
    char *s = ctc_builder_finish(&b);
    struct ctc c;
    size_t off;
    cr_assert_eq(ctc_parse(s, &c, &off), CTC_ERR_TOO_MANY);
    free(s);
}

Test(ctc, every_error_has_a_message)
{
    for (int e = CTC_OK; e <= CTC_ERR_NO_MEMORY; e++)
        cr_assert(strlen(ctc_error_string((enum ctc_error)e)) > 0);
}

/* A region's file as a program running in cwd names it (ctc_file_seen_from):
 * the instrumenter's "dir" and "file" joined, below cwd relative to it. */
static char *seen(const char *file, const char *dir, const char *cwd)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", "parallel");
    ctc_builder_add_file(&b, file, dir);
    char *s = ctc_builder_finish(&b);
    struct ctc c;
    size_t off;
    cr_assert_eq(ctc_parse(s, &c, &off), CTC_OK, "%s", s);
    char *out = ctc_file_seen_from(&c, cwd);
    ctc_free(&c);
    free(s);
    return out;
}

static void assert_seen(const char *file, const char *dir, const char *cwd, const char *expected)
{
    char *got = seen(file, dir, cwd);
    if (!expected)
        cr_assert_null(got, "%s from %s in %s: %s", file, dir, cwd, got);
    else
        cr_assert_str_eq(got ? got : "(null)", expected, "%s from %s in %s", file, dir, cwd);
    free(got);
}

Test(ctc, file_seen_from_where_the_program_runs)
{
    assert_seen("src/a.c", "/w", "/w", "src/a.c");
    assert_seen("src/a.c", "/w", "/w/run", "/w/src/a.c");
    assert_seen("src/a.c", "/w", "/", "w/src/a.c");
    assert_seen("a.c", "/w/src", "/w", "src/a.c");
    assert_seen("../k.h", "/w/sub", "/w", "k.h");
    assert_seen("../k.h", "/w/sub", "/w/sub", "/w/k.h");
    assert_seen("./x/../y.c", "/w", "/w", "y.c");
    assert_seen("../../../c.h", "/a/b", "/a", "/c.h");
    assert_seen("a.c", "/wx", "/w", "/wx/a.c"); /* a prefix of the name is no directory */
}

Test(ctc, file_without_dir_stays)
{
    /* absolute (CMake's /src/build/../main.c): normalized, below cwd relative */
    assert_seen("/w/build/../main.c", "/w", "/w", "main.c");
    assert_seen("/abs/./x/../a.c", "/w", "/w", "/abs/a.c");
    assert_seen("a.c", NULL, "/w", NULL);       /* no directory known (an older instrumenter) */
    assert_seen("a.c", "relative", "/w", NULL); /* not absolute: not written either */
}

Test(ctc, any_path_seen_from_where_the_program_runs)
{
    const char *cases[][3] = {{"/w/src/a.c", "/w", "src/a.c"},
                              {"/w/src/../inc/k.h", "/w", "inc/k.h"},
                              {"/x/a.c", "/w", "/x/a.c"},
                              {"rel/a.c", "/w", "rel/a.c"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = ctc_path_seen_from(cases[i][0], cases[i][1]);
        cr_assert_str_eq(got, cases[i][2], "%s from %s", cases[i][0], cases[i][1]);
        free(got);
    }
}
