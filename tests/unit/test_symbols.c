/* The function a symbol names in the source: GCC's clone suffixes (an OpenMP
 * construct's outlined body, constant propagation, ...) cut off, in the C,
 * mangled and demangled (addr2line -C) forms that reach libpomp. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "pomp_dwarf.h"
#include "pomp_symbols.h"

/* The function as bridge_symbols.c writes it into a region's CTC string. */
static void assert_source_function(const char *symbol, const char *expected)
{
    size_t len = pomp_symbols_source_function_len(symbol);
    cr_assert_eq(len, strlen(expected), "%s: %zu characters kept, expected \"%s\"", symbol, len,
                 expected);
    cr_assert_eq(strncmp(symbol, expected, len), 0, "%s: expected \"%s\"", symbol, expected);
}

Test(symbols, c_outlined_body_is_its_function)
{
    assert_source_function("main._omp_fn.0", "main");
    assert_source_function("lib_scale._omp_fn.12", "lib_scale");
    assert_source_function("work.constprop.0", "work");
    assert_source_function("work.part.0._omp_fn.1", "work");
}

Test(symbols, clang_outlined_code_names_no_function)
{
    cr_assert_eq(pomp_symbols_source_function_len(".omp_outlined..6"), 0);
    cr_assert_eq(pomp_symbols_source_function_len(".omp_task_entry."), 0);
    cr_assert_eq(pomp_symbols_source_function_len(".omp_outlined._debug__"), 0);
    assert_source_function("main.omp_outlined", "main");
    assert_source_function("psort.omp_outlined.1", "psort");
}

Test(symbols, cxx_clone_suffixes)
{
    assert_source_function("count_errors(int) [clone ._omp_fn.1]", "count_errors(int)");
    assert_source_function("Field<double>::fill(double) [clone ._omp_fn.0]",
                           "Field<double>::fill(double)");
    assert_source_function("S::get() const [clone ._omp_fn.2]", "S::get() const");
    assert_source_function("work(int, int) [clone .constprop.0]", "work(int, int)");
    assert_source_function("work(int, int) [clone .isra.0]", "work(int, int)");
    assert_source_function("work(int, int) [clone .part.0]", "work(int, int)");
    assert_source_function("work(int, int) [clone .cold]", "work(int, int)");
    /* the name's own dots are no suffix */
    assert_source_function("log(char const*, ...) [clone ._omp_fn.0]", "log(char const*, ...)");
}

/* llvm-symbolizer (the symbolizer libpomp asks first) writes a clone suffix
 * as " (.<suffix>)" */
Test(symbols, cxx_clone_suffixes_as_llvm_writes_them)
{
    assert_source_function("int hpc::dot<int>(std::vector<int, std::allocator<int>> const&) (._omp_fn.0)",
                           "int hpc::dot<int>(std::vector<int, std::allocator<int>> const&)");
    assert_source_function("work(int, int) (.constprop.0)", "work(int, int)");
    assert_source_function("foo(int) (.constprop.0) (._omp_fn.1)", "foo(int)");
    assert_source_function("log(char const*, ...) (._omp_fn.0)", "log(char const*, ...)");
}

Test(symbols, cxx_nested_clones)
{
    assert_source_function("foo(int) [clone .constprop.0] [clone ._omp_fn.1]", "foo(int)");
    assert_source_function("foo(int) [clone ._omp_fn.1] [clone .constprop.0]", "foo(int)");
    assert_source_function("ns::Grid<3>::step() [clone .isra.0] [clone .part.0] [clone ._omp_fn.4]",
                           "ns::Grid<3>::step()");
}

Test(symbols, mangled_names)
{
    assert_source_function("_Z12count_errorsi._omp_fn.1", "_Z12count_errorsi");
    assert_source_function("_ZN5FieldIdE4fillEd.constprop.0._omp_fn.0", "_ZN5FieldIdE4fillEd");
}

Test(symbols, names_without_suffix_are_whole)
{
    assert_source_function("main", "main");
    assert_source_function("count_errors(int)", "count_errors(int)");
    assert_source_function("log(char const*, ...)", "log(char const*, ...)");
    assert_source_function("_Z12count_errorsi", "_Z12count_errorsi");
    assert_source_function("", "");
}

Test(symbols, parentheses_only_after_a_c_name)
{
    cr_assert_str_eq(pomp_symbols_call_parens("main"), "()");
    cr_assert_str_eq(pomp_symbols_call_parens("_Z12count_errorsi"), "()");
    cr_assert_str_eq(pomp_symbols_call_parens("count_errors(int)"), "");
    cr_assert_str_eq(pomp_symbols_call_parens("S::get() const"), "");
}

/* An address in the kernel's vDSO (where clock_gettime runs): no module, a
 * name of its own ("[vdso]" where it has no symbol), never the program's file
 * (a bare name was taken for the program, at offsets naming nothing of it). */
Test(symbols, vdso_is_not_the_program)
{
    uintptr_t vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
    if (!vdso)
        cr_skip_test("no vDSO");
    uintptr_t addr = vdso + 0x10;
    struct pomp_symbol_table t = {0};
    cr_assert_eq(pomp_symbols_resolve(&addr, 1, &t, POMP_SYMBOLS_EXACT), 0);
    cr_assert_str_eq(t.syms[0].module, "");
    cr_assert(t.syms[0].depth >= 1 && t.syms[0].at[0].function[0], "a name");
    pomp_symbols_free(&t);
}

/* A function of this file, named from its debug information in this process
 * (pomp_dwarf.c, libdw), as the symbolizer processes name it: function,
 * file, line. (Its definition on one line: its first instruction's line.) */
__attribute__((noinline)) int pomp_test_named_here(int x) { return x * 3 + 1; } static const int named_here_line = __LINE__;

Test(symbols, named_from_debug_information_in_this_process)
{
    uintptr_t offset = 0;
    char module[4096];
    uintptr_t addr = (uintptr_t)&pomp_test_named_here;
    cr_assert_eq(pomp_test_named_here(1), 4);
    if (!pomp_symbols_module_of(addr, module, sizeof module, &offset)) { /* the program: no name */
        ssize_t n = readlink("/proc/self/exe", module, sizeof module - 1);
        cr_assert(n > 0);
        module[n] = '\0';
        Dl_info info;
        cr_assert(dladdr((void *)addr, &info));
        offset = addr - (uintptr_t)info.dli_fbase;
    }
    FILE *f = pomp_dwarf_symbolize(module, &offset, 1);
    cr_assert_not_null(f, "libdw reads %s", module);
    char text[8192] = "";
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    char expected[256];
    snprintf(expected, sizeof expected, "\npomp_test_named_here\n");
    cr_expect(strstr(text, expected), "the function: %s", text);
    snprintf(expected, sizeof expected, "tests/unit/test_symbols.c:%d\n", named_here_line);
    cr_expect(strstr(text, expected), "its file and line %d: %s", named_here_line, text);

    struct pomp_symbol_table t = {0};
    cr_assert_eq(pomp_symbols_resolve(&addr, 1, &t, POMP_SYMBOLS_EXACT), 0);
    cr_assert_eq(t.syms[0].depth, 1);
    cr_expect_str_eq(t.syms[0].at[0].function, "pomp_test_named_here");
    cr_expect_eq(t.syms[0].at[0].line, named_here_line);
    pomp_symbols_free(&t);
}
