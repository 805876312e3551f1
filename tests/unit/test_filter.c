/* Region filters: the rule syntax, what each key matches, include and exclude
 * together, and the flag a region gets when it is made. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include <pomplib.h>

#include "pomp_filter.h"
#include "pomp_region.h"

static struct ctc region(const char *type, const char *name, const char *file)
{
    struct ctc c = {.type = type, .name = name, .file = file};
    return c;
}

Test(filter, syntax)
{
    struct pomp_filter f;
    cr_assert_eq(pomp_filter_parse("type:atomic,name:init*,file:src/*.c,solve", &f), 0);
    cr_assert_eq(f.count, 4);
    cr_expect_eq(f.rules[0].key, POMP_FILTER_TYPE);
    cr_expect_str_eq(f.rules[0].glob, "atomic");
    cr_expect_eq(f.rules[1].key, POMP_FILTER_NAME);
    cr_expect_eq(f.rules[2].key, POMP_FILTER_FILE);
    cr_expect_eq(f.rules[3].key, POMP_FILTER_ANY);
    cr_expect_str_eq(f.rules[3].glob, "solve");
    pomp_filter_free(&f);
    cr_assert_eq(pomp_filter_parse("", &f), 0);
    cr_expect_eq(f.count, 0, "an empty list has no rules");
    const char *whole[] = {"file:*.[ch]", "name:[]x]", "name:[!]x]y", "name:[^a-z]", "name:a\\[b"};
    for (size_t i = 0; i < sizeof whole / sizeof *whole; i++) {
        cr_expect_eq(pomp_filter_parse(whole[i], &f), 0, "'%s' is a valid list", whole[i]);
        pomp_filter_free(&f);
    }
    const char *bad[] = {"type:", "a,,b", "a,", ",a", "kind:x", "foo:bar,type:for",
                         "name:[ab", "name:[a,b]", "file:*.[ch", "name:x\\", "[!]"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect_eq(pomp_filter_parse(bad[i], &f), -1, "'%s' is not a valid list", bad[i]);
        cr_expect_eq(f.count, 0);
    }
}

Test(filter, keys)
{
    struct pomp_filter f;
    struct ctc crit = region("critical", "accumulate", "/home/u/src/work.c");
    struct ctc loop = region("for", NULL, "main.c");
    struct ctc broken = {0}; /* a malformed CTC: type "unknown", no name or file */
    cr_assert_eq(pomp_filter_parse("type:crit*", &f), 0);
    cr_expect(pomp_filter_matches(&f, &crit));
    cr_expect(!pomp_filter_matches(&f, &loop));
    pomp_filter_free(&f);
    cr_assert_eq(pomp_filter_parse("name:acc*", &f), 0);
    cr_expect(pomp_filter_matches(&f, &crit));
    cr_expect(!pomp_filter_matches(&f, &loop), "no name matches nothing but *");
    pomp_filter_free(&f);
    cr_assert_eq(pomp_filter_parse("file:work.c", &f), 0);
    cr_expect(pomp_filter_matches(&f, &crit), "a pattern without '/' matches the base name");
    pomp_filter_free(&f);
    cr_assert_eq(pomp_filter_parse("file:*/src/*", &f), 0);
    cr_expect(pomp_filter_matches(&f, &crit), "a pattern with '/' matches the whole path");
    cr_expect(!pomp_filter_matches(&f, &loop));
    pomp_filter_free(&f);
    cr_assert_eq(pomp_filter_parse("accumulate,for", &f), 0);
    cr_expect(pomp_filter_matches(&f, &crit), "a bare pattern matches the name");
    cr_expect(pomp_filter_matches(&f, &loop), "or the type");
    pomp_filter_free(&f);
    cr_assert_eq(pomp_filter_parse("type:unknown", &f), 0);
    cr_expect(pomp_filter_matches(&f, &broken));
    pomp_filter_free(&f);
}

Test(filter, file_compiled_in_its_own_directory)
{
    /* solver/util.c compiled in solver/: named util.c, its directory in "dir" */
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", "for");
    ctc_builder_add_file(&b, "util.c", "/home/u/app/solver");
    char *text = ctc_builder_finish(&b);
    struct ctc c;
    size_t off;
    cr_assert_eq(ctc_parse(text, &c, &off), CTC_OK, "%s", text);
    free(text);
    struct pomp_filter f;
    cr_assert_eq(pomp_filter_parse("file:*/solver/*", &f), 0);
    cr_expect(pomp_filter_matches(&f, &c), "a pattern with '/' matches the absolute path too");
    pomp_filter_free(&f);
    cr_assert_eq(pomp_filter_parse("file:*/lib/*", &f), 0);
    cr_expect(!pomp_filter_matches(&f, &c));
    pomp_filter_free(&f);
    cr_assert_eq(pomp_filter_parse("file:util.c", &f), 0);
    cr_expect(pomp_filter_matches(&f, &c), "and the name as written");
    pomp_filter_free(&f);
    ctc_free(&c);
}

Test(filter, include_and_exclude)
{
    struct pomp_filter in, ex, none = {0};
    struct ctc crit = region("critical", "accumulate", "work.c");
    struct ctc loop = region("for", NULL, "main.c");
    struct ctc single = region("single", NULL, "work.c");
    cr_assert_eq(pomp_filter_parse("file:work.c", &in), 0);
    cr_assert_eq(pomp_filter_parse("type:single", &ex), 0);
    cr_expect(pomp_filter_records(&none, &none, &loop), "no filter records everything");
    cr_expect(pomp_filter_records(&in, &none, &crit));
    cr_expect(!pomp_filter_records(&in, &none, &loop), "include: only what matches");
    cr_expect(!pomp_filter_records(&none, &ex, &single));
    cr_expect(!pomp_filter_records(&in, &ex, &single), "exclude wins over include");
    cr_expect(pomp_filter_records(&in, &ex, &crit));
    pomp_filter_free(&in);
    pomp_filter_free(&ex);
}

Test(filter, decided_when_the_region_is_made)
{
    setenv("POMP_FILTER_EXCLUDE", "type:atomic", 1);
    setenv("POMP_SUMMARY", "off", 1);
    setenv("POMP_PROFILE", "off", 1);
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-unit-filter", 1);
    static POMP_Handle_t atomic, single;
    cr_assert_eq(POMP_Atomic_event(&atomic, 0, "14*type=atomic**"), POMP_SUCCESS);
    cr_assert_eq(POMP_Single_enter(&single, 0, "14*type=single**"), POMP_SUCCESS);
    cr_assert_eq(POMP_Single_exit(single, 0), POMP_SUCCESS);
    cr_expect_eq(atomic->filtered_out, 1, "the atomic is filtered out");
    cr_expect_eq(single->filtered_out, 0);
}
