/* Response files and long option spellings as gcc reads them (pompcc's @FILE
 * arguments, --output=F). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "long_options.h"
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

Test(long_options, become_their_short_forms_with_their_values)
{
    char *argv[] = {"pompcc", "--compile", "--output=p.o", "--include-directory", "inc",
                    "--define-macro=N=2", "--write-dependencies", "--std", "c99",
                    "--optimize=2", "--debug", "--warn-shadow", "--machine-avx2",
                    "--sysroot", "/s", "--compile=x", "p.c", "--output", NULL};
    struct argv_list a = {0};
    long_options_expand(&a, 18, argv);
    const char *want[] = {"pompcc", "-c", "-o", "p.o", "-I", "inc", "-D", "N=2", "-MD",
                          "-std=c99", "-O2", "-g", "-Wshadow", "-mavx2",
                          /* gcc's own long options and unknown spellings as they are */
                          "--sysroot", "/s", "--compile=x", "p.c",
                          /* a value missing: the short form alone, for the compiler to refuse */
                          "-o"};
    cr_assert_eq(a.n, sizeof want / sizeof *want);
    for (size_t i = 0; i < a.n; i++)
        cr_assert_str_eq(a.v[i], want[i], "word %zu", i);
    argv_free(&a);
}

/* As gcc's libiberty: a backslash last in the file is dropped (kept, the
 * last word named no file: "a.c\"), and a directory is no readable file, left
 * to the compiler, which refuses it (dropped, the build went on; a probe). */
Test(response_files, drops_a_last_backslash_and_leaves_a_directory)
{
    struct argv_list a = {0};
    response_files_split(&a, "-c a.c\\");
    cr_assert_eq(a.n, 2);
    cr_assert_str_eq(a.v[1], "a.c");
    argv_free(&a);
    char *argv[] = {"pompcc", "@/tmp", "m.c", NULL};
    struct argv_list b = {0};
    response_files_expand(&b, 3, argv);
    cr_assert_eq(b.n, 3);
    cr_assert_str_eq(b.v[1], "@/tmp");
    argv_free(&b);
}
