/* pompcc's quick look: which sources go to pomp-instrument and which are
 * compiled as they are. */
#include <criterion/criterion.h>
#include <string.h>

#include "source_scan.h"
#include "util.h"

static int may(const char *text) { return source_may_need_instrumentation(text, strlen(text)); }

Test(source_scan, what_needs_the_instrumenter)
{
    cr_expect(may("void f(void) {\n#pragma omp parallel\n  g();\n}\n"));
    cr_expect(may("void f(void) {\n#  pragma   omp for\n}\n"), "spaces in the directive");
    cr_expect(may("#define P _Pragma(\"omp parallel\")\n"), "_Pragma");
    cr_expect(may("#pragma pomp inst begin(x)\n"), "pomp's own directives");
    cr_expect(may("void f(omp_lock_t *l) { omp_set_lock(l); }\n"), "OpenMP API calls");
    cr_expect(may("int main(void) { return 0; }\n"), "main gets POMP_Init and POMP_Finalize");
    cr_expect(may("int main"), "main at the end of the file");
    cr_expect(may("/* #pragma omp parallel in a comment */\n"), "comments are not skipped");
}

Test(source_scan, what_does_not)
{
    cr_expect_not(may(""));
    cr_expect_not(may("#include <omp.h>\nint domain(int remaining) { return remaining; }\n"),
                  "main inside other words, omp.h without a call");
    cr_expect_not(may("static double mainly_serial(double x) { return x * 2; }\n"));
    cr_expect_not(may("int f(int x) { return x + 1; }\n"));
}

Test(source_scan, unreadable_files_go_to_the_instrumenter)
{
    cr_expect(source_file_may_need_instrumentation("/nonexistent/pomp/file.c", NULL, 0));
}

/* skip_comment, which every scan of the instrumenter that steps over comments
 * uses: where each kind ends, and a block comment cut off by the bound. */
static int skip_at(const char *text, size_t bound, size_t at, size_t *past)
{
    *past = at;
    return skip_comment(text, bound, past);
}

Test(source_scan, skip_comment)
{
    size_t past;
    const char *t = "a /* b */ c // d\ne";
    cr_expect_eq(skip_at(t, strlen(t), 0, &past), 0, "no comment at 'a'");
    cr_expect_eq(past, 0, "left where it was");
    cr_expect_eq(skip_at(t, strlen(t), 2, &past), 1);
    cr_expect_eq(past, 9, "just past the '*/'");
    cr_expect_eq(skip_at(t, strlen(t), 12, &past), 1);
    cr_expect_eq(past, 16, "a // comment ends at its newline, which is not skipped");
    cr_expect_eq(skip_at(t, 15, 12, &past), 1);
    cr_expect_eq(past, 15, "a // comment cut off by the bound ends there");
    cr_expect_eq(skip_at(t, 8, 2, &past), -1, "'*/' past the bound: unterminated");
    cr_expect_eq(past, 8);
    cr_expect_eq(skip_at("/*/", 3, 0, &past), -1, "'/*/' opens a comment, does not close it");
    cr_expect_eq(skip_at("x/", 2, 1, &past), 0, "a '/' at the end");
    cr_expect_eq(skip_at("a / b", 5, 2, &past), 0, "a division");
}

/* Line splices as GCC and clang read them: a backslash, blanks (GCC warns),
 * a CR, the newline; seen from the newline too. */
Test(source_scan, splices)
{
    const char *t = "a \\\nb \\  \t\r\nc \\x\nd\\";
    size_t n = strlen(t);
    cr_expect_eq(source_splice_length(t, n, 2), 2, "backslash-newline");
    cr_expect_eq(source_splice_length(t, n, 6), 6, "blanks and a CR between");
    cr_expect_eq(source_splice_length(t, n, 14), 0, "a backslash before other text");
    cr_expect_eq(source_splice_length(t, n, 18), 0, "a backslash at the end of the text");
    cr_expect_eq(source_splice_length(t, n, 0), 0, "no backslash");
    cr_expect(source_newline_spliced(t, 3), "the newline of a splice");
    cr_expect(source_newline_spliced(t, 11), "... after blanks and a CR");
    cr_expect(!source_newline_spliced(t, 16), "a newline after text");
    cr_expect(!source_newline_spliced("\n", 0), "the first character");
}

static int has_spliced(const char *text, const char *word)
{
    return source_text_has_spliced(text, strlen(text), word);
}

/* A word as the compiler reads it, split by line splices or not. */
Test(source_scan, words_across_splices)
{
    cr_expect(has_spliced("omp task detach(ev)", "detach"), "no splice");
    cr_expect(has_spliced("omp task det\\\nach(ev)", "detach"), "a splice inside the word");
    cr_expect(has_spliced("omp task det\\ \r\nach(ev)", "detach"), "blanks and a CR in the splice");
    cr_expect(has_spliced("x \\\n omp task de\\\nt\\\nach", "detach"), "two splices, another before");
    cr_expect_not(has_spliced("omp task det\nach(ev)", "detach"), "a newline alone ends the word");
    cr_expect_not(has_spliced("omp task det\\ach(ev)", "detach"), "a backslash before text");
    cr_expect_not(has_spliced("omp task deta", "detach"), "the text ends inside the word");
}

/* The quick looks read line splices as compilers do: a pragma split inside
 * its word, or between its words, is still one (a file with only such a
 * pragma was compiled as it was) */
Test(source_scan, spliced_pragmas)
{
    const char *word = "void f(void)\n{\n#pra\\\ngma omp parallel\n    g();\n}\n";
    cr_expect(source_may_need_instrumentation(word, strlen(word)), "#pra\\<newline>gma");
    cr_expect(source_has_openmp_directive(word, strlen(word)), "... an OpenMP directive");
    const char *between = "#pragma \\\n  omp parallel\n";
    cr_expect(source_has_openmp_directive(between, strlen(between)), "#pragma \\<newline> omp");
    const char *other = "int x = 1; \\\n /* pra\\\ngmatic */\n";
    cr_expect(!source_has_openmp_directive(other, strlen(other)), "no directive");
    const char *none = "int f(int x) { return x + 1; }\n#define A \\\n  2\n";
    cr_expect(!source_may_need_instrumentation(none, strlen(none)), "nothing to instrument");
}

/* C++20 module units: the module declaration first, past comments and
 * preprocessing lines; a file that only imports, or names "module" later, is
 * no module unit. */
Test(source_scan, module_units)
{
    static const char *const units[] = {
        "module;\n#include <cstddef>\nexport module kern;\n",
        "// a comment\n/* another */ export module kern;\n",
        "#define X 1\nexport\nmodule kern.part;\n",
        "module kern;\nint f();\n",
        "module :private;\n",
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        cr_assert(source_is_module_unit(units[i], strlen(units[i])), "%s", units[i]);
    static const char *const others[] = {
        "import kern;\nint main() {}\n",
        "#include <cstdio>\nint module = 1;\n",
        "struct module *m;\n",
        "modules;\n",
        "export int f();\n",
        "",
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        cr_assert(!source_is_module_unit(others[i], strlen(others[i])), "%s", others[i]);
}
