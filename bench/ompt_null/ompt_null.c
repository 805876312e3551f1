/* An OMPT tool that does nothing, for make bench's construct suite. Linked
 * into the plain program, it turns LLVM libomp's tool interface on and nothing
 * else: what the program then costs more than without it is libomp's own
 * price for an active tool (its OMPT state, frame and task bookkeeping on
 * every fork, barrier and task), which any OMPT tool pays before its first
 * callback runs: the floor under the OMPT bridge's figures.
 *
 * With POMP_BENCH_NULL_CALLBACKS=1 it also registers empty callbacks for what
 * the OMPT bridge registers at the default levels in a program linked by
 * pompcc (thread begin, parallel begin/end, implicit task, sync region):
 * loaded by OMP_TOOL_LIBRARIES into the pompcc build with POMP_OMPT=off, it
 * gives the POMP events plus libomp's cost of calling those callbacks, so
 * that what pomp costs beyond it is the bridge's own work. */
#include <omp-tools.h>
#include <stdlib.h>

static void on_thread_begin(ompt_thread_t type, ompt_data_t *data)
{
    (void)type;
    (void)data;
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *parallel,
                              unsigned int requested, int flags, const void *codeptr)
{
    (void)task, (void)frame, (void)parallel, (void)requested, (void)flags, (void)codeptr;
}

static void on_parallel_end(ompt_data_t *parallel, ompt_data_t *task, int flags,
                            const void *codeptr)
{
    (void)parallel, (void)task, (void)flags, (void)codeptr;
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                             ompt_data_t *task, unsigned int actual, unsigned int index, int flags)
{
    (void)endpoint, (void)parallel, (void)task, (void)actual, (void)index, (void)flags;
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel, ompt_data_t *task, const void *codeptr)
{
    (void)kind, (void)endpoint, (void)parallel, (void)task, (void)codeptr;
}

#define CALLBACK(fn) ((ompt_callback_t)(void (*)(void))(fn))

static int null_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data)
{
    (void)initial_device_num;
    (void)tool_data;
    const char *v = getenv("POMP_BENCH_NULL_CALLBACKS");
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (v && v[0] == '1' && set) {
        set(ompt_callback_thread_begin, CALLBACK(on_thread_begin));
        set(ompt_callback_parallel_begin, CALLBACK(on_parallel_begin));
        set(ompt_callback_parallel_end, CALLBACK(on_parallel_end));
        set(ompt_callback_implicit_task, CALLBACK(on_implicit_task));
        set(ompt_callback_sync_region, CALLBACK(on_sync_region));
    }
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
