/* Runtime selection: which OpenMP entry points send a program to libgomp. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "runtime_select.h"

Test(runtime, libomp_provides_what_gcc_usually_calls)
{
    cr_expect(pomp_libomp_provides("GOMP_parallel"));
    cr_expect(pomp_libomp_provides("GOMP_loop_dynamic_start"));
    cr_expect(pomp_libomp_provides("omp_get_thread_num"));
    cr_expect_not(pomp_libomp_provides("GOMP_scope_start"));
    cr_expect_not(pomp_libomp_provides("GOMP_error"));
    cr_expect_not(pomp_libomp_provides("GOMP_1.0"), "version nodes are no entry points");
}

Test(runtime, the_first_missing_entry_point)
{
    const char *nm = "GOMP_barrier U\n"
                     "GOMP_parallel@GOMP_4.0 U\n"
                     "printf U\n"
                     "main T 0000000000000000 0000000000000042\n"
                     "GOMP_scope_start@GOMP_5.1 U\n"
                     "GOMP_error U\n";
    char *m = pomp_runtime_missing_symbol(nm);
    cr_assert_not_null(m);
    cr_expect_str_eq(m, "GOMP_scope_start", "version suffix dropped, first one named");
    free(m);
    cr_expect_null(pomp_runtime_missing_symbol("GOMP_barrier U\nomp_get_thread_num U\n"));
    cr_expect_null(pomp_runtime_missing_symbol("GOMP_scope_start T 0 10\n"),
                   "a definition is no call");
    cr_expect_null(pomp_runtime_missing_symbol(""));
    m = pomp_runtime_missing_symbol("x.a[y.o]:\nacc_get_num_devices U\n");
    cr_expect_str_eq(m, "acc_get_num_devices", "OpenACC needs libgomp (archive member header skipped)");
    free(m);
}

Test(runtime, features_for_messages)
{
    cr_expect_str_eq(pomp_runtime_feature("GOMP_error"), "the 'error' directive");
    cr_expect_str_eq(pomp_runtime_feature("GOMP_warning"), "the 'error' directive");
    cr_expect_str_eq(pomp_runtime_feature("GOMP_scope_start"), "'scope' with reductions");
    cr_expect_str_eq(pomp_runtime_feature("GOMP_target_ext"), "target offloading");
    cr_expect_str_eq(pomp_runtime_feature("GOACC_parallel_keyed"), "OpenACC");
    cr_expect_str_eq(pomp_runtime_feature("omp_something_new"), "an OpenMP routine");
}

Test(runtime, clang_objects_and_offload_flags)
{
    cr_expect(pomp_runtime_calls_kmpc("__kmpc_fork_call U\n"));
    cr_expect(pomp_runtime_calls_kmpc("printf U\n__kmpc_barrier U\n"));
    cr_expect_not(pomp_runtime_calls_kmpc("my__kmpc_thing U\n"));
    cr_expect(pomp_runtime_is_gcc_offload_flag("-foffload=nvptx-none"));
    cr_expect(pomp_runtime_is_gcc_offload_flag("-foffload-options=-lm"));
    cr_expect_not(pomp_runtime_is_gcc_offload_flag("-foffload=disable"));
    cr_expect_not(pomp_runtime_is_gcc_offload_flag("-fopenmp"));
}

Test(runtime, offload_flag_decides_without_looking_at_objects)
{
    char *flags[] = {"-O2", "-foffload=nvptx-none"};
    char *inputs[] = {"/nonexistent.o"};
    char *why = pomp_runtime_needs_gomp(inputs, inputs, 1, flags, 2);
    cr_assert_not_null(why);
    cr_expect_str_eq(why, "'-foffload=nvptx-none' asks for GCC's target offloading, which needs "
                          "libgomp");
    free(why);
    cr_expect_null(pomp_runtime_needs_gomp(inputs, inputs, 1, flags, 1),
                   "an unreadable input is left to the linker");
}
