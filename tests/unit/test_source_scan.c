/* pompcc's quick look: which sources go to pomp-instrument and which are
 * compiled as they are. */
#include <criterion/criterion.h>
#include <string.h>

#include "source_scan.h"

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
