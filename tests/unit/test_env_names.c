/* POMP_* names that pomp does not read: said, with the name meant. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <string.h>

#include "pomp_env_names.h"

static int known(const char *name) { return pomp_env_name_known(name, strlen(name)); }

static const char *closest(const char *name)
{
    static char buf[64];
    return pomp_env_name_closest(name, strlen(name), buf, sizeof buf);
}

Test(env_names, every_documented_variable_is_known)
{
    static const char *const names[] = {
        "POMP_ENABLE",     "POMP_PROFILE",       "POMP_SUMMARY",        "POMP_TRACE",
        "POMP_OUTPUT_DIR", "POMP_THROTTLE",      "POMP_BUFFER_SIZE",    "POMP_PROFILE_NODES",
        "POMP_PROFILE_DEPTH", "POMP_FILTER_INCLUDE", "POMP_FILTER_EXCLUDE", "POMP_DEVICE_TRACING",
        "POMP_OMPT",       "POMP_SAMPLING",      "POMP_SAMPLING_TIMER", "POMP_CC",
        "POMP_CXX",        "POMP_PARALLEL",      "POMP_LOOP",           "POMP_WORKSHARE",
        "POMP_SYNC",       "POMP_USER",          "POMP_RUNTIME",        "POMP_TASK",
        "POMP_TARGET",     "POMP_RUN_PID",       "POMP_BENCH_QUICK",
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        cr_expect(known(names[i]), "%s is read by pomp", names[i]);
}

Test(env_names, misspelled_names_are_unknown_and_matched)
{
    cr_expect(!known("POMP_LOOPS"));
    cr_expect(!known("POMP_BARRIER"));
    cr_expect(!known("POMP_summary"));
    cr_expect(!known("POMP_LOO"));
    cr_expect_str_eq(closest("POMP_LOOPS"), "POMP_LOOP");
    cr_expect_str_eq(closest("POMP_SAMPLNG"), "POMP_SAMPLING");
    cr_expect_str_eq(closest("POMP_summary"), "POMP_SUMMARY");
    cr_expect_str_eq(closest("POMP_TASKS"), "POMP_TASK");
    cr_expect_null(closest("POMP_BARRIER"), "nothing close to POMP_BARRIER");
    cr_expect_null(closest("POMP_X"), "a one-letter name is not two edits from POMP_CC");
    cr_expect_null(closest("POMP_NM"), "nor a two-letter one");
    cr_expect_str_eq(closest("POMP_TRAC"), "POMP_TRACE");
    cr_expect_str_eq(closest("POMP_THROTLE"), "POMP_THROTTLE");
}

Test(env_names, check_says_only_the_unknown, .init = cr_redirect_stderr)
{
    char *envp[] = {"POMP_LOOPS=none", "POMP_LOOP=none", "PATH=/bin", "POMP_=x",
                    "POMP_BARRIER=none", NULL};
    pomp_env_names_check(envp);
    fflush(stderr);
    cr_expect_stderr_eq_str(
        "pomp: POMP_LOOPS is not a variable pomp reads (did you mean POMP_LOOP?); ignored\n"
        "pomp: POMP_ is not a variable pomp reads; ignored (docs/environment.md lists them)\n"
        "pomp: POMP_BARRIER is not a variable pomp reads; ignored (docs/environment.md lists them)\n");
}
