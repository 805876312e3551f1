/* The pre-linker: which nm lines count, and the generated file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prelink.h"

static const char nm_output[] =
    "libwork.a[work.o]:\n"
    "POMP_Init_00ab12 T 0000000000000000 0000000000000042\n"
    "work T 0000000000000050 0000000000000100\n"
    "\n"
    "libwork.a[more.o]:\n"
    "POMP_Init_ffee99 T 0000000000000000 0000000000000042\n"
    "POMP_Get_handle U\n"
    "POMP_Init_00ab12 T 0000000000000000 0000000000000042\n"
    "POMP_Init_Handles T 0000000000000000 0000000000000010\n"
    "POMP_Init_data D 0000000000000000 0000000000000004\n"
    "POMP_Init_bad-name T 0000000000000000 0000000000000004\n"
    "POMP_Init_ T 0000000000000000 0000000000000004\n";

Test(prelink, collects_defined_init_functions_once)
{
    struct prelink_names n = {0};
    prelink_collect(&n, nm_output);
    cr_assert_eq(n.count, 2);
    cr_assert_str_eq(n.names[0], "POMP_Init_00ab12");
    cr_assert_str_eq(n.names[1], "POMP_Init_ffee99");
    prelink_free(&n);
}

Test(prelink, writes_init_handles)
{
    struct prelink_names n = {0};
    prelink_collect(&n, nm_output);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(prelink_write(&n, 0, f), 0);
    fclose(f);
    /* weak references: an archive member the program does not use stays out of the link */
    cr_assert(strstr(buf, "extern void POMP_Init_00ab12(void) __attribute__((weak));") != NULL, "%s", buf);
    cr_assert(strstr(buf, "void POMP_Init_Handles(void)\n{\n"
                          "    if (POMP_Init_00ab12)\n        POMP_Init_00ab12();\n"
                          "    if (POMP_Init_ffee99)\n        POMP_Init_ffee99();\n}\n") != NULL,
              "%s", buf);
    cr_assert(strstr(buf, "POMP_Constructs_left_to_runtime") == NULL, "%s", buf);
    free(buf);
    prelink_free(&n);
}

/* A link whose objects left constructs to the runtime says so to libpomp. */
Test(prelink, flags_constructs_left_to_the_runtime)
{
    struct prelink_names n = {0};
    prelink_collect(&n, nm_output);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(prelink_write(&n, 1, f), 0);
    fclose(f);
    cr_assert(strstr(buf, "const int POMP_Constructs_left_to_runtime = 1;") != NULL, "%s", buf);
    free(buf);
    prelink_free(&n);
}

Test(prelink, no_objects_gives_an_empty_function)
{
    struct prelink_names n = {0};
    prelink_collect(&n, "");
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    prelink_write(&n, 0, f);
    fclose(f);
    cr_assert(strstr(buf, "void POMP_Init_Handles(void)\n{\n}\n") != NULL);
    free(buf);
}

/* Lock calls a file left as written: a note under verbose, and a flag of
 * their own, which has the bridges follow lock waits only. */
Test(prelink, lock_calls_left_to_the_runtime)
{
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    int left = prelink_report_counts("3 3 0 a.c\nlocks 2 lock.hpp\nlocks 2 lock.hpp\n", 1, f);
    fclose(f);
    cr_assert_eq(left, PRELINK_LEFT_LOCKS, "%d", left);
    cr_assert(strstr(out, "lock.hpp: note: 2 OpenMP lock calls not rewritten") != NULL, "%s", out);
    cr_assert(strstr(strstr(out, "lock.hpp") + 1, "lock.hpp") == NULL, "said once: %s", out);
    free(out);
    out = NULL;
    f = open_memstream(&out, &size);
    left = prelink_report_counts("3 2 0 a.c\nlocks 1 b.c\n", 0, f);
    fclose(f);
    /* a.c says nothing of its left construct's kind (an older pompcc): it may be a critical */
    cr_assert_eq(left, PRELINK_LEFT_CONSTRUCTS | PRELINK_LEFT_LOCKS | PRELINK_LEFT_MUTEXES, "%d",
                 left);
    cr_assert(strstr(out, "locks") == NULL && strstr(out, "lock call") == NULL, "no note without verbose: %s", out);
    free(out);

    struct prelink_names n = {0};
    out = NULL;
    f = open_memstream(&out, &size);
    cr_assert_eq(prelink_write(&n, PRELINK_LEFT_LOCKS, f), 0);
    fclose(f);
    cr_assert(strstr(out, "const int POMP_Locks_left_to_runtime = 1;") != NULL, "%s", out);
    cr_assert(strstr(out, "POMP_Constructs_left_to_runtime") == NULL, "%s", out);
    free(out);
}

/* An object not built with pompcc that sets locks and makes no construct (a
 * thread-safe library): told by its undefined symbols (a pompcc object's
 * rewritten calls name POMP_ routines), its line followed like a left lock
 * call's. */
Test(prelink, plain_lock_calls)
{
    cr_assert(prelink_calls_lock_routines("dlsym\nomp_set_lock\nomp_unset_lock\n"));
    cr_assert(prelink_calls_lock_routines("omp_set_nest_lock_\n"), "Fortran's name");
    cr_assert(!prelink_calls_lock_routines("omp_init_lock\nomp_unset_lock\nomp_test_lock\n"),
              "no set call: no wait");
    cr_assert(!prelink_calls_lock_routines("POMP_Set_lock_enter\nomp_set_lock\n"),
              "a pompcc object's calls");
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    int left = prelink_report_counts("plainlocks libapp.a(lock.o)\n", 1, f);
    fclose(f);
    cr_assert_eq(left, PRELINK_LEFT_LOCKS, "%d", left);
    cr_assert(strstr(out, "libapp.a(lock.o): note: OpenMP lock calls not built with pompcc") != NULL,
              "%s", out);
    free(out);
}

/* The constructs a file left are known to hold no critical or ordered one
 * ("mutexes 0 file"): the link says so, and the bridges follow no mutex for
 * them; one that may be ("mutexes 1"), or a file that does not say, does not. */
Test(prelink, constructs_left_without_mutexes)
{
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    int left = prelink_report_counts("3 2 0 a.c\nmutexes 0 a.c\n4 4 0 b.c\n", 0, f);
    cr_assert_eq(left, PRELINK_LEFT_CONSTRUCTS, "%d", left);
    left = prelink_report_counts("3 2 0 a.c\nmutexes 0 a.c\n2 1 0 c.c\nmutexes 1 c.c\n", 0, f);
    cr_assert_eq(left, PRELINK_LEFT_CONSTRUCTS | PRELINK_LEFT_MUTEXES, "%d", left);
    left = prelink_report_counts("3 2 0 a.c\nmutexes 0 a.c\n2 1 0 d.c\n", 0, f);
    cr_assert_eq(left, PRELINK_LEFT_CONSTRUCTS | PRELINK_LEFT_MUTEXES, "d.c does not say: %d", left);
    fclose(f);
    free(out);

    struct prelink_names n = {0};
    out = NULL;
    f = open_memstream(&out, &size);
    cr_assert_eq(prelink_write(&n, PRELINK_LEFT_CONSTRUCTS, f), 0);
    fclose(f);
    cr_assert(strstr(out, "const int POMP_Constructs_left_without_mutexes = 1;") != NULL, "%s", out);
    free(out);
    out = NULL;
    f = open_memstream(&out, &size);
    cr_assert_eq(prelink_write(&n, PRELINK_LEFT_CONSTRUCTS | PRELINK_LEFT_MUTEXES, f), 0);
    fclose(f);
    cr_assert(strstr(out, "POMP_Constructs_left_without_mutexes") == NULL, "%s", out);
    free(out);
}

/* A shared library's mark (pompcc -shared, with objects not built with
 * pompcc): its "plain NAME" lines make a program's link follow every
 * construct and mutex, and say nothing (the library's link said it). */
Test(prelink, a_library_marked_plain)
{
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    int left = prelink_report_counts("4 4 0 a.c\nplain b.o\n", 1, f);
    fclose(f);
    cr_assert_eq(left, PRELINK_LEFT_CONSTRUCTS | PRELINK_LEFT_MUTEXES, "%d", left);
    cr_assert(strstr(out, "b.o") == NULL, "%s", out);
    free(out);

    out = NULL;
    f = open_memstream(&out, &size);
    cr_assert_eq(prelink_write_plain_marker("plain b.o\nplainlocks lib.a(c.o)\n", f), 0);
    fclose(f);
    cr_assert(strstr(out, "__asm__(\".pushsection .pomp_constructs,\\\"\\\",%progbits\\n"
                          ".ascii \\\"plain b.o\\\\n\\\"\\n.popsection\");\n") != NULL, "%s", out);
    cr_assert(strstr(out, ".ascii \\\"plainlocks lib.a(c.o)\\\\n\\\"") != NULL, "%s", out);
    free(out);
}

/* Constructs a compile-time level left without calls ("levels N M file"): on
 * purpose, so no warning, but the bridges follow them, the mutex events only
 * where one is a critical or ordered (before: counted instrumented, a task's
 * execution at inst task none read as its barrier's wait). */
Test(prelink, constructs_left_by_a_level)
{
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    int left = prelink_report_counts("4 3 1 t.c\nlevels 1 0 t.c\n", 0, f);
    cr_assert_eq(left, PRELINK_LEFT_CONSTRUCTS, "a task: %d", left);
    left = prelink_report_counts("2 1 1 c.c\nlevels 1 1 c.c\n", 0, f);
    cr_assert_eq(left, PRELINK_LEFT_CONSTRUCTS | PRELINK_LEFT_MUTEXES, "a critical: %d", left);
    /* a host distribute parallel for's inner regions (instrumented, counted "inner") */
    left = prelink_report_counts("3 3 0 d.c\ninner 1 d.c\n", 0, f);
    cr_assert_eq(left, PRELINK_LEFT_CONSTRUCTS, "inner parallel regions: %d", left);
    fclose(f);
    cr_assert_eq(size, 0, "nothing said without verbose: %s", out);
    free(out);
    out = NULL;
    f = open_memstream(&out, &size);
    prelink_report_counts("2 1 1 c.c\nlevels 1 1 c.c\n", 1, f);
    fclose(f);
    cr_assert(strstr(out, "c.c: note: 1 OpenMP construct at a compile-time level that writes none of "
                          "its calls") != NULL, "%s", out);
    cr_assert(strstr(out, "warning") == NULL, "%s", out);
    free(out);
}
