/* Groups and levels: for every group and each level it allows, every POMP
 * routine is called once; exactly the routines whose Appendix C levels include
 * the active level of their group are recorded (read back from the event log). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>

#include <pomplib.h>

#include "pomp_eventlog.h"
#include "pomp_levels.h"
#include "pomp_thread.h"

enum { EE = POMP_LEVEL_ENTEREXIT, BE = POMP_LEVEL_BEGINEND, EV = POMP_LEVEL_EVENT,
       CH = POMP_LEVEL_CHUNKS, IE = POMP_LEVEL_ITEREVENT, IB = POMP_LEVEL_ITERBEGINEND };

/* Appendix C, restated: each routine's group and the levels it records under. */
static const struct {
    enum pomp_event_kind kind;
    enum pomp_group group;
    unsigned levels;
} spec[] = {
    {POMP_EV_PARALLEL_ENTER, POMP_GROUP_PARALLEL, EE | BE}, {POMP_EV_PARALLEL_BEGIN, POMP_GROUP_PARALLEL, BE},
    {POMP_EV_PARALLEL_END, POMP_GROUP_PARALLEL, BE}, {POMP_EV_PARALLEL_EXIT, POMP_GROUP_PARALLEL, EE | BE},
    {POMP_EV_LOOP_ENTER, POMP_GROUP_LOOP, EE | CH | IE | IB}, {POMP_EV_LOOP_CHUNK_BEGIN, POMP_GROUP_LOOP, CH},
    {POMP_EV_LOOP_ITER_BEGIN, POMP_GROUP_LOOP, IB}, {POMP_EV_LOOP_ITER_EVENT, POMP_GROUP_LOOP, IE},
    {POMP_EV_LOOP_ITER_END, POMP_GROUP_LOOP, IB}, {POMP_EV_LOOP_CHUNK_END, POMP_GROUP_LOOP, CH},
    {POMP_EV_LOOP_EXIT, POMP_GROUP_LOOP, EE | CH | IE | IB},
    {POMP_EV_WORKSHARE_ENTER, POMP_GROUP_WORKSHARE, EE | BE}, {POMP_EV_WORKSHARE_BEGIN, POMP_GROUP_WORKSHARE, BE},
    {POMP_EV_WORKSHARE_END, POMP_GROUP_WORKSHARE, BE}, {POMP_EV_WORKSHARE_EXIT, POMP_GROUP_WORKSHARE, EE | BE},
    {POMP_EV_SECTIONS_ENTER, POMP_GROUP_WORKSHARE, EE | BE}, {POMP_EV_SECTION_BEGIN, POMP_GROUP_WORKSHARE, BE},
    {POMP_EV_SECTION_END, POMP_GROUP_WORKSHARE, BE}, {POMP_EV_SECTIONS_EXIT, POMP_GROUP_WORKSHARE, EE | BE},
    {POMP_EV_SINGLE_ENTER, POMP_GROUP_WORKSHARE, EE | BE}, {POMP_EV_SINGLE_BEGIN, POMP_GROUP_WORKSHARE, BE},
    {POMP_EV_SINGLE_END, POMP_GROUP_WORKSHARE, BE}, {POMP_EV_SINGLE_EXIT, POMP_GROUP_WORKSHARE, EE | BE},
    {POMP_EV_CRITICAL_ENTER, POMP_GROUP_SYNC, EE | BE}, {POMP_EV_CRITICAL_BEGIN, POMP_GROUP_SYNC, BE},
    {POMP_EV_CRITICAL_END, POMP_GROUP_SYNC, BE}, {POMP_EV_CRITICAL_EXIT, POMP_GROUP_SYNC, EE | BE},
    {POMP_EV_MASTER_BEGIN, POMP_GROUP_SYNC, BE}, {POMP_EV_MASTER_END, POMP_GROUP_SYNC, BE},
    {POMP_EV_BARRIER_ENTER, POMP_GROUP_SYNC, EE | BE}, {POMP_EV_BARRIER_EXIT, POMP_GROUP_SYNC, EE | BE},
    {POMP_EV_IMPLICIT_BARRIER_ENTER, POMP_GROUP_SYNC, EE | BE},
    {POMP_EV_IMPLICIT_BARRIER_EXIT, POMP_GROUP_SYNC, EE | BE},
    {POMP_EV_FLUSH_EVENT, POMP_GROUP_SYNC, EV | EE | BE}, {POMP_EV_ATOMIC_EVENT, POMP_GROUP_SYNC, EV | EE | BE},
    {POMP_EV_ORDERED_ENTER, POMP_GROUP_SYNC, EE | BE}, {POMP_EV_ORDERED_BEGIN, POMP_GROUP_SYNC, BE},
    {POMP_EV_ORDERED_END, POMP_GROUP_SYNC, BE}, {POMP_EV_ORDERED_EXIT, POMP_GROUP_SYNC, EE | BE},
    {POMP_EV_FUNCTION_ENTER, POMP_GROUP_USER, EE | BE}, {POMP_EV_FUNCTION_BEGIN, POMP_GROUP_USER, BE},
    {POMP_EV_FUNCTION_END, POMP_GROUP_USER, BE}, {POMP_EV_FUNCTION_EXIT, POMP_GROUP_USER, EE | BE},
    {POMP_EV_FUNCTION_EVENT, POMP_GROUP_USER, EV},
    {POMP_EV_USER_REGION_BEGIN, POMP_GROUP_USER, BE}, {POMP_EV_USER_REGION_END, POMP_GROUP_USER, BE},
    {POMP_EV_USER_EVENT, POMP_GROUP_USER, EV | BE},
    {POMP_EV_INIT_LOCK_EVENT, POMP_GROUP_RUNTIME, EE | EV}, {POMP_EV_DESTROY_LOCK_EVENT, POMP_GROUP_RUNTIME, EE | EV},
    {POMP_EV_SET_LOCK_ENTER, POMP_GROUP_RUNTIME, EE}, {POMP_EV_SET_LOCK_EXIT, POMP_GROUP_RUNTIME, EE},
    {POMP_EV_SET_LOCK_EVENT, POMP_GROUP_RUNTIME, EV}, {POMP_EV_UNSET_LOCK_EVENT, POMP_GROUP_RUNTIME, EE | EV},
    {POMP_EV_TEST_LOCK_EVENT, POMP_GROUP_RUNTIME, EE | EV},
    {POMP_EV_INIT_NEST_LOCK_EVENT, POMP_GROUP_RUNTIME, EE | EV},
    {POMP_EV_DESTROY_NEST_LOCK_EVENT, POMP_GROUP_RUNTIME, EE | EV},
    {POMP_EV_SET_NEST_LOCK_ENTER, POMP_GROUP_RUNTIME, EE}, {POMP_EV_SET_NEST_LOCK_EXIT, POMP_GROUP_RUNTIME, EE},
    {POMP_EV_SET_NEST_LOCK_EVENT, POMP_GROUP_RUNTIME, EV},
    {POMP_EV_UNSET_NEST_LOCK_EVENT, POMP_GROUP_RUNTIME, EE | EV},
    {POMP_EV_TEST_NEST_LOCK_EVENT, POMP_GROUP_RUNTIME, EE | EV},
    {POMP_EV_SET_NUM_THREADS_EVENT, POMP_GROUP_RUNTIME, EV}, {POMP_EV_GET_NUM_THREADS_EVENT, POMP_GROUP_RUNTIME, EV},
    {POMP_EV_GET_MAX_THREADS_EVENT, POMP_GROUP_RUNTIME, EV}, {POMP_EV_GET_THREAD_NUM_EVENT, POMP_GROUP_RUNTIME, EV},
    {POMP_EV_GET_NUM_PROCS_EVENT, POMP_GROUP_RUNTIME, EV}, {POMP_EV_IN_PARALLEL_EVENT, POMP_GROUP_RUNTIME, EV},
    {POMP_EV_SET_DYNAMIC_EVENT, POMP_GROUP_RUNTIME, EV}, {POMP_EV_GET_DYNAMIC_EVENT, POMP_GROUP_RUNTIME, EV},
    {POMP_EV_SET_NESTED_EVENT, POMP_GROUP_RUNTIME, EV}, {POMP_EV_GET_NESTED_EVENT, POMP_GROUP_RUNTIME, EV},
    /* constructs the proposal predates (docs/api.md) */
    {POMP_EV_MASKED_BEGIN, POMP_GROUP_SYNC, BE}, {POMP_EV_MASKED_END, POMP_GROUP_SYNC, BE},
    {POMP_EV_DOACROSS_EVENT, POMP_GROUP_SYNC, EV | EE | BE}, {POMP_EV_CANCEL_EVENT, POMP_GROUP_SYNC, EV | EE | BE},
    {POMP_EV_CANCELLATION_POINT_EVENT, POMP_GROUP_SYNC, EV | EE | BE},
    {POMP_EV_SCOPE_ENTER, POMP_GROUP_WORKSHARE, EE | BE}, {POMP_EV_SCOPE_BEGIN, POMP_GROUP_WORKSHARE, BE},
    {POMP_EV_SCOPE_END, POMP_GROUP_WORKSHARE, BE}, {POMP_EV_SCOPE_EXIT, POMP_GROUP_WORKSHARE, EE | BE},
    {POMP_EV_TEAMS_ENTER, POMP_GROUP_PARALLEL, EE | BE}, {POMP_EV_TEAMS_BEGIN, POMP_GROUP_PARALLEL, BE},
    {POMP_EV_TEAMS_END, POMP_GROUP_PARALLEL, BE}, {POMP_EV_TEAMS_EXIT, POMP_GROUP_PARALLEL, EE | BE},
    {POMP_EV_SIMD_ENTER, POMP_GROUP_LOOP, EE | CH | IE | IB}, {POMP_EV_SIMD_EXIT, POMP_GROUP_LOOP, EE | CH | IE | IB},
    {POMP_EV_LOOP_CONSTRUCT_ENTER, POMP_GROUP_LOOP, EE | CH | IE | IB},
    {POMP_EV_LOOP_CONSTRUCT_EXIT, POMP_GROUP_LOOP, EE | CH | IE | IB},
    {POMP_EV_DISTRIBUTE_ENTER, POMP_GROUP_LOOP, EE | CH | IE | IB},
    {POMP_EV_DISTRIBUTE_EXIT, POMP_GROUP_LOOP, EE | CH | IE | IB},
    {POMP_EV_TASK_ENTER, POMP_GROUP_TASK, EE | BE}, {POMP_EV_TASK_BEGIN, POMP_GROUP_TASK, BE},
    {POMP_EV_TASK_END, POMP_GROUP_TASK, BE}, {POMP_EV_TASK_EXIT, POMP_GROUP_TASK, EE | BE},
    {POMP_EV_TASKLOOP_ENTER, POMP_GROUP_TASK, EE | BE}, {POMP_EV_TASKLOOP_EXIT, POMP_GROUP_TASK, EE | BE},
    {POMP_EV_TASKWAIT_ENTER, POMP_GROUP_TASK, EE | BE}, {POMP_EV_TASKWAIT_EXIT, POMP_GROUP_TASK, EE | BE},
    {POMP_EV_TASKGROUP_ENTER, POMP_GROUP_TASK, EE | BE}, {POMP_EV_TASKGROUP_BEGIN, POMP_GROUP_TASK, BE},
    {POMP_EV_TASKGROUP_END, POMP_GROUP_TASK, BE}, {POMP_EV_TASKGROUP_EXIT, POMP_GROUP_TASK, EE | BE},
    {POMP_EV_TASKYIELD_ENTER, POMP_GROUP_TASK, EE | BE}, {POMP_EV_TASKYIELD_EXIT, POMP_GROUP_TASK, EE | BE},
    {POMP_EV_TARGET_ENTER, POMP_GROUP_TARGET, EE | BE}, {POMP_EV_TARGET_EXIT, POMP_GROUP_TARGET, EE | BE},
    {POMP_EV_TARGET_DATA_ENTER, POMP_GROUP_TARGET, EE | BE}, {POMP_EV_TARGET_DATA_BEGIN, POMP_GROUP_TARGET, BE},
    {POMP_EV_TARGET_DATA_END, POMP_GROUP_TARGET, BE}, {POMP_EV_TARGET_DATA_EXIT, POMP_GROUP_TARGET, EE | BE},
    {POMP_EV_DOACROSS_ENTER, POMP_GROUP_SYNC, EE | BE}, {POMP_EV_DOACROSS_EXIT, POMP_GROUP_SYNC, EE | BE},
    {POMP_EV_ATOMIC_ENTER, POMP_GROUP_SYNC, EV | EE | BE}, {POMP_EV_ATOMIC_EXIT, POMP_GROUP_SYNC, EV | EE | BE},
};

static void call_every_routine(void)
{
    static POMP_Handle_t h[32];
    static const char *const ctc = "2**";
    int lock = 0;
    POMP_Parallel_enter(&h[0], 0, 2, 1, ctc);
    POMP_Parallel_begin(h[0], 0);
    POMP_Loop_enter(&h[1], 0, 1, 0, 9, 1, ctc);
    POMP_Loop_chunk_begin(h[1], 0, 0, 9);
    POMP_Loop_iter_begin(h[1], 0, 0);
    POMP_Loop_iter_event(h[1], 0, 0);
    POMP_Loop_iter_end(h[1], 0);
    POMP_Loop_chunk_end(h[1], 0);
    POMP_Loop_exit(h[1], 0);
    POMP_Workshare_enter(&h[2], 0, ctc);
    POMP_Workshare_begin(h[2], 0);
    POMP_Workshare_end(h[2], 0);
    POMP_Workshare_exit(h[2], 0);
    POMP_Sections_enter(&h[3], 0, ctc);
    POMP_Section_begin(h[3], 1, 0);
    POMP_Section_end(h[3], 0);
    POMP_Sections_exit(h[3], 0);
    POMP_Single_enter(&h[4], 0, ctc);
    POMP_Single_begin(h[4], 0);
    POMP_Single_end(h[4], 0);
    POMP_Single_exit(h[4], 0);
    POMP_Critical_enter(&h[5], 0, ctc);
    POMP_Critical_begin(h[5], 0);
    POMP_Critical_end(h[5], 0);
    POMP_Critical_exit(h[5], 0);
    POMP_Master_begin(&h[6], 0, ctc);
    POMP_Master_end(h[6], 0);
    POMP_Barrier_enter(&h[7], 0, ctc);
    POMP_Barrier_exit(h[7], 0);
    POMP_Implicit_barrier_enter(&h[8], 0, ctc);
    POMP_Implicit_barrier_exit(h[8], 0);
    POMP_Flush_event(&h[9], 0, ctc);
    POMP_Atomic_event(&h[9], 0, ctc);
    POMP_Ordered_enter(&h[10], 0, ctc);
    POMP_Ordered_begin(h[10], 0);
    POMP_Ordered_end(h[10], 0);
    POMP_Ordered_exit(h[10], 0);
    POMP_Function_enter(&h[11], 0, ctc);
    POMP_Function_begin(&h[11], 0, ctc);
    POMP_Function_end(h[11], 0);
    POMP_Function_exit(h[11], 0);
    POMP_Function_event(&h[11], 0, ctc);
    POMP_User_region_begin(&h[12], 0, ctc);
    POMP_User_region_end(h[12], 0);
    POMP_User_event(&h[12], 0, ctc);
    POMP_Init_lock_event(&h[13], 0, &lock, ctc);
    POMP_Set_lock_enter(&h[13], 0, &lock, ctc);
    POMP_Set_lock_exit(h[13], 0, &lock);
    POMP_Set_lock_event(&h[13], 0, &lock, ctc);
    POMP_Test_lock_event(&h[13], 0, &lock, 1, ctc);
    POMP_Unset_lock_event(&h[13], 0, &lock, ctc);
    POMP_Destroy_lock_event(&h[13], 0, &lock, ctc);
    POMP_Init_nest_lock_event(&h[14], 0, &lock, ctc);
    POMP_Set_nest_lock_enter(&h[14], 0, &lock, ctc);
    POMP_Set_nest_lock_exit(h[14], 0, &lock);
    POMP_Set_nest_lock_event(&h[14], 0, &lock, ctc);
    POMP_Test_nest_lock_event(&h[14], 0, &lock, 0, ctc);
    POMP_Unset_nest_lock_event(&h[14], 0, &lock, ctc);
    POMP_Destroy_nest_lock_event(&h[14], 0, &lock, ctc);
    POMP_Set_num_threads_event(&h[15], 0, 4, ctc);
    POMP_Get_num_threads_event(&h[15], 0, 4, ctc);
    POMP_Get_max_threads_event(&h[15], 0, 4, ctc);
    POMP_Get_thread_num_event(&h[15], 0, 0, ctc);
    POMP_Get_num_procs_event(&h[15], 0, 2, ctc);
    POMP_In_parallel_event(&h[15], 0, 1, ctc);
    POMP_Set_dynamic_event(&h[15], 0, 0, ctc);
    POMP_Get_dynamic_event(&h[15], 0, 0, ctc);
    POMP_Set_nested_event(&h[15], 0, 1, ctc);
    POMP_Get_nested_event(&h[15], 0, 1, ctc);
    POMP_Masked_begin(&h[16], 0, ctc);
    POMP_Masked_end(h[16], 0);
    POMP_Doacross_event(&h[17], 0, ctc);
    POMP_Cancel_event(&h[17], 0, ctc);
    POMP_Cancellation_point_event(&h[17], 0, ctc);
    POMP_Scope_enter(&h[18], 0, ctc);
    POMP_Scope_begin(h[18], 0);
    POMP_Scope_end(h[18], 0);
    POMP_Scope_exit(h[18], 0);
    POMP_Teams_enter(&h[19], 0, ctc);
    POMP_Teams_begin(h[19], 0);
    POMP_Teams_end(h[19], 0);
    POMP_Teams_exit(h[19], 0);
    POMP_Simd_enter(&h[20], 0, -1, 0, 9, 1, ctc);
    POMP_Simd_exit(h[20], 0);
    POMP_Loop_construct_enter(&h[21], 0, -1, 0, 9, 1, ctc);
    POMP_Loop_construct_exit(h[21], 0);
    POMP_Distribute_enter(&h[22], 0, 2, 0, 9, 1, ctc);
    POMP_Distribute_exit(h[22], 0);
    POMP_Task_enter(&h[23], 0, ctc);
    POMP_Task_begin(h[23], 0);
    POMP_Task_end(h[23], 0);
    POMP_Task_exit(h[23], 0);
    POMP_Taskloop_enter(&h[24], 0, -1, 0, 9, 1, ctc);
    POMP_Taskloop_exit(h[24], 0);
    POMP_Taskwait_enter(&h[25], 0, ctc);
    POMP_Taskwait_exit(h[25], 0);
    POMP_Taskgroup_enter(&h[26], 0, ctc);
    POMP_Taskgroup_begin(h[26], 0);
    POMP_Taskgroup_end(h[26], 0);
    POMP_Taskgroup_exit(h[26], 0);
    POMP_Taskyield_enter(&h[27], 0, ctc);
    POMP_Taskyield_exit(h[27], 0);
    POMP_Target_enter(&h[28], 0, ctc);
    POMP_Target_exit(h[28], 0);
    POMP_Target_data_enter(&h[29], 0, ctc);
    POMP_Target_data_begin(h[29], 0);
    POMP_Target_data_end(h[29], 0);
    POMP_Target_data_exit(h[29], 0);
    POMP_Doacross_enter(&h[30], 0, ctc);
    POMP_Doacross_exit(h[30], 0);
    POMP_Atomic_enter(&h[31], 0, ctc);
    POMP_Atomic_exit(h[31], 0);
    POMP_Parallel_end(h[0], 0);
    POMP_Parallel_exit(h[0], 0);
}

struct setting {
    enum pomp_group group;
    char level_text[16];      /* as a user writes it (inline: tests run in a re-executed process) */
    unsigned level;           /* enum pomp_level bit */
};

static struct setting settings[] = {
    {POMP_GROUP_PARALLEL, "none", POMP_LEVEL_NONE}, {POMP_GROUP_PARALLEL, "enterexit", EE},
    {POMP_GROUP_PARALLEL, "BeginEnd", BE},
    {POMP_GROUP_LOOP, "NONE", POMP_LEVEL_NONE}, {POMP_GROUP_LOOP, "EnterExit", EE},
    {POMP_GROUP_LOOP, "Chunks", CH}, {POMP_GROUP_LOOP, "IterEvent", IE},
    {POMP_GROUP_LOOP, "iterbeginend", IB},
    {POMP_GROUP_WORKSHARE, "none", POMP_LEVEL_NONE}, {POMP_GROUP_WORKSHARE, "EnterExit", EE},
    {POMP_GROUP_WORKSHARE, "BeginEnd", BE},
    {POMP_GROUP_SYNC, "none", POMP_LEVEL_NONE}, {POMP_GROUP_SYNC, "Event", EV},
    {POMP_GROUP_SYNC, "EnterExit", EE}, {POMP_GROUP_SYNC, "BeginEnd", BE},
    {POMP_GROUP_USER, "none", POMP_LEVEL_NONE}, {POMP_GROUP_USER, "Event", EV},
    {POMP_GROUP_USER, "EnterExit", EE}, {POMP_GROUP_USER, "BeginEnd", BE},
    {POMP_GROUP_RUNTIME, "none", POMP_LEVEL_NONE}, {POMP_GROUP_RUNTIME, "Event", EV},
    {POMP_GROUP_RUNTIME, "EnterExit", EE},
    {POMP_GROUP_TASK, "none", POMP_LEVEL_NONE}, {POMP_GROUP_TASK, "EnterExit", EE},
    {POMP_GROUP_TASK, "BeginEnd", BE},
    {POMP_GROUP_TARGET, "none", POMP_LEVEL_NONE}, {POMP_GROUP_TARGET, "EnterExit", EE},
    {POMP_GROUP_TARGET, "BeginEnd", BE},
};

ParameterizedTestParameters(levels, exactly_the_routines_of_the_level)
{
    return cr_make_param_array(struct setting, settings, sizeof settings / sizeof *settings);
}

ParameterizedTest(struct setting *s, levels, exactly_the_routines_of_the_level)
{
    char var[32];
    snprintf(var, sizeof var, "POMP_%s", pomp_group_name(s->group));
    setenv(var, s->level_text, 1);
    setenv("POMP_TRACE", "events", 1);
    setenv("POMP_SUMMARY", "off", 1);
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-unit-test-output", 1);
    call_every_routine();

    int seen[POMP_EV_COUNT] = {0};
    const struct pomp_eventlog *log = &pomp_tls_thread->log;
    for (uint32_t i = 0; i < log->used; i++)
        seen[log->buf[i].kind]++;
    for (size_t i = 0; i < sizeof spec / sizeof *spec; i++) {
        unsigned active = spec[i].group == s->group ? s->level : pomp_level_default(spec[i].group);
        int expected = (active & spec[i].levels) != 0;
        cr_expect_eq(seen[spec[i].kind], expected, "%s=%s: %s recorded %d times, expected %d", var,
                     s->level_text, pomp_event_name(spec[i].kind), seen[spec[i].kind], expected);
    }
    cr_expect_eq(pomp_tls_thread->profile.nesting_errors, 0, "%s=%s: nesting errors", var,
                 s->level_text);
}

Test(levels, every_routine_is_in_the_spec)
{
    cr_assert_eq(sizeof spec / sizeof *spec, POMP_EV_ROUTINE_COUNT);
}

Test(levels, bad_values_are_refused_per_group)
{
    enum pomp_level l;
    const char *allowed;
    cr_assert_eq(pomp_level_parse(POMP_GROUP_LOOP, "BeginEnd", &l, &allowed), -1);
    cr_assert_str_eq(allowed, "none, EnterExit, Chunks, IterEvent, IterBeginEnd");
    cr_assert_eq(pomp_level_parse(POMP_GROUP_PARALLEL, "Chunks", &l, NULL), -1);
    cr_assert_eq(pomp_level_parse(POMP_GROUP_RUNTIME, "BeginEnd", &l, NULL), -1);
    cr_assert_eq(pomp_level_parse(POMP_GROUP_SYNC, "", &l, NULL), -1);
    cr_assert_eq(pomp_level_parse(POMP_GROUP_SYNC, "beginend", &l, NULL), 0);
    cr_assert_eq(l, POMP_LEVEL_BEGINEND);
}

Test(levels, bad_environment_value_falls_back_to_the_default, .init = cr_redirect_stderr)
{
    setenv("POMP_LOOP", "sometimes", 1);
    pomp_levels_read_environment();
    cr_assert_eq(pomp_active_level[POMP_GROUP_LOOP], POMP_LEVEL_ENTEREXIT);
    fflush(stderr);
    cr_assert_stderr_eq_str("pomp: POMP_LOOP='sometimes' is not valid (allowed: none, EnterExit, "
                            "Chunks, IterEvent, IterBeginEnd); using EnterExit\n");
}

/* POMP_ENABLE=off: every group at none, so that each event returns on its
 * first test (left unset, each asked whether the library had started: a task
 * program ran 4.5 times the plain time, slower than measured; a probe). */
Test(levels, a_disabled_library_sets_every_group_to_none)
{
    setenv("POMP_ENABLE", "off", 1);
    pomp_ensure_initialized();
    for (int g = 0; g < POMP_GROUP_COUNT; g++)
        cr_assert_eq(pomp_active_level[g], POMP_LEVEL_NONE, "group %d", g);
    cr_assert_eq(pomp_level_wants(POMP_GROUP_TASK, POMP_LEVEL_ENTEREXIT | POMP_LEVEL_BEGINEND), 0);
}
