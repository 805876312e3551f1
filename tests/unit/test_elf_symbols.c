/* The ELF symbol reader that stands in for nm in pomp-prelink and the runtime
 * choice: on objects, archives and shared objects built here with cc and ar,
 * it lists exactly the symbols nm lists; files it does not read (GCC LTO
 * objects, not ELF, truncated, garbage) are refused, never misread. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_symbols.h"
#include "process.h"

static char dir[] = "/tmp/pomp-elf-test-XXXXXX";

static char *path_of(const char *name) { return xasprintf("%s/%s", dir, name); }

static void write_text(const char *name, const char *text)
{
    char *p = path_of(name);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    free(p);
}

static void run(const char *cmd)
{
    char *full = xasprintf("cd %s && %s", dir, cmd);
    char *argv[] = {"sh", "-c", full, NULL};
    cr_assert_eq(run_process(argv, NULL, NULL, 0), 0, "%s", cmd);
    free(full);
}

static void setup(void)
{
    cr_assert_not_null(mkdtemp(dir));
    write_text("a.c", "extern int printf(const char *, ...);\n"
                      "extern void GOMP_barrier(void);\n"
                      "extern void maybe(void) __attribute__((weak));\n"
                      "int counter = 1; int common_one;\n"
                      "static int hidden(void) { return 2; }\n"
                      "void POMP_Init_00ab12(void) { GOMP_barrier(); }\n"
                      "__attribute__((weak)) void soft(void) { if (maybe) maybe(); }\n"
                      "int main(void) { printf(\"%d\", hidden() + counter); return 0; }\n");
    write_text("b.c", "extern void omp_set_lock(void *);\n"
                      "void POMP_Init_ffee99(void) { omp_set_lock(0); }\n");
    run("cc -c -fcommon a.c -o a.o && cc -c b.c -o b.o && ar rcs lib.a a.o b.o && "
        "cc -shared -fPIC b.c -o libb.so");
}

static void teardown(void)
{
    char *cmd = xasprintf("rm -rf %s", dir);
    char *argv[] = {"sh", "-c", cmd, NULL};
    run_process(argv, NULL, NULL, 0);
    free(cmd);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The "name letter" lines, sorted: what nm prints, less values and headers. */
static char *sorted_lines(const char *text)
{
    char *copy = xstrdup(text);
    char **lines = NULL;
    size_t n = 0;
    for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char name[256], letter;
        if (sscanf(l, "%255s %c", name, &letter) != 2)
            continue; /* an archive member header */
        name[strcspn(name, "@")] = '\0'; /* nm -D's symbol versions: the reader has none */
        lines = xrealloc(lines, (n + 1) * sizeof *lines);
        lines[n++] = xasprintf("%s %c", name, letter);
    }
    qsort(lines, n, sizeof *lines, by_text);
    struct strbuf b = {0};
    sb_add(&b, "");
    for (size_t i = 0; i < n; i++) {
        sb_printf(&b, "%s\n", lines[i]);
        free(lines[i]);
    }
    free(lines);
    free(copy);
    return b.s;
}

static void same_as_nm(const char *file, enum elf_nm_mode mode, const char *nm_options)
{
    char *p = path_of(file);
    struct strbuf mine = {0};
    cr_assert_eq(elf_nm(p, mode, &mine), 0, "%s is read", file);
    char *cmd = xasprintf("nm -P %s %s", nm_options, p);
    char *argv[] = {"sh", "-c", cmd, NULL}, *theirs = NULL;
    cr_assert_eq(run_capture(argv, &theirs, NULL), 0);
    char *a = sorted_lines(mine.s ? mine.s : ""), *b = sorted_lines(theirs);
    cr_expect_str_eq(a, b, "%s (nm -P %s)", file, nm_options);
    free(a);
    free(b);
    free(theirs);
    free(cmd);
    free(mine.s);
    free(p);
}

/* What the reader lists for a file of the test's directory. */
static struct strbuf nm_of(const char *file, enum elf_nm_mode mode)
{
    struct strbuf b = {0};
    char *p = path_of(file);
    elf_nm(p, mode, &b);
    free(p);
    return b;
}

TestSuite(elf_symbols, .init = setup, .fini = teardown);

Test(elf_symbols, an_object_as_nm_lists_it)
{
    same_as_nm("a.o", ELF_NM_DEFINED_EXTERNAL, "-g --defined-only");
    same_as_nm("a.o", ELF_NM_UNDEFINED, "-u");
    same_as_nm("a.o", ELF_NM_DEFINED, "--defined-only");
    struct strbuf b = nm_of("a.o", ELF_NM_DEFINED_EXTERNAL);
    cr_expect(strstr(b.s, "POMP_Init_00ab12 T\n") && strstr(b.s, "soft W\n") &&
                  strstr(b.s, "counter D\n") && strstr(b.s, "common_one C\n") &&
                  !strstr(b.s, "hidden"),
              "%s", b.s);
    free(b.s);
}

Test(elf_symbols, an_archive_and_a_shared_object)
{
    same_as_nm("lib.a", ELF_NM_DEFINED_EXTERNAL, "-g --defined-only");
    same_as_nm("lib.a", ELF_NM_UNDEFINED, "-u");
    same_as_nm("lib.a", ELF_NM_DEFINED, "--defined-only");
    same_as_nm("libb.so", ELF_NM_DEFINED_EXTERNAL, "-g --defined-only");
    same_as_nm("libb.so", ELF_NM_UNDEFINED, "-u -D");
}

/* elf_each_object: an archive member by member, each named "lib(member)" (a
 * long name through the archive's name table too), a thin archive's members
 * by their files, an object as itself; each member's symbols are its own. */
static int list_object(const unsigned char *data, size_t size, const char *name, void *arg)
{
    struct strbuf *out = arg, syms = {0};
    cr_assert_eq(elf_nm_buffer(data, size, ELF_NM_UNDEFINED, &syms), 0, "%s", name);
    sb_printf(out, "%s:%s;", name, syms.s && strstr(syms.s, "GOMP_barrier U") ? "gomp" : "-");
    free(syms.s);
    return 0;
}

Test(elf_symbols, each_object_of_an_archive)
{
    run("cp b.o a_member_with_a_long_name.o && rm -f each.a thin.a && "
        "ar rcs each.a a.o a_member_with_a_long_name.o && ar rcsT thin.a a.o b.o");
    /* a thin archive's members are named by their files' paths, beside it */
    char *expect[3] = {
        xasprintf("%s/each.a(a.o):gomp;%s/each.a(a_member_with_a_long_name.o):-;", dir, dir),
        xasprintf("%s/thin.a(%s/a.o):gomp;%s/thin.a(%s/b.o):-;", dir, dir, dir, dir),
        xasprintf("%s/a.o:gomp;", dir),
    };
    const char *files[3] = {"each.a", "thin.a", "a.o"};
    for (int i = 0; i < 3; i++) {
        char *p = path_of(files[i]);
        struct strbuf got = {0};
        cr_assert_eq(elf_each_object(p, list_object, &got), 0, "%s", p);
        cr_expect_str_eq(got.s, expect[i]);
        free(got.s), free(expect[i]), free(p);
    }
}

/* pomprun's question: what a program imports (nm -D -u), a PIE, a position-
 * dependent and a stripped one. */
Test(elf_symbols, a_program_s_imports)
{
    write_text("c.c", "extern void POMP_Init_ffee99(void);\n"
                      "int main(void) { POMP_Init_ffee99(); return 0; }\n");
    run("cc c.c -L. -lb -Wl,--allow-shlib-undefined -o pie && "
        "cc -no-pie c.c -L. -lb -Wl,--allow-shlib-undefined -o exec && cp exec stripped && "
        "strip stripped");
    same_as_nm("pie", ELF_NM_DYNAMIC_UNDEFINED, "-D -u");
    same_as_nm("exec", ELF_NM_DYNAMIC_UNDEFINED, "-D -u");
    same_as_nm("stripped", ELF_NM_DYNAMIC_UNDEFINED, "-D -u");
    struct strbuf b = nm_of("stripped", ELF_NM_DYNAMIC_UNDEFINED);
    cr_expect(b.s && strstr(b.s, "POMP_Init_ffee99 U\n"), "%s", b.s ? b.s : "(nothing)");
    free(b.s);
}

Test(elf_symbols, files_left_to_nm)
{
    struct strbuf b = {0};
    sb_add(&b, "kept\n");
    write_text("script.so", "/* GNU ld script */\nGROUP ( libc.so.6 )\n");
    run("cc -c -flto b.c -o lto.o && ar rcs liblto.a lto.o a.o && head -c 200 a.o > cut.o && "
        "head -c 100 /dev/urandom > noise.o");
    static const struct {
        const char *file, *what;
    } refused[] = {
        {"script.so", "a linker script"}, {"missing.o", "no such file"},
        {"lto.o", "a GCC LTO object"},    {"liblto.a", "an archive with an LTO member"},
        {"cut.o", "a truncated object"},  {"noise.o", "garbage"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char *p = path_of(refused[i].file);
        cr_expect_eq(elf_nm(p, ELF_NM_DEFINED_EXTERNAL, &b), -1, "%s", refused[i].what);
        free(p);
    }
    cr_expect_str_eq(b.s, "kept\n", "a refused file adds nothing");
    free(b.s);
}

Test(elf_symbols, every_truncation_of_an_object_is_read_or_refused)
{
    char *p = path_of("a.o");
    char *data;
    size_t size;
    cr_assert_eq(read_file(p, &data, &size), 0);
    for (size_t cut = 0; cut < size; cut += 7) {
        struct strbuf b = {0};
        int rc = elf_nm_buffer((const unsigned char *)data, cut, ELF_NM_UNDEFINED, &b);
        cr_expect(rc == 0 || rc == -1);
        free(b.s);
    }
    free(data);
    free(p);
}
