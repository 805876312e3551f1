/* An OMPT tool that registers no callback, for make bench's construct suite:
 * linked into the plain program, it turns LLVM libomp's tool interface on and
 * nothing else. What the program then costs more than without it is libomp's
 * own price for an active tool (its OMPT state, frame and task bookkeeping on
 * every fork, barrier and task), which any OMPT tool pays before its first
 * callback runs: the floor under the OMPT bridge's figures. */
#include <omp-tools.h>

static int null_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data)
{
    (void)lookup;
    (void)initial_device_num;
    (void)tool_data;
    return 1; /* keep the tool active */
}

static void null_finalize(ompt_data_t *tool_data) { (void)tool_data; }

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version;
    (void)runtime_version;
    static ompt_start_tool_result_t tool = {null_initialize, null_finalize, {.value = 0}};
    return &tool;
}
