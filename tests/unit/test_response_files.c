/* Response files as gcc reads them (pompcc's @FILE arguments). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "response_files.h"

Test(response_files, splits_on_white_space_with_quotes_and_escapes)
{
    struct argv_list a = {0};
    response_files_split(&a, "  -fopenmp\t-O2\n-DNAME=\"a b\" 'c d' e\\ f '' -I\\\\x\n");
    cr_assert_eq(a.n, 7);
    cr_assert_str_eq(a.v[0], "-fopenmp");
    cr_assert_str_eq(a.v[1], "-O2");
    cr_assert_str_eq(a.v[2], "-DNAME=a b");
    cr_assert_str_eq(a.v[3], "c d");
    cr_assert_str_eq(a.v[4], "e f");
    cr_assert_str_eq(a.v[5], "");
    cr_assert_str_eq(a.v[6], "-I\\x");
    argv_free(&a);
}

Test(response_files, expands_nested_files_and_keeps_missing_ones)
{
    char inner[] = "/tmp/pomp-rsp-inner-XXXXXX", outer[] = "/tmp/pomp-rsp-outer-XXXXXX";
    int fi = mkstemp(inner), fo = mkstemp(outer);
    cr_assert(fi >= 0 && fo >= 0);
    dprintf(fi, "-c -o obj.o\n");
    dprintf(fo, "-fopenmp @%s -O2", inner);
    close(fi);
    close(fo);
    char *at = NULL;
    cr_assert(asprintf(&at, "@%s", outer) > 0);
    char *argv[] = {"pompcc", at, "m.c", "@/nonexistent/rsp", NULL};
    struct argv_list a = {0};
    response_files_expand(&a, 4, argv);
    const char *want[] = {"pompcc", "-fopenmp", "-c", "-o", "obj.o", "-O2", "m.c",
                          "@/nonexistent/rsp"};
    cr_assert_eq(a.n, sizeof want / sizeof *want);
    for (size_t i = 0; i < a.n; i++)
        cr_assert_str_eq(a.v[i], want[i]);
    argv_free(&a);
    free(at);
    unlink(inner);
    unlink(outer);
}

Test(response_files, a_file_that_names_itself_ends)
{
    char self[] = "/tmp/pomp-rsp-self-XXXXXX";
    int fd = mkstemp(self);
    cr_assert(fd >= 0);
    dprintf(fd, "-x @%s", self);
    close(fd);
    char *at = NULL;
    cr_assert(asprintf(&at, "@%s", self) > 0);
    char *argv[] = {at, NULL};
    struct argv_list a = {0};
    response_files_expand(&a, 1, argv);
    cr_assert_gt(a.n, 1); /* some -x, then the @FILE kept once the nesting is too deep */
    cr_assert_str_eq(a.v[a.n - 1], at);
    argv_free(&a);
    free(at);
    unlink(self);
}
