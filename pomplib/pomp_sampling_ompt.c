/* The OMPT tool for sampling: the runtime's inquiry functions, thread begin
 * and end (a timer per thread), and parallel begin and end (the fork record
 * that is the base of the samples' user-model call stacks). */
#include <omp-tools.h>
#include <stddef.h>

#include "pomp_control.h"
#include "pomp_sampling.h"

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    (void)type;
    (void)thread_data;
    pomp_sampling_thread_begin();
}

static void on_thread_end(ompt_data_t *thread_data)
{
    (void)thread_data;
    pomp_sampling_thread_end();
}

static void on_parallel_begin(ompt_data_t *encountering_task_data,
                              const ompt_frame_t *encountering_task_frame,
                              ompt_data_t *parallel_data, unsigned int requested_parallelism,
                              int flags, const void *codeptr_ra)
{
    (void)encountering_task_data;
    (void)encountering_task_frame;
    (void)requested_parallelism;
    (void)flags;
    parallel_data->ptr = pomp_sampling_fork_begin(codeptr_ra);
}

static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                            int flags, const void *codeptr_ra)
{
    (void)encountering_task_data;
    (void)flags;
    (void)codeptr_ra;
    pomp_sampling_fork_end(parallel_data->ptr);
}

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data)
{
    (void)initial_device_num;
    (void)tool_data;
    pomp_ensure_core_initialized();
    if (!pomp_sampling_is_on())
        return 0;
    struct pomp_sampling_runtime rt = {
        .get_state = (ompt_get_state_t)lookup("ompt_get_state"),
        .get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info"),
        .get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info"),
    };
    pomp_sampling_set_runtime(&rt);
    ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set_callback)
        return 0;
    set_callback(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
    set_callback(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
    set_callback(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
    set_callback(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
    return 1;
}

static void tool_finalize(ompt_data_t *tool_data) { (void)tool_data; }

__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version;
    (void)runtime_version;
    static ompt_start_tool_result_t result = {tool_initialize, tool_finalize, {0}};
    return &result;
}
