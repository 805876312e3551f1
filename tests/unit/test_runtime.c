/* Runtime selection: which runtime a program links, and which OpenMP entry points keep it off libomp. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

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
    cr_expect(pomp_runtime_is_gcc_offload_flag("-foffload-abi=lp64"));
    /* clang's: not GCC offloading */
    cr_expect_not(pomp_runtime_is_gcc_offload_flag("-foffload-lto"));
    cr_expect_not(pomp_runtime_is_gcc_offload_flag("-foffload-lto=full"));
    cr_expect_not(pomp_runtime_is_gcc_offload_flag("-foffload-uniform-block"));
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

Test(runtime, libomp_defines_but_cannot_serve_for_gcc_code)
{
    cr_expect(pomp_libomp_provides("omp_fulfill_event"), "libomp defines it");
    cr_expect_not(pomp_libomp_serves("omp_fulfill_event"), "and crashes in it for GCC's detach");
    cr_expect_not(pomp_libomp_serves("omp_display_affinity"));
    cr_expect_not(pomp_libomp_serves("omp_capture_affinity"));
    cr_expect_not(pomp_libomp_serves("GOMP_scope_start"));
    cr_expect(pomp_libomp_serves("GOMP_parallel"));
    char *m = pomp_runtime_missing_symbol("GOMP_parallel U\nomp_capture_affinity@OMP_5.0 U\n");
    cr_assert_not_null(m);
    cr_expect_str_eq(m, "omp_capture_affinity");
    free(m);
    cr_expect_str_eq(pomp_runtime_feature("omp_fulfill_event"), "'detach' tasks");
    cr_expect_str_eq(pomp_runtime_lack("omp_fulfill_event"),
                     "which LLVM libomp's libgomp layer does not support");
    cr_expect_str_eq(pomp_runtime_lack("GOMP_error"), "which LLVM libomp does not provide");
}

Test(runtime, task_copy_functions)
{
    char *c = pomp_runtime_task_copy_function(
        "main T\n_Z8tree_sumRKSt6vectorIlSaIlEEmmi._omp_fn.0 t\n"
        "_Z8tree_sumRKSt6vectorIlSaIlEEmmi._omp_cpyfn.1 t\n");
    cr_assert_not_null(c, "GCC's copy function of a task");
    cr_expect_str_eq(c, "_Z8tree_sumRKSt6vectorIlSaIlEEmmi._omp_cpyfn.1");
    free(c);
    cr_expect_null(pomp_runtime_task_copy_function("main T\nmain._omp_fn.0 t\n"),
                   "an outlined function is no copy function");
}

Test(runtime, each_program_on_the_runtime_it_was_built_for)
{
    char *none[] = {NULL};
    char *flags[] = {"-O2"};
    enum pomp_runtime rt = POMP_RUNTIME_LIBOMP;
    cr_expect_null(pomp_runtime_choose(0, &rt, 0, none, none, 0, flags, 1));
    cr_expect_eq(rt, POMP_RUNTIME_GOMP, "no clang object: libgomp");
    rt = POMP_RUNTIME_LIBOMP;
    cr_expect_null(pomp_runtime_choose(0, &rt, 1, none, none, 0, flags, 1));
    cr_expect_eq(rt, POMP_RUNTIME_LIBOMP, "Clang offloading: libomp");
    rt = POMP_RUNTIME_LIBOMP;
    cr_expect_null(pomp_runtime_choose(1, &rt, 0, none, none, 0, flags, 1));
    cr_expect_eq(rt, POMP_RUNTIME_LIBOMP, "asked for, and it serves");
    char *gcc_offload[] = {"-foffload=nvptx-none"};
    rt = POMP_RUNTIME_LIBOMP;
    char *msg = pomp_runtime_choose(1, &rt, 0, none, none, 0, gcc_offload, 1);
    cr_assert_not_null(msg);
    cr_expect_eq(rt, POMP_RUNTIME_GOMP, "never a runtime that cannot serve the program");
    cr_expect(strstr(msg, "instead of the LLVM libomp --pomp-runtime=omp asks for") != NULL, "%s", msg);
    free(msg);
    rt = POMP_RUNTIME_GOMP;
    cr_expect_null(pomp_runtime_choose(1, &rt, 0, none, none, 0, flags, 1));
    cr_expect_eq(rt, POMP_RUNTIME_GOMP);
}
