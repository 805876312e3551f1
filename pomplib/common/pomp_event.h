/* The events of every source (POMP routines, the runtime bridges) and the raw
 * trace record they are stored in: shared by the recording core, the writers
 * and pomp-report, which reads the records back (docs/output.md, "raw trace"). */
#ifndef POMP_EVENT_H
#define POMP_EVENT_H

#include <stdint.h>

/* Every POMP event routine, as (ID, name without the POMP_ prefix). */
#define POMP_EVENT_LIST(X)                                                                  \
    X(PARALLEL_ENTER, Parallel_enter) X(PARALLEL_BEGIN, Parallel_begin)                    \
    X(PARALLEL_END, Parallel_end) X(PARALLEL_EXIT, Parallel_exit)                          \
    X(LOOP_ENTER, Loop_enter) X(LOOP_CHUNK_BEGIN, Loop_chunk_begin)                        \
    X(LOOP_ITER_BEGIN, Loop_iter_begin) X(LOOP_ITER_EVENT, Loop_iter_event)                \
    X(LOOP_ITER_END, Loop_iter_end) X(LOOP_CHUNK_END, Loop_chunk_end)                      \
    X(LOOP_EXIT, Loop_exit)                                                                \
    X(WORKSHARE_ENTER, Workshare_enter) X(WORKSHARE_BEGIN, Workshare_begin)                \
    X(WORKSHARE_END, Workshare_end) X(WORKSHARE_EXIT, Workshare_exit)                      \
    X(SECTIONS_ENTER, Sections_enter) X(SECTION_BEGIN, Section_begin)                      \
    X(SECTION_END, Section_end) X(SECTIONS_EXIT, Sections_exit)                            \
    X(SINGLE_ENTER, Single_enter) X(SINGLE_BEGIN, Single_begin) X(SINGLE_END, Single_end)  \
    X(SINGLE_EXIT, Single_exit)                                                            \
    X(CRITICAL_ENTER, Critical_enter) X(CRITICAL_BEGIN, Critical_begin)                    \
    X(CRITICAL_END, Critical_end) X(CRITICAL_EXIT, Critical_exit)                          \
    X(MASTER_BEGIN, Master_begin) X(MASTER_END, Master_end)                                \
    X(BARRIER_ENTER, Barrier_enter) X(BARRIER_EXIT, Barrier_exit)                          \
    X(IMPLICIT_BARRIER_ENTER, Implicit_barrier_enter)                                      \
    X(IMPLICIT_BARRIER_EXIT, Implicit_barrier_exit)                                        \
    X(FLUSH_EVENT, Flush_event) X(ATOMIC_EVENT, Atomic_event)                              \
    X(ORDERED_ENTER, Ordered_enter) X(ORDERED_BEGIN, Ordered_begin)                        \
    X(ORDERED_END, Ordered_end) X(ORDERED_EXIT, Ordered_exit)                              \
    X(FUNCTION_ENTER, Function_enter) X(FUNCTION_BEGIN, Function_begin)                    \
    X(FUNCTION_END, Function_end) X(FUNCTION_EXIT, Function_exit)                          \
    X(FUNCTION_EVENT, Function_event)                                                      \
    X(USER_REGION_BEGIN, User_region_begin) X(USER_REGION_END, User_region_end)            \
    X(USER_EVENT, User_event)                                                              \
    X(INIT_LOCK_EVENT, Init_lock_event) X(DESTROY_LOCK_EVENT, Destroy_lock_event)          \
    X(SET_LOCK_ENTER, Set_lock_enter) X(SET_LOCK_EXIT, Set_lock_exit)                      \
    X(SET_LOCK_EVENT, Set_lock_event) X(UNSET_LOCK_EVENT, Unset_lock_event)                \
    X(TEST_LOCK_EVENT, Test_lock_event)                                                    \
    X(INIT_NEST_LOCK_EVENT, Init_nest_lock_event)                                          \
    X(DESTROY_NEST_LOCK_EVENT, Destroy_nest_lock_event)                                    \
    X(SET_NEST_LOCK_ENTER, Set_nest_lock_enter) X(SET_NEST_LOCK_EXIT, Set_nest_lock_exit)  \
    X(SET_NEST_LOCK_EVENT, Set_nest_lock_event)                                            \
    X(UNSET_NEST_LOCK_EVENT, Unset_nest_lock_event)                                        \
    X(TEST_NEST_LOCK_EVENT, Test_nest_lock_event)                                          \
    X(SET_NUM_THREADS_EVENT, Set_num_threads_event)                                        \
    X(GET_NUM_THREADS_EVENT, Get_num_threads_event)                                        \
    X(GET_MAX_THREADS_EVENT, Get_max_threads_event)                                        \
    X(GET_THREAD_NUM_EVENT, Get_thread_num_event)                                          \
    X(GET_NUM_PROCS_EVENT, Get_num_procs_event) X(IN_PARALLEL_EVENT, In_parallel_event)    \
    X(SET_DYNAMIC_EVENT, Set_dynamic_event) X(GET_DYNAMIC_EVENT, Get_dynamic_event)        \
    X(SET_NESTED_EVENT, Set_nested_event) X(GET_NESTED_EVENT, Get_nested_event)      \
    POMP_OMP5_EVENT_LIST(X)

/* Constructs the proposal predates (OpenMP 3.0 to 5.2): docs/api.md. */
#define POMP_OMP5_EVENT_LIST(X)                                                             \
    X(MASKED_BEGIN, Masked_begin) X(MASKED_END, Masked_end)                                \
    X(DOACROSS_EVENT, Doacross_event) X(CANCEL_EVENT, Cancel_event)                        \
    X(CANCELLATION_POINT_EVENT, Cancellation_point_event)                                  \
    X(SCOPE_ENTER, Scope_enter) X(SCOPE_BEGIN, Scope_begin) X(SCOPE_END, Scope_end)        \
    X(SCOPE_EXIT, Scope_exit)                                                              \
    X(TEAMS_ENTER, Teams_enter) X(TEAMS_BEGIN, Teams_begin) X(TEAMS_END, Teams_end)        \
    X(TEAMS_EXIT, Teams_exit)                                                              \
    X(SIMD_ENTER, Simd_enter) X(SIMD_EXIT, Simd_exit)                                      \
    X(LOOP_CONSTRUCT_ENTER, Loop_construct_enter) X(LOOP_CONSTRUCT_EXIT, Loop_construct_exit) \
    X(DISTRIBUTE_ENTER, Distribute_enter) X(DISTRIBUTE_EXIT, Distribute_exit)              \
    X(TASK_ENTER, Task_enter) X(TASK_BEGIN, Task_begin) X(TASK_END, Task_end)              \
    X(TASK_EXIT, Task_exit)                                                                \
    X(TASKLOOP_ENTER, Taskloop_enter) X(TASKLOOP_EXIT, Taskloop_exit)                      \
    X(TASKWAIT_ENTER, Taskwait_enter) X(TASKWAIT_EXIT, Taskwait_exit)                      \
    X(TASKGROUP_ENTER, Taskgroup_enter) X(TASKGROUP_BEGIN, Taskgroup_begin)                \
    X(TASKGROUP_END, Taskgroup_end) X(TASKGROUP_EXIT, Taskgroup_exit)                      \
    X(TASKYIELD_ENTER, Taskyield_enter) X(TASKYIELD_EXIT, Taskyield_exit)                  \
    X(TARGET_ENTER, Target_enter) X(TARGET_EXIT, Target_exit)                              \
    X(TARGET_DATA_ENTER, Target_data_enter) X(TARGET_DATA_BEGIN, Target_data_begin)        \
    X(TARGET_DATA_END, Target_data_end) X(TARGET_DATA_EXIT, Target_data_exit)              \
    X(DOACROSS_ENTER, Doacross_enter) X(DOACROSS_EXIT, Doacross_exit)                      \
    X(ATOMIC_ENTER, Atomic_enter) X(ATOMIC_EXIT, Atomic_exit)

/* Events that only the OpenMP runtime reports (the OMPT bridge, ompt-bridge/),
 * for what no POMP routine describes. Constructs POMP does describe keep their
 * POMP events (an uninstrumented parallel region logs Parallel_enter...). */
#define POMP_OMPT_EVENT_LIST(X)                                                             \
    X(OMPT_WAIT_ENTER, Ompt_wait_enter) X(OMPT_WAIT_EXIT, Ompt_wait_exit)                  \
    X(OMPT_SYNC_ENTER, Ompt_sync_enter) X(OMPT_SYNC_EXIT, Ompt_sync_exit)                  \
    X(OMPT_WORK_ENTER, Ompt_work_enter) X(OMPT_WORK_EXIT, Ompt_work_exit)                  \
    X(OMPT_TASK_CREATE, Ompt_task_create) X(OMPT_TASK_BEGIN, Ompt_task_begin)              \
    X(OMPT_TASK_END, Ompt_task_end) X(OMPT_TASK_DEPENDENCES, Ompt_task_dependences)        \
    X(OMPT_CANCEL, Ompt_cancel)                                                            \
    X(OMPT_DEVICE_OP_ENTER, Ompt_device_op_enter) X(OMPT_DEVICE_OP_EXIT, Ompt_device_op_exit)

#define POMP_EVENT_ENUM(id, name) POMP_EV_##id,
enum pomp_event_kind {
    POMP_EVENT_LIST(POMP_EVENT_ENUM) POMP_OMPT_EVENT_LIST(POMP_EVENT_ENUM) POMP_EV_COUNT
};
/* The POMP routines' events come first, the runtime's after them. */
enum { POMP_EV_ROUTINE_COUNT = POMP_EV_OMPT_WAIT_ENTER };
#undef POMP_EVENT_ENUM

/* "Parallel_enter", ...: the POMP routine's name without the POMP_ prefix;
 * "pomp_flush" and "pomp_gap" for the library's own records. */
const char *pomp_event_name(unsigned kind);

/* Event records that are not POMP routines (kinds above POMP_EV_COUNT). */
enum {
    POMP_EV_TRACE_FLUSH = 0x8000, /* the thread wrote its full buffer to disk (enter/exit pair) */
    POMP_EV_TRACE_GAP = 0x8001,   /* arg events were lost before this point (a failed flush) */
};

/* What an event does to the thread's region nesting (the profile's four kinds
 * of seed 002 plus single events); the trace converters rebuild the nesting
 * from it without a table per event kind. */
enum pomp_phase { POMP_PHASE_ENTER, POMP_PHASE_BEGIN, POMP_PHASE_END, POMP_PHASE_EXIT,
                  POMP_PHASE_EVENT, POMP_PHASE_COUNT };

/* Group byte of records the library writes itself (flush, gap). */
#define POMP_EVENT_GROUP_LIBRARY 0xff

/* One raw trace record, 24 bytes, written as is to the per-thread trace files
 * (docs/output.md, "raw trace"). */
struct pomp_event {
    uint64_t time;      /* raw ticks (pomp_now) */
    uint64_t arg;       /* lock address, task id, num_threads, dropped count; 0 if none */
    uint32_t region;    /* region id */
    uint16_t kind;      /* enum pomp_event_kind, or POMP_EV_TRACE_* */
    uint8_t phase;      /* enum pomp_phase */
    uint8_t group;      /* enum pomp_group, or POMP_EVENT_GROUP_LIBRARY */
};

/* POMP_TRACE: which files the trace is converted to after the run (bits). Any
 * of them turns the per-thread trace buffers on. */
enum pomp_trace_format {
    POMP_TRACE_NONE = 0,
    POMP_TRACE_EVENTS = 1 << 0, /* events.log (text) */
    POMP_TRACE_OTF2 = 1 << 1,   /* traces.otf2 */
    POMP_TRACE_CHROME = 1 << 2, /* trace.json */
};

#endif
