/* The OMPT tool: ompt_start_tool (found by libomp in the program, or in
 * libpomp.so named by OMP_TOOL_LIBRARIES), the callbacks it registers, the
 * application's omp_control_tool() commands, and the bridge's part of
 * finalization. When measurement is off (POMP_ENABLE=off, POMP_OMPT=off) no
 * tool starts, so the runtime pays nothing; a callback is registered only if
 * one of the groups it feeds records at the chosen levels. */
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <libunwind.h>
#include <link.h>
#include <pthread.h>
#include <pomplib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bridge_callbacks.h"
#include "bridge_collector.h"
#include "bridge_device.h"
#include "bridge_record.h"
#include "bridge_symbols.h"
#include "pomp_record.h"
#include "pomp_symbols.h"

/* Set once, when the runtime initializes the tool. */
static int tool_started;
/* The runtime ended the tool (tool_finalize: its shutdown or a hard pause). */
static int tool_ended;

/* One runtime per process feeds the tool: the first to ask for it (libgomp
 * through the libgomp bridge, or LLVM libomp). A second runtime in the same
 * process (a GCC program under pomprun with a Clang-built library, so both
 * libgomp and libomp run) is declined, its name kept to be said at exit: its
 * constructs run unmeasured. Both runtimes' events into one model would need
 * the bridge's runtime entry points (states, task info) per runtime. */
static int tool_claimed;
static void (*runtime_shutdown)(void); /* the libgomp bridge's "pomp_gomp_shutdown" */
/* When the runtime started the tool, and when a pause ended it (CLOCK_MONOTONIC
 * ns), or 0: said in the profile too (ompt_unmeasured), where a reader of the
 * report finds it. */
static uint64_t started_ns, paused_at_ns;
typedef void (*runtime_unmeasured_fn)(void (*say)(void *ctx, const char *what), void *ctx);
static runtime_unmeasured_fn runtime_unmeasured; /* its "pomp_gomp_unmeasured" */
static char tool_runtime[80], declined_runtime[80];

static int group_records(enum pomp_group g)
{
    return pomp_level_records(g, 0xff & ~POMP_LEVEL_UNSET);
}

/* Values of omp_control_tool's command (OpenMP 5.x, seed 000 §8) and result. */
enum { CONTROL_START = 1, CONTROL_PAUSE = 2, CONTROL_FLUSH = 3, CONTROL_END = 4 };
enum { CONTROL_SUCCESS = 0, CONTROL_IGNORED = 1 };

static int on_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr_ra)
{
    (void)modifier;
    (void)arg;
    (void)codeptr_ra;
    switch (command) {
    case CONTROL_START: return POMP_On() == POMP_SUCCESS ? CONTROL_SUCCESS : CONTROL_IGNORED;
    case CONTROL_PAUSE: return POMP_Off() == POMP_SUCCESS ? CONTROL_SUCCESS : CONTROL_IGNORED;
    case CONTROL_FLUSH:
        /* the profile lives in per-thread memory until finalization; there is
         * no buffer to write early, so a flush has nothing left to do */
        return bridge_measuring() < 0 ? CONTROL_IGNORED : CONTROL_SUCCESS;
    case CONTROL_END: return POMP_Finalize() == POMP_SUCCESS ? CONTROL_SUCCESS : CONTROL_IGNORED;
    default: return CONTROL_IGNORED; /* tool-specific codes (>= 64) pomp does not define */
    }
}

#define CALLBACK(fn) ((ompt_callback_t)(void (*)(void))(fn))

/* The bridge's function for each OMPT callback it can register. */
static ompt_callback_t bridge_callback(ompt_callbacks_t event)
{
    switch (event) {
    case ompt_callback_thread_begin: return CALLBACK(bridge_on_thread_begin);
    case ompt_callback_thread_end: return CALLBACK(bridge_on_thread_end);
    case ompt_callback_parallel_begin: return CALLBACK(bridge_on_parallel_begin);
    case ompt_callback_parallel_end: return CALLBACK(bridge_on_parallel_end);
    case ompt_callback_implicit_task: return CALLBACK(bridge_on_implicit_task);
    case ompt_callback_sync_region: return CALLBACK(bridge_on_sync_region);
    case ompt_callback_sync_region_wait: return CALLBACK(bridge_on_sync_region_wait);
    case ompt_callback_work: return CALLBACK(bridge_on_work);
    case ompt_callback_dispatch: return CALLBACK(bridge_on_dispatch);
    case ompt_callback_masked: return CALLBACK(bridge_on_masked);
    case ompt_callback_mutex_acquire: return CALLBACK(bridge_on_mutex_acquire);
    case ompt_callback_mutex_acquired: return CALLBACK(bridge_on_mutex_acquired);
    case ompt_callback_mutex_released: return CALLBACK(bridge_on_mutex_released);
    case ompt_callback_nest_lock: return CALLBACK(bridge_on_nest_lock);
    case ompt_callback_task_create: return CALLBACK(bridge_on_task_create);
    case ompt_callback_task_schedule: return CALLBACK(bridge_on_task_schedule);
    case ompt_callback_dependences: return CALLBACK(bridge_on_dependences);
    case ompt_callback_cancel: return CALLBACK(bridge_on_cancel);
    case ompt_callback_control_tool: return CALLBACK(on_control_tool);
    case ompt_callback_device_initialize: return CALLBACK(bridge_on_device_initialize);
    case ompt_callback_device_finalize: return CALLBACK(bridge_on_device_finalize);
    case ompt_callback_device_load: return CALLBACK(bridge_on_device_load);
    case ompt_callback_target_emi: return CALLBACK(bridge_on_target_emi);
    case ompt_callback_target_data_op_emi: return CALLBACK(bridge_on_target_data_op_emi);
    case ompt_callback_target_submit_emi: return CALLBACK(bridge_on_target_submit_emi);
    default: return NULL;
    }
}

/* Which callbacks are registered (bit per ompt_callbacks_t), and those wanted
 * before the runtime started the tool (the collector API may ask early). */
static pthread_mutex_t registration_lock = PTHREAD_MUTEX_INITIALIZER;
static ompt_set_callback_t set_callback; /* the runtime's, once the tool started */
static uint64_t registered, wanted;

/* LLVM libomp 19 (llvm-project pull request 169826 fixed it later) takes the
 * return address that it hands a critical's mutex_released from the record of
 * its first root thread (gtid 0), not from the caller's: once that thread is
 * gone (a pthread other than main started the runtime, then exited, as in a
 * threaded driver whose threads each run OpenMP code), every critical's end
 * crashed the program under pomprun. The tool notes which thread started the
 * runtime and, when it ends, stops asking for releases: from then on the
 * critical and ordered constructs the runtime reports have their waits
 * measured, not their blocks (bridge_mutex.c), and the profile says so. */
static pid_t first_root_tid;       /* that thread, where it is not main and the runtime libomp */
static uint64_t releases_off_ns;   /* when the tool stopped asking (0: it did not) */
int bridge_mutex_no_release, bridge_mutex_unframed;

/* Registers fn for the event (once: a later call keeps the first function). */
static void register_fn_locked(ompt_callbacks_t event, ompt_callback_t fn)
{
    uint64_t bit = 1ull << event;
    wanted |= bit;
    if (!set_callback || (registered & bit))
        return;
    if (event == ompt_callback_mutex_released &&
        __atomic_load_n(&bridge_mutex_no_release, __ATOMIC_ACQUIRE))
        return; /* (the collector API asking later, registered or not before) */
    if (fn && set_callback(event, fn) != ompt_set_error) {
        registered |= bit;
        /* the lock waits followed (lock calls left to the runtime, POMP_OMPT=full,
         * the collector API asking): a lock site's wait must stay under its call */
        if (event == ompt_callback_mutex_acquire)
            pomp_fast_lock_waits_followed();
    }
}

static void register_locked(ompt_callbacks_t event)
{
    register_fn_locked(event, bridge_callback(event));
}

void bridge_tool_require(ompt_callbacks_t event)
{
    pthread_mutex_lock(&registration_lock);
    register_locked(event);
    pthread_mutex_unlock(&registration_lock);
}

/* POMP_OMPT (read once, at the runtime's initialization): off, on (the
 * default) or full. */
enum ompt_mode { OMPT_OFF, OMPT_ON, OMPT_FULL };
static enum ompt_mode ompt_mode(void);

/* pomp-prelink's POMP_Init_Handles: present in a program linked by pompcc;
 * and its flag for a program some of whose constructs the instrumentation
 * left to the runtime (a macro it cannot take apart, ...). */
extern void POMP_Init_Handles(void) __attribute__((weak));
extern const int POMP_Constructs_left_to_runtime __attribute__((weak));
/* ... and its flag for a program some of whose lock calls stay as written (in
 * a header, in a macro's expansion): their waits are the runtime's to report. */
extern const int POMP_Locks_left_to_runtime __attribute__((weak));
/* Defined by pomp-prelink where the constructs left to the runtime are known
 * to hold no critical or ordered construct. */
extern const int POMP_Constructs_left_without_mutexes __attribute__((weak));

/* Whether the callbacks of constructs POMP instruments itself are needed:
 * worksharing constructs, masked, the waits of critical, ordered and lock
 * calls, tasks. In a program linked by pompcc the instrumentation reports
 * them (a critical's wait to enter is its enter..begin, a lock's wait its
 * omp_set_lock call), and the runtime's reports of them would add nothing but
 * cost: the bridge registers them only for code that may run uninstrumented,
 * a program pompcc did not link (pomprun), one with constructs pompcc left to
 * the runtime (its link said so), or when POMP_OMPT=full asks for them
 * (OpenMP code in libraries not built with pompcc). docs/ompt.md. The
 * runtime's taskwaits are measured then, and in a program whose untied
 * tasks leave theirs to the runtime (bridge_record.h). */
int bridge_runtime_taskwaits = 1;

/* From now on the bridge measures the runtime's taskwaits, which it tells
 * from POMP's by POMP's enter: a taskwait in a final task counted inline
 * makes none, and would count twice (pomp_fast_final_waits_stop). */
static void runtime_taskwaits_measured(void)
{
    __atomic_store_n(&bridge_runtime_taskwaits, 1, __ATOMIC_SEQ_CST);
    pomp_fast_final_waits_stop();
}

/* The runtimes loaded, by their libraries (note_runtime). */
struct runtimes_seen {
    int libomp, libgomp, gomp_bridge; /* gomp_bridge: libpomp-gomp.so (gomp-bridge/) */
    int libomptarget;                 /* LLVM's offloading library */
    int gomp_first; /* libgomp comes before the bridge in the search order (the link map's):
                       the program's GOMP_* calls reach libgomp, not the bridge */
};
static int note_runtime(struct dl_phdr_info *info, size_t size, void *data);

/* LLVM libomp with its offloading library defers a target task (target
 * nowait, omp_target_memcpy_async) as a hidden helper task also inside a
 * final task, whose taskwait then waits for it: from code pompcc did not
 * compile too, which no file's constructor announced
 * (POMP_Final_waits_may_wait). libgomp runs both at once there. */
static void final_tasks_may_defer(void)
{
    struct runtimes_seen seen = {0};
    pomp_sampling_dl_iterate_phdr(note_runtime, &seen);
    if (seen.libomptarget && strncmp(tool_runtime, "LLVM OMP", 8) == 0)
        pomp_fast_final_waits_stop();
}

static int uninstrumented_code_expected(void)
{
    return ompt_mode() == OMPT_FULL || !POMP_Init_Handles ||
           (&POMP_Constructs_left_to_runtime && POMP_Constructs_left_to_runtime);
}

/* Parallel regions pompcc did not instrument that ran where the callbacks
 * follow the instrumentation only (a plugin dlopened by a program pompcc
 * linked: its loop, critical and 20 tasks went unmeasured, without a word;
 * a probe), and the first one's code address: its object is named at the
 * end (a fork callback takes no loader lock). */
static uint64_t unexpected_forks;
static const void *unexpected_first; /* the first one's code address, named at the end */
/* its object's file, read at that first fork (the loader's lock-free lookup),
 * for one unloaded before the end, which dladdr no longer names (a plugin
 * opened and closed: "ran 3 times" in no named object; a probe); set once,
 * by the thread that set unexpected_first, and read at the end */
static char unexpected_object[256];
static int unexpected_object_set;

void bridge_uninstrumented_fork(const void *codeptr_ra)
{
    if (uninstrumented_code_expected())
        return;
    __atomic_fetch_add(&unexpected_forks, 1, __ATOMIC_RELAXED);
    const void *none = NULL; /* (a plain load first: no locked instruction once it is set) */
    uintptr_t offset;
    if (!__atomic_load_n(&unexpected_first, __ATOMIC_RELAXED) &&
        __atomic_compare_exchange_n(&unexpected_first, &none, codeptr_ra, 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED) &&
        pomp_symbols_module_of((uintptr_t)codeptr_ra, unexpected_object, sizeof unexpected_object,
                               &offset))
        __atomic_store_n(&unexpected_object_set, 1, __ATOMIC_RELEASE);
}

/* The sentence for it, or 0 if none ran. */
static int unexpected_forks_said(char *what, size_t size)
{
    uint64_t n = __atomic_load_n(&unexpected_forks, __ATOMIC_RELAXED);
    if (!n)
        return 0;
    const void *first = __atomic_load_n(&unexpected_first, __ATOMIC_RELAXED);
    Dl_info info; /* (the object read at the fork: one unloaded since is named too) */
    const char *object = __atomic_load_n(&unexpected_object_set, __ATOMIC_ACQUIRE) ? unexpected_object
                         : first && dladdr(first, &info) && info.dli_fname ? info.dli_fname
                                                                            : "";
    const char *base = strrchr(object, '/');
    base = base ? base + 1 : object;
    /* forks counted, not constructs: one construct run 3 times read "3
     * parallel regions" (a probe) */
    char times[48] = "";
    if (n > 1)
        snprintf(times, sizeof times, " %llu times", (unsigned long long)n);
    snprintf(what, size,
             "%s that pompcc did not instrument ran%s%s%.80s%s: only %s and %s implicit barriers "
             "were measured, not the worksharing, critical, lock and task constructs in %s; "
             "POMP_OMPT=full measures them (docs/ompt.md)",
             n == 1 ? "a parallel region" : "parallel regions", times, *base ? " (in " : "", base,
             *base ? ")" : "", n == 1 ? "it" : "they", n == 1 ? "its" : "their",
             n == 1 ? "it" : "them");
    return 1;
}

/* Only lock calls may run uninstrumented: the mutex callbacks follow the
 * locks alone (bridge_mutex.c), not the critical and ordered constructs the
 * instrumentation reports. */
int bridge_mutex_locks_only;

static int uninstrumented_locks_expected(void)
{
    return &POMP_Locks_left_to_runtime && POMP_Locks_left_to_runtime;
}

/* Whether critical or ordered constructs may run uninstrumented: their waits
 * are the runtime's mutex events. Not where the constructs left are known to
 * be others (a loop made by a macro): every instrumented lock call and
 * critical then paid those events for nothing. */
static int uninstrumented_mutexes_expected(void)
{
    return ompt_mode() == OMPT_FULL || !POMP_Init_Handles ||
           (&POMP_Constructs_left_to_runtime && POMP_Constructs_left_to_runtime &&
            !(&POMP_Constructs_left_without_mutexes && POMP_Constructs_left_without_mutexes));
}

/* The executable segment of the object holding `code` (the runtime's lookup
 * function): bridge_runtime_code_lo/_span (bridge_regions.h). */
struct code_segment {
    uintptr_t code, lo, span;
};

static int find_code_segment(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct code_segment *seg = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && seg->code - lo < ph->p_memsz) {
            seg->lo = lo;
            seg->span = ph->p_memsz;
            return 1;
        }
    }
    return 0;
}

static void note_runtime_code(ompt_function_lookup_t lookup)
{
    struct code_segment seg = {.code = (uintptr_t)(void *)lookup};
    pomp_sampling_dl_iterate_phdr(find_code_segment, &seg);
    bridge_runtime_code_lo = seg.lo;
    bridge_runtime_code_span = seg.span;
    struct code_segment own = {.code = (uintptr_t)(void *)note_runtime_code};
    pomp_sampling_dl_iterate_phdr(find_code_segment, &own);
    bridge_own_code_lo = own.lo;
    bridge_own_code_span = own.span;
}

const void *bridge_program_caller(void)
{
    void *ips[16];
    int n = unw_backtrace(ips, 16);
    for (int i = 0; i < n; i++) {
        uintptr_t ip = (uintptr_t)ips[i];
        if (ip - bridge_runtime_code_lo >= bridge_runtime_code_span &&
            ip - bridge_own_code_lo >= bridge_own_code_span)
            return ips[i];
    }
    return NULL;
}

/* Untied task constructs whose body the instrumentation leaves without events
 * (BRC_TASK_UNTIED_SPLIT): the bridge measures their executions and their
 * taskwaits, so the libgomp bridge must report their creation (task_create)
 * and every taskwait; for every other
 * untied task of a pompcc build it need not, and a GOMP_task that asks costs
 * a callback (a third of a fine-grained untied task's measurement cost). The
 * libgomp bridge asks only once told that such a construct exists: told when
 * its region is made (before its handle is published, so that a thread
 * creating its tasks sees it), or when the tool starts after that. */
static int untied_split_seen;
static void (*untied_split_tell)(void); /* the libgomp bridge's entry, once the tool started */

static void untied_split_runtime(void (*tell)(void))
{
    if (!tell)
        return;
    __atomic_store_n(&untied_split_tell, tell, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&untied_split_seen, __ATOMIC_SEQ_CST))
        tell();
}

static void ompt_region_made(struct POMP_Region_s *r)
{
    if (bridge_classify(r) != BRC_TASK_UNTIED_SPLIT ||
        __atomic_exchange_n(&untied_split_seen, 1, __ATOMIC_SEQ_CST))
        return;
    /* the taskwaits in such a body have no events (pomp-instrument leaves
     * them to the runtime, as their enter and exit may run on two threads) */
    runtime_taskwaits_measured();
    void (*tell)(void) = __atomic_load_n(&untied_split_tell, __ATOMIC_SEQ_CST);
    if (tell)
        tell();
}

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data)
{
    (void)initial_device_num;
    (void)tool_data;
    __atomic_store_n(&started_ns, pomp_monotonic_ns(), __ATOMIC_RELAXED);
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set)
        return 0;
    note_runtime_code(lookup); /* before any callback names a region */
    int parallel = group_records(POMP_GROUP_PARALLEL), sync = group_records(POMP_GROUP_SYNC),
        task = group_records(POMP_GROUP_TASK), loop = group_records(POMP_GROUP_LOOP),
        workshare = group_records(POMP_GROUP_WORKSHARE), runtime = group_records(POMP_GROUP_RUNTIME),
        target = group_records(POMP_GROUP_TARGET);
    int chunks = pomp_level_records(POMP_GROUP_LOOP, POMP_LEVEL_CHUNKS);
    int all = uninstrumented_code_expected();
    int mutexes = all && uninstrumented_mutexes_expected();
    int locks = mutexes || uninstrumented_locks_expected();
    /* (then read again: a region made meanwhile stored 1, which this must not undo) */
    __atomic_store_n(&bridge_runtime_taskwaits,
                     all || __atomic_load_n(&untied_split_seen, __ATOMIC_SEQ_CST), __ATOMIC_SEQ_CST);
    if (all || __atomic_load_n(&untied_split_seen, __ATOMIC_SEQ_CST))
        runtime_taskwaits_measured();
    final_tasks_may_defer();
    __atomic_store_n(&bridge_mutex_locks_only, locks && !mutexes, __ATOMIC_RELAXED);
    pthread_mutex_lock(&registration_lock);
    set_callback = set;
    pid_t self = (pid_t)syscall(SYS_gettid);
    if (self != getpid() && strncmp(tool_runtime, "LLVM OMP", 8) == 0) {
        first_root_tid = self;
        register_locked(ompt_callback_thread_end); /* (bridge_tool_thread_end) */
    }
    uint64_t early = wanted; /* asked for by the collector API before the tool started */
    for (int e = 0; e < 64; e++)
        if (early & (1ull << e))
            register_locked((ompt_callbacks_t)e);
    register_locked(ompt_callback_control_tool);
    if (pomp_sampling_is_on()) { /* a timer per thread, fork records for user-model stacks */
        struct pomp_sampling_runtime rt = {
            .get_state = (ompt_get_state_t)lookup("ompt_get_state"),
            .get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info"),
            .fork_of = bridge_fork_record,
            .after_join = bridge_worker_joined_by,
        };
        pomp_sampling_set_runtime(&rt);
        register_locked(ompt_callback_thread_begin);
        register_locked(ompt_callback_thread_end);
        register_locked(ompt_callback_parallel_begin);
        register_locked(ompt_callback_parallel_end);
    }
    if (parallel || sync || task) { /* teams: fork points, implicit barriers, joins */
        register_locked(ompt_callback_thread_begin);
        register_locked(ompt_callback_thread_end); /* a worker released (close_released) */
        bridge_count_initial_threads();
        register_locked(ompt_callback_parallel_begin);
        register_locked(ompt_callback_parallel_end);
        register_locked(ompt_callback_implicit_task);
        register_locked(ompt_callback_sync_region);
        register_locked(ompt_callback_sync_region_wait); /* a taskgroup's wait */
    }
    if ((loop || workshare || task) && (all || chunks)) /* chunks: the loop they belong to */
        register_locked(ompt_callback_work);
    if (chunks)
        register_locked(ompt_callback_dispatch);
    if (pomp_level_records(POMP_GROUP_SYNC, BR_BEGIN_END) && all)
        register_locked(ompt_callback_masked);
    if ((sync || runtime) && locks) {
        register_locked(ompt_callback_mutex_acquire);
        register_locked(ompt_callback_mutex_acquired);
        register_locked(ompt_callback_mutex_released);
        register_locked(ompt_callback_nest_lock);
    }
    if (task) { /* in a pompcc build for the tasks of taskloops (the runtime makes them) and
                   of untied tasks whose body the instrumentation leaves without events */
        register_fn_locked(ompt_callback_task_create,
                           all ? bridge_callback(ompt_callback_task_create)
                               : CALLBACK(bridge_on_unreported_task_create));
        register_locked(ompt_callback_task_schedule);
        /* every creation seen (bridge_task.c's note_deferred; the libgomp
         * bridge's GOMP_task, which started this tool, clears the flag
         * itself): a taskwait of a task that deferred none may be counted
         * inline */
        pomp_fast_done_waits_allow();
    }
    /* (not on LLVM libomp, whose taskwait_deps_51 overflows the list it builds
     * for it: bridge_task.c; there task_create counts the tasks' dependences) */
    int llvm = strncmp(tool_runtime, "LLVM OMP", 8) == 0;
    __atomic_store_n(&bridge_dependences_at_create, task && all && llvm, __ATOMIC_RELAXED);
    if (task && all && !llvm)
        register_locked(ompt_callback_dependences);
    if (sync)
        register_locked(ompt_callback_cancel);
    if (target) { /* devices, target constructs, data operations, kernels (bridge_device.c) */
        register_locked(ompt_callback_device_initialize);
        register_locked(ompt_callback_device_finalize);
        register_locked(ompt_callback_device_load);
        register_locked(ompt_callback_target_emi);
        register_locked(ompt_callback_target_data_op_emi);
        register_locked(ompt_callback_target_submit_emi);
    }
    pthread_mutex_unlock(&registration_lock);
    /* the libgomp bridge need not wrap the tasks of task constructs that the
     * instrumentation measures, nor report its taskwaits (libomp has no such
     * entry: it reports every task and taskwait, and the bridge passes over
     * the instrumented ones, bridge_task.c and bridge_parallel.c) */
    void (*tasks_instrumented)(void) = (void (*)(void))lookup("pomp_gomp_tasks_instrumented");
    if (task && !all && tasks_instrumented)
        tasks_instrumented();
    untied_split_runtime((void (*)(void))lookup("pomp_gomp_untied_split"));
    /* the libgomp bridge keeps the states of mutex waits only while they are
     * read: a collector session says so through this (libomp has no such entry) */
    bridge_collector_tool_started((ompt_get_state_t)lookup("ompt_get_state"),
                                  (void (*)(void))lookup("pomp_gomp_keep_states"));
    /* the libgomp bridge's end: called by libpomp's finalization (libomp ends
     * its tool itself, in its destructor, and has no such entry) */
    __atomic_store_n(&runtime_shutdown, (void (*)(void))lookup("pomp_gomp_shutdown"),
                     __ATOMIC_RELEASE);
    /* ... and what it could not measure, for the profile (after that end) */
    __atomic_store_n(&runtime_unmeasured, (runtime_unmeasured_fn)lookup("pomp_gomp_unmeasured"),
                     __ATOMIC_RELEASE);
    __atomic_store_n(&tool_started, 1, __ATOMIC_RELEASE);
    return 1; /* keep the tool */
}

/* The runtime shuts down (at exit, after its threads reported their last
 * events): the measurement is complete. */
/* Whether the runtime ends the tool from inside omp_pause_resource or
 * omp_pause_resource_all (a hard pause: LLVM libomp shuts down, finalizes its
 * tool and never starts one again). Once per run: the stack is walked. */
static int inside_pause(void)
{
    unw_context_t uc;
    unw_cursor_t c;
    if (unw_getcontext(&uc) != 0 || unw_init_local(&c, &uc) != 0)
        return 0;
    for (int depth = 0; depth < 48 && unw_step(&c) > 0; depth++) {
        char name[128];
        unw_word_t off;
        int rc = unw_get_proc_name(&c, name, sizeof name, &off);
        if ((rc == 0 || rc == -UNW_ENOMEM) && strncmp(name, "omp_pause_resource", 18) == 0)
            return 1;
    }
    return 0;
}

/* At the runtime's shutdown (exit): the end of measurement. At a hard pause
 * the program goes on, and so does measurement, with the instrumentation's
 * events alone: the runtime reports nothing more to any tool. */

static void tool_finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
    __atomic_store_n(&tool_ended, 1, __ATOMIC_RELEASE);
    if (bridge_measuring() >= 0 && inside_pause()) {
        __atomic_store_n(&paused_at_ns, pomp_monotonic_ns(), __ATOMIC_RELAXED);
        fprintf(stderr, "pomp: warning: omp_pause_resource_all (or omp_pause_resource) ended LLVM "
                        "libomp's tool interface for the rest of the run: from here on only "
                        "instrumented constructs are measured (no implicit barriers, nothing "
                        "uninstrumented, no runtime states for sampling)\n");
        return;
    }
    POMP_Finalize();
}

/* POMP_OMPT: on by default; off leaves the runtime without a tool; full
 * registers every callback the levels need, also for constructs the
 * instrumentation reports itself. Read once. */
static pthread_once_t ompt_env_once = PTHREAD_ONCE_INIT;
static enum ompt_mode ompt_env_mode;

static void read_ompt_env(void)
{
    const char *v = getenv("POMP_OMPT");
    int on = 1;
    ompt_env_mode = OMPT_ON;
    if (!v)
        return;
    if (strcasecmp(v, "full") == 0)
        ompt_env_mode = OMPT_FULL;
    else if (pomp_parse_bool(v, &on))
        ompt_env_mode = on ? OMPT_ON : OMPT_OFF;
    else
        fprintf(stderr, "pomp: POMP_OMPT='%s' is not valid (allowed: on, off, full, yes, no, "
                        "true, false, 1, 0); using on\n", v);
}

static enum ompt_mode ompt_mode(void)
{
    pthread_once(&ompt_env_once, read_ompt_env);
    return ompt_env_mode;
}

static int ompt_wanted(void) { return ompt_mode() != OMPT_OFF; }

void bridge_tool_thread_end(void)
{
    if (!first_root_tid || (pid_t)syscall(SYS_gettid) != first_root_tid)
        return;
    pthread_mutex_lock(&registration_lock);
    __atomic_store_n(&bridge_mutex_no_release, 1, __ATOMIC_RELEASE);
    if (registered & (1ull << ompt_callback_mutex_released)) {
        set_callback(ompt_callback_mutex_released, NULL);
        registered &= ~(1ull << ompt_callback_mutex_released);
        __atomic_store_n(&releases_off_ns, pomp_monotonic_ns(), __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&registration_lock);
}

/* The OMPT tools OMP_TOOL_LIBRARIES names other than libpomp: LLVM libomp
 * starts one tool, the first that answers (pomp's, in the program or first
 * in the list pomprun sets), and never loads the others. Said: a user's own
 * tool went without a word (a probe). (GCC's libgomp starts none at all.) */
static void note_other_tools(const char *list)
{
    for (const char *p = list; p && *p; p += *p == ':') {
        size_t len = strcspn(p, ":");
        const char *base = memrchr(p, '/', len);
        base = base ? base + 1 : p;
        int pomp = p + len - base >= 7 && strncmp(base, "libpomp", 7) == 0;
        if (len && !pomp) {
            fprintf(stderr,
                    "pomp: warning: OMP_TOOL_LIBRARIES names another OMPT tool (%.*s): the "
                    "runtime starts one tool per program, and started pomp's, so that one does "
                    "not run (POMP_OMPT=off leaves the runtime to it, and pomp measures without "
                    "the runtime's events)\n",
                    (int)len, p);
            return;
        }
        p += len;
    }
}

__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version;
    (void)runtime_version;
    static ompt_start_tool_result_t tool = {tool_initialize, tool_finalize, {.value = 0}};
    pomp_ensure_initialized();
    /* (the runtime starts now: a task creation open since before waited for nothing) */
    pomp_profile_runtime_started(pomp_now());
    if (bridge_measuring() < 0) {
        /* a fork()ed child whose runtime starts here (under pomprun, one
         * forked before the parent's first construct): said, as the
         * instrumentation's events say it (it went unmeasured without a
         * word; a probe) */
        pomp_note_event_after_stop();
        return NULL;
    }
    if (!ompt_wanted())
        return NULL;
    int unclaimed = 0;
    if (!__atomic_compare_exchange_n(&tool_claimed, &unclaimed, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        snprintf(declined_runtime, sizeof declined_runtime, "%s",
                 runtime_version ? runtime_version : "?");
        return NULL;
    }
    snprintf(tool_runtime, sizeof tool_runtime, "%s", runtime_version ? runtime_version : "?");
    if (!runtime_version || !strstr(runtime_version, "libgomp"))
        note_other_tools(getenv("OMP_TOOL_LIBRARIES"));
    return &tool;
}

/* This library's ompt_start_tool by an address of its own: the name's,
 * taken here, is the process's first definition's (a program's own). */
extern __typeof__(ompt_start_tool) own_start_tool
    __attribute__((alias("ompt_start_tool"), visibility("hidden")));

int bridge_tool_state(void)
{
    if (__atomic_load_n(&tool_started, __ATOMIC_ACQUIRE))
        return BRIDGE_TOOL_STARTED;
    pomp_ensure_initialized();
    if (bridge_measuring() < 0) {
        pomp_note_event_after_stop(); /* (as in ompt_start_tool) */
        return BRIDGE_TOOL_IMPOSSIBLE;
    }
    if (!ompt_wanted())
        return BRIDGE_TOOL_IMPOSSIBLE;
    struct runtimes_seen seen = {0};
    pomp_sampling_dl_iterate_phdr(note_runtime, &seen);
    return seen.libgomp && !seen.libomp && (!seen.gomp_bridge || seen.gomp_first)
               ? BRIDGE_TOOL_IMPOSSIBLE
               : BRIDGE_TOOL_NOT_YET;
}

/* ---- finalization ---- */

static int note_runtime(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct runtimes_seen *seen = data;
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    if (strncmp(base, "libomp.so", 9) == 0)
        seen->libomp = 1;
    if (strncmp(base, "libgomp.so", 10) == 0) {
        seen->libgomp = 1;
        seen->gomp_first |= !seen->gomp_bridge;
    }
    if (strncmp(base, "libpomp-gomp.so", 15) == 0)
        seen->gomp_bridge = 1;
    if (strncmp(base, "libomptarget.so", 15) == 0)
        seen->libomptarget = 1;
    return 0;
}

/* A program on GCC's libgomp that the libgomp bridge does not stand before
 * (libgomp has no OMPT): the runtime's events are lost as under POMP_OMPT=off.
 * NO_BRIDGE: no bridge loaded (pompcc objects linked by hand with -lpomp);
 * BRIDGE_LATE: the bridge came after libgomp (a library built with pompcc in
 * a program linked without it). */
enum gomp_unbridged { GOMP_BRIDGED, GOMP_NO_BRIDGE, GOMP_BRIDGE_LATE };

static enum gomp_unbridged gomp_unbridged(void)
{
    if (__atomic_load_n(&tool_started, __ATOMIC_ACQUIRE) || !pomp_config()->enabled ||
        !ompt_wanted())
        return GOMP_BRIDGED;
    struct runtimes_seen seen = {0};
    pomp_sampling_dl_iterate_phdr(note_runtime, &seen);
    if (seen.libgomp && !seen.libomp && !seen.gomp_bridge)
        return GOMP_NO_BRIDGE;
    if (seen.libgomp && !seen.libomp && seen.gomp_first)
        return GOMP_BRIDGE_LATE;
    return GOMP_BRIDGED;
}

/* Measuring POMP events only: say so once. */
static void note_missing_ompt(void)
{
    enum gomp_unbridged u = gomp_unbridged();
    if (u == GOMP_NO_BRIDGE)
        fputs("pomp: note: this program ran on GCC's libgomp without the libgomp bridge "
              "(libpomp-gomp.so), and libgomp has no OMPT: implicit barriers, waits, chunks and "
              "tasks were not measured (pompcc links the bridge for GCC programs, pomprun "
              "preloads it)\n",
              stderr);
    else if (u == GOMP_BRIDGE_LATE)
        fputs("pomp: note: the libgomp bridge (libpomp-gomp.so) came after GCC's libgomp, which "
              "then served the program's OpenMP calls itself (a library built with pompcc in a "
              "program linked without it?): nothing the runtime reports was measured: implicit "
              "barriers, waits, chunks, tasks, and every construct not built with pompcc (link "
              "the program with pompcc too, or run it under pomprun)\n",
              stderr);
}

/* At finalization, while still recording: the runtime hands over what it
 * buffered (device trace records). */
static void ompt_flush(void)
{
    if (__atomic_load_n(&tool_started, __ATOMIC_ACQUIRE))
        bridge_device_trace_flush_all();
}

/* After recording stopped: closes what the runtime would only have closed
 * later (a worker's last implicit barrier ends when its team is next forked),
 * and names the regions the bridge created after their code addresses. Says,
 * once, that OMPT was not there when the program ran on a runtime without it. */
static void ompt_finalize(void)
{
    /* the runtime stops reporting (the libgomp bridge forwards from here on)
     * only now that recording has stopped: stopped while other threads'
     * teams still ran (exit() from one thread, a signal), their instrumented
     * events went on being recorded without the runtime's barrier ends, whose
     * closing at their team's join then came before them (durations wrapped
     * below 0, a probe) */
    void (*shutdown)(void) = __atomic_load_n(&runtime_shutdown, __ATOMIC_ACQUIRE);
    if (shutdown)
        shutdown();
    note_missing_ompt();
    if (declined_runtime[0])
        fprintf(stderr, "pomp: note: a second OpenMP runtime (%s) ran in this process after the "
                        "measured one (%s): its constructs ran unmeasured but for the events "
                        "pompcc's instrumentation records (not that runtime's: implicit barriers, "
                        "tasks run in them); one runtime is measured per process (build the "
                        "program and its libraries for one runtime: pompcc --pomp-runtime=omp puts "
                        "GCC-built ones on libomp; docs/ompt.md)\n",
                declined_runtime, tool_runtime);
    if (!__atomic_load_n(&tool_started, __ATOMIC_ACQUIRE))
        return;
    char what[400];
    if (unexpected_forks_said(what, sizeof what))
        fprintf(stderr, "pomp: note: %s\n", what);
    bridge_close_pending();
    bridge_symbols_resolve();
    uint64_t deep = bridge_forks_too_deep();
    if (deep)
        fprintf(stderr, "pomp: warning: %llu parallel region%s forked on a thread already %d teams "
                        "deep: the OMPT bridge did not record %s (docs/ompt.md)\n",
                (unsigned long long)deep, deep == 1 ? " was" : "s were", BRIDGE_MAX_NESTING,
                deep == 1 ? "it" : "them");
    uint64_t past = bridge_region_events_past_table();
    if (past)
        fprintf(stderr, "pomp: warning: %llu runtime events came from call sites past the %u the "
                        "OMPT bridge keeps apart: they are measured under their construct's region "
                        "without an address (docs/ompt.md)\n",
                (unsigned long long)past, bridge_region_table_size());
}

/* The core calls the bridge only through these hooks (core/pomp_sources.h),
 * registered when libpomp is loaded, whether or not the runtime ever starts
 * the tool: the finalizer's note about a runtime without OMPT needs them. */
static const char *ompt_declined_by(void)
{
    if (ompt_mode() == OMPT_OFF)
        return "POMP_OMPT=off";
    /* no bridge before libgomp: said on stderr only, the profile rated the
     * run as measured whole (synchronisation 100 %, unmarked; a probe) */
    switch (gomp_unbridged()) {
    case GOMP_NO_BRIDGE:
        return "GCC's libgomp without the libgomp bridge (libpomp-gomp.so: the program was not "
               "linked by pompcc)";
    case GOMP_BRIDGE_LATE:
        return "the libgomp bridge loaded after GCC's libgomp (a library built with pompcc in a "
               "program linked without it)";
    case GOMP_BRIDGED:
        break;
    }
    /* OMP_TOOL=disabled: LLVM libomp starts no tool, and its events are lost
     * as under POMP_OMPT=off (no implicit barrier, no wait: load balance and
     * synchronisation read 96-100 % for 54 %, with no word; a probe). The
     * libgomp bridge, pomp's own, starts the tool whatever it says. */
    const char *tool = getenv("OMP_TOOL");
    if (tool && strcasecmp(tool, "disabled") == 0 &&
        !__atomic_load_n(&tool_started, __ATOMIC_ACQUIRE)) {
        struct runtimes_seen seen = {0};
        pomp_sampling_dl_iterate_phdr(note_runtime, &seen);
        if (seen.libomp)
            return "OMP_TOOL=disabled";
    }
    /* Another tool's ompt_start_tool first in the process (a program with an
     * OMPT tool of its own built in, exported): LLVM libomp starts that one,
     * never asks pomp's, and its events are lost as under POMP_OMPT=off (no
     * implicit barrier: synchronisation read 100 %, with no word; a probe).
     * (The libgomp bridge asks pomp's own: gomp_tool.c.) */
    void *first = dlsym(RTLD_DEFAULT, "ompt_start_tool");
    if (first && first != (void *)own_start_tool &&
        !__atomic_load_n(&tool_claimed, __ATOMIC_ACQUIRE)) {
        struct runtimes_seen seen = {0};
        pomp_sampling_dl_iterate_phdr(note_runtime, &seen);
        if (!seen.libomp)
            return NULL;
        /* libomp's own (weak) one, first where pomp's is not in the global
         * scope: libpomp came with a library loaded by dlopen (a pompcc
         * plugin in a plain program), after libomp looked for its tool (it
         * blamed a tool of the program's, which had none; a probe) */
        Dl_info at_first, at_runtime;
        void *runtime = dlsym(RTLD_DEFAULT, "__kmpc_fork_call");
        if (runtime && dladdr(first, &at_first) && dladdr(runtime, &at_runtime) &&
            at_first.dli_fbase == at_runtime.dli_fbase)
            return "LLVM libomp started before libpomp was there (libpomp came with a library "
                   "loaded by dlopen, where libomp does not look for a tool)";
        return "another OMPT tool (an ompt_start_tool of the program, which LLVM libomp "
               "started instead of pomp's)";
    }
    return NULL;
}

static void ompt_unmeasured(void (*say)(void *ctx, const char *what), void *ctx)
{
    runtime_unmeasured_fn runtime = __atomic_load_n(&runtime_unmeasured, __ATOMIC_ACQUIRE);
    if (runtime) /* the libgomp bridge's tasks it could not wrap */
        runtime(say, ctx);
    char what[400]; /* (pomp_run.h: a sentence of the profile's unmeasured) */
    if (declined_runtime[0]) { /* (its time read as the measured runtime's serial time) */
        snprintf(what, sizeof what,
                 "a second OpenMP runtime (%s) ran in this process after the measured one (%s): "
                 "its constructs ran unmeasured but for the events pompcc's instrumentation "
                 "records (one runtime is measured per process)",
                 declined_runtime, tool_runtime);
        say(ctx, what);
    }
    if (unexpected_forks_said(what, sizeof what))
        say(ctx, what);
    uint64_t deep = bridge_forks_too_deep();
    if (deep) {
        snprintf(what, sizeof what,
                 "%llu parallel region%s forked on a thread already %d teams deep: the runtime's "
                 "events of %s were not recorded (under pomprun %s ran unmeasured, %s work read "
                 "as the enclosing region's; pompcc's instrumented constructs are still measured)",
                 (unsigned long long)deep, deep == 1 ? " was" : "s were", BRIDGE_MAX_NESTING,
                 deep == 1 ? "it" : "them", deep == 1 ? "it" : "they", deep == 1 ? "its" : "their");
        say(ctx, what);
    }
    uint64_t off = __atomic_load_n(&releases_off_ns, __ATOMIC_RELAXED);
    if (off && __atomic_load_n(&bridge_mutex_unframed, __ATOMIC_RELAXED)) {
        /* (a program whose OpenMP ran in one pthread, joined, lost nothing) */
        snprintf(what, sizeof what,
                 "the thread that started LLVM libomp (not main) ended %.1f ms after the runtime "
                 "started: from there on the critical and ordered constructs the runtime reports "
                 "have their waits measured, not their blocks (libomp 19 reads that thread's "
                 "record at each critical's end while a tool asks: the program would crash)",
                 (double)(off - __atomic_load_n(&started_ns, __ATOMIC_RELAXED)) / 1e6);
        say(ctx, what);
    }
    uint64_t at = __atomic_load_n(&paused_at_ns, __ATOMIC_RELAXED);
    if (!at)
        return;
    snprintf(what, sizeof what,
             "omp_pause_resource_all (or omp_pause_resource) ended LLVM libomp's tool interface "
             "%.1f ms after the runtime started it: from there on only the constructs pompcc "
             "instrumented were measured (none under pomprun; no implicit barriers, no runtime "
             "states for sampling)",
             (double)(at - __atomic_load_n(&started_ns, __ATOMIC_RELAXED)) / 1e6);
    say(ctx, what);
}

/* The call sites past the region table (said at the end on stderr too):
 * their events counted under their construct's region, without an address,
 * so that one row holds several sites (differently named criticals; a probe). */
static void ompt_kept_together(void (*say)(void *ctx, const char *what), void *ctx)
{
    uint64_t past = bridge_region_events_past_table();
    if (!past)
        return;
    char what[400];
    snprintf(what, sizeof what,
             "%llu runtime events came from call sites past the %u the OMPT bridge keeps apart: "
             "they are counted under their construct's region without an address, several "
             "call sites in one row (docs/ompt.md)",
             (unsigned long long)past, bridge_region_table_size());
    say(ctx, what);
}

/* LLVM libomp started the tool and will end it at its shutdown (not ended
 * already: at a hard pause, or by a shutdown before this; the libgomp bridge,
 * which has a shutdown entry, is ended by libpomp's finalization), and no
 * other thread of the program's runs OpenMP; what names need of the
 * runtime's memory is kept now. */
static int ompt_ends_later(void)
{
    if (!__atomic_load_n(&tool_started, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&tool_ended, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&runtime_shutdown, __ATOMIC_ACQUIRE))
        return 0;
    /* another thread of the program's still running OpenMP (a server's
     * pthreads, exit() beside them) would be inside libomp while it shuts
     * down, for as long as the output takes: it crashed there (17 runs in
     * 20). Then the output is written now, as before, and the libraries'
     * exit code after it goes unmeasured. */
    if (bridge_other_initial_threads() != 0)
        return 0;
    bridge_symbols_keep_critical_names(0, UINTPTR_MAX);
    return 1;
}

static const struct pomp_source_hooks ompt_source = {
    .name = "OMPT", .flush = ompt_flush, .finalize = ompt_finalize,
    .region_made = ompt_region_made, .declined_by = ompt_declined_by,
    .unmeasured = ompt_unmeasured, .kept_together = ompt_kept_together, .ends_later = ompt_ends_later};

__attribute__((constructor)) static void register_ompt_source(void)
{
    pomp_source_register(&ompt_source);
}
