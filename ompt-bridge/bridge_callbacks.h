/* The OMPT callbacks of the bridge, by file; bridge_tool.c registers them. */
#ifndef POMP_BRIDGE_CALLBACKS_H
#define POMP_BRIDGE_CALLBACKS_H

#include <omp-tools.h>

/* bridge_parallel.c: teams, implicit tasks, sync regions (barriers, taskwait, taskgroup) */
void bridge_on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data);
void bridge_on_thread_end(ompt_data_t *thread_data);
/* Thread begin and end are registered: the initial threads are counted. */
void bridge_count_initial_threads(void);
/* The initial threads other than the calling one that have begun and not
 * ended; -1 where they are not counted. */
int bridge_other_initial_threads(void);
struct pomp_fork_record;
const struct pomp_fork_record *bridge_fork_record(const ompt_data_t *parallel_data);
/* A worker whose team's master had left the closing barrier by `when`
 * (UINT64_MAX: now): waiting for work, though still reported in the barrier. */
int bridge_worker_joined_by(uint64_t when);
/* Parallel regions forked on a thread already BRIDGE_MAX_NESTING teams deep:
 * not recorded by the bridge (said at the end). */
uint64_t bridge_forks_too_deep(void);
void bridge_on_parallel_begin(ompt_data_t *encountering_task_data,
                              const ompt_frame_t *encountering_task_frame,
                              ompt_data_t *parallel_data, unsigned int requested_parallelism,
                              int flags, const void *codeptr_ra);
void bridge_on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                            int flags, const void *codeptr_ra);
void bridge_on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, unsigned int actual_parallelism,
                             unsigned int index, int flags);
void bridge_on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr_ra);
/* A taskgroup's wait (the only kind the bridge takes from sync_region_wait). */
void bridge_on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr_ra);

/* bridge_work.c: worksharing constructs, chunks, masked */
void bridge_on_work(ompt_work_t work_type, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel_data, ompt_data_t *task_data, uint64_t count,
                    const void *codeptr_ra);
void bridge_on_dispatch(ompt_data_t *parallel_data, ompt_data_t *task_data,
                        ompt_dispatch_t kind, ompt_data_t instance);
void bridge_on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                      ompt_data_t *task_data, const void *codeptr_ra);

/* bridge_mutex.c: waits for locks, critical, ordered, atomic */
void bridge_on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                             ompt_wait_id_t wait_id, const void *codeptr_ra);
void bridge_on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra);
void bridge_on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra);
void bridge_on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                         const void *codeptr_ra);

/* bridge_task.c: explicit tasks, dependences, cancellation */
void bridge_on_task_create(ompt_data_t *encountering_task_data,
                           const ompt_frame_t *encountering_task_frame,
                           ompt_data_t *new_task_data, int flags, int has_dependences,
                           const void *codeptr_ra);
/* A pompcc build's: only the tasks whose executions the instrumentation does
 * not report (of its taskloops, and of its untied tasks without events in the
 * body). */
void bridge_on_unreported_task_create(ompt_data_t *encountering_task_data,
                           const ompt_frame_t *encountering_task_frame,
                           ompt_data_t *new_task_data, int flags, int has_dependences,
                           const void *codeptr_ra);
void bridge_on_task_schedule(ompt_data_t *prior_task_data, ompt_task_status_t prior_task_status,
                             ompt_data_t *next_task_data);
void bridge_on_dependences(ompt_data_t *task_data, const ompt_dependence_t *deps, int ndeps);
void bridge_on_cancel(ompt_data_t *task_data, int flags, const void *codeptr_ra);

/* bridge_device.c: devices, target constructs, data operations, kernel launches */
void bridge_on_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                 ompt_function_lookup_t lookup, const char *documentation);
void bridge_on_device_finalize(int device_num);
void bridge_on_device_load(int device_num, const char *filename, int64_t offset_in_file,
                           void *vma_in_file, size_t bytes, void *host_addr, void *device_addr,
                           uint64_t module_id);
void bridge_on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                          ompt_data_t *task_data, ompt_data_t *target_task_data,
                          ompt_data_t *target_data, const void *codeptr_ra);
void bridge_on_target_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                                  ompt_data_t *target_data, ompt_id_t *host_op_id,
                                  ompt_target_data_op_t optype, void *src_addr, int src_device_num,
                                  void *dest_addr, int dest_device_num, size_t bytes,
                                  const void *codeptr_ra);
void bridge_on_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                                 ompt_id_t *host_op_id, unsigned int requested_num_teams);

/* bridge_parallel.c: a worker's closing barrier still open at finalization */
void bridge_close_pending(void);

struct bridge_thread;
/* GCC code on libomp: GOMP_single_start reports the executor's begin and
 * nothing reports its end (GCC calls nothing at the block's end). A single
 * executor's scope still on top when its thread reaches a barrier or its next
 * worksharing construct (not a taskloop, which may be inside the block) ends
 * there, as the libgomp bridge ends it; clang's code reports the end before
 * either (__kmpc_end_single). */
void bridge_work_end_open_single(struct bridge_thread *b);
/* The same at a barrier's begin or the implicit task's end, and for a loop or
 * sections still open there: one that was canceled (LLVM libomp reports no
 * end of a canceled dynamic or guided loop, which stayed open until the
 * region's end, read as unmatched; a probe). No worksharing region holds a
 * barrier of its own team, so one still open there has ended. */
void bridge_work_end_at_barrier(struct bridge_thread *b);

#endif
