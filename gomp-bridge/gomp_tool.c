/* The runtime's side of OMPT for libpomp's tool, on libgomp: the tool is
 * started at the first call of an interposed entry point (libpomp is loaded
 * already: it is this library's dependency), with the inquiry functions below; libpomp's tool
 * registers its callbacks through ompt_set_callback, and the wrappers call
 * them. At exit the tool is finalized, as libomp does at its shutdown. */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gomp_bridge.h"

/* libpomp's OMPT tool (libpomp.so exports it; docs/ompt.md). */
extern ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                 const char *runtime_version);

ompt_callback_t gomp_callbacks[GOMP_CALLBACKS];
int gomp_active, gomp_states_sampled, gomp_states_read, gomp_cancellation, gomp_mutex_path,
    gomp_task_path, gomp_taskwait_forward;
static int states_kept; /* a collector API session started (keep_states) */
uint64_t gomp_unwrapped_tasks[GOMP_UNWRAPPED_CASES];

extern int omp_get_cancellation(void); /* libgomp's (not interposed) */
__thread struct gomp_thread_state gomp_tls __attribute__((tls_model("initial-exec")));

/* ---- libgomp's definitions ---- */

#define GOMP_REAL_DEFINE(name, version, ret, params) ret(*real_##name) params;
#define GOMP_REAL_COMPAT_DEFINE(name, symbol, version, ret, params)                            \
    GOMP_REAL_DEFINE(name, version, ret, params)
GOMP_REAL_ENTRIES(GOMP_REAL_DEFINE)
GOMP_REAL_COMPAT_ENTRIES(GOMP_REAL_COMPAT_DEFINE)
#undef GOMP_REAL_COMPAT_DEFINE
#undef GOMP_REAL_DEFINE
int gomp_real_resolved;
/* libgomp was found only in a dlopened library's own scope: forwarded to, not measured */
static int libgomp_local;

/* A libgomp loaded under another name (a Python wheel's copy,
 * "libgomp-a34b3233.so.1", which its extension module finds by RPATH): the
 * first object loaded, not this library nor the program, whose own definition
 * of GOMP_parallel@GOMP_4.0 its handle gives. The plugin's calls reach this
 * library's entry points (the versions match, not the file), which found
 * nothing to forward to and called a null pointer (a segfault in the plugin's
 * first parallel region; a probe). */
static char renamed_path[4096];

struct renamed_search {
    uintptr_t self;      /* this library's base */
    int copies;          /* the copies found */
    char *path;          /* the first one's path, where wanted */
};

static int find_renamed(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct renamed_search *s = arg;
    if (!info->dlpi_name || !info->dlpi_name[0] || info->dlpi_addr == s->self)
        return 0;
    void *h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return 0;
    void *p = dlvsym(h, "GOMP_parallel", "GOMP_4.0");
    Dl_info where;
    /* its own definition (a handle's lookup also searches its dependencies) */
    if (p && dladdr(p, &where) && (uintptr_t)where.dli_fbase == info->dlpi_addr &&
        !s->copies++ && s->path && strlen(info->dlpi_name) < sizeof renamed_path)
        strcpy(s->path, info->dlpi_name);
    dlclose(h); /* only the reference NOLOAD took: it stays loaded */
    return 0;
}

/* The libgomp copies loaded (found by their own GOMP_parallel@GOMP_4.0),
 * the first one's path into `path` where not NULL. */
static int renamed_copies(char *path)
{
    struct renamed_search s = {0, 0, path};
    Dl_info self;
    if (dladdr((void *)&renamed_copies, &self))
        s.self = (uintptr_t)self.dli_fbase;
    dl_iterate_phdr(find_renamed, &s);
    return s.copies;
}

/* libgomp's definition: the one after this library in the global scope, or
 * in a libgomp loaded later by dlopen (a plugin of a program without OpenMP,
 * in a process that inherited pomprun's LD_PRELOAD): the plugin's calls
 * reach this library's entry points first, which forward them there. */
static void *resolve(const char *name, const char *version)
{
    void *p = dlvsym(RTLD_NEXT, name, version);
    if (!p)
        p = dlsym(RTLD_NEXT, name);
    if (!p) {
        void *loaded = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);
        if (!loaded && renamed_path[0])
            loaded = dlopen(renamed_path, RTLD_LAZY | RTLD_NOLOAD);
        if (loaded) {
            p = dlvsym(loaded, name, version);
            if (!p)
                p = dlsym(loaded, name);
            /* local to a dlopened library only if the global scope does not
             * see it (by a function this library does not define): a program
             * linked without pompcc has libgomp before this library (a
             * library built with pompcc in it), and no plugin at all */
            void *probe = dlsym(loaded, "omp_get_cancellation");
            if (p && probe && dlsym(RTLD_DEFAULT, "omp_get_cancellation") != probe)
                __atomic_store_n(&libgomp_local, 1, __ATOMIC_RELAXED);
            dlclose(loaded); /* only the reference NOLOAD took: it stays loaded */
        }
    }
    return p;
}

int gomp_real_resolve(void)
{
    if (__atomic_load_n(&gomp_real_resolved, __ATOMIC_ACQUIRE))
        return 0;
    int missing = 0;
#define GOMP_REAL_RESOLVE_AS(name, symbol, version, ret, params)                               \
    *(void **)&real_##name = resolve(symbol, version);                                          \
    missing |= real_##name == NULL;
#define GOMP_REAL_RESOLVE(name, version, ret, params)                                          \
    GOMP_REAL_RESOLVE_AS(name, #name, version, ret, params)
    /* nothing in the global scope nor a libgomp.so.1: a copy under another name */
    if (!dlsym(RTLD_NEXT, "GOMP_parallel") && !renamed_path[0]) {
        void *loaded = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);
        if (loaded)
            dlclose(loaded);
        else
            renamed_copies(renamed_path);
    }
    GOMP_REAL_ENTRIES(GOMP_REAL_RESOLVE)
    GOMP_REAL_COMPAT_ENTRIES(GOMP_REAL_RESOLVE_AS)
#undef GOMP_REAL_RESOLVE
#undef GOMP_REAL_RESOLVE_AS
    /* no libgomp in the process yet: asked again at the next call, which only
     * a libgomp loaded since can make (an entry point reached before one is
     * there would find nothing to forward to) */
    if (real_GOMP_parallel)
        __atomic_store_n(&gomp_real_resolved, 1, __ATOMIC_RELEASE);
    return missing ? -1 : 0;
}

/* Whether the entry points forward to GCC's libgomp: not when the process
 * has no OpenMP runtime after this library (pomprun's LD_PRELOAD reaches the
 * program's child processes, a shell or a compiler), nor when they reach
 * LLVM libomp's GOMP_* layer, whose own OMPT reports to the tool: then the
 * bridge stays out of the way and every wrapper only forwards. */
static int on_libgomp(void)
{
    Dl_info info;
    if (!real_GOMP_parallel || !dladdr((void *)real_GOMP_parallel, &info) || !info.dli_fname)
        return 0;
    /* a libgomp only a plugin's dlopen loaded (RTLD_LOCAL) is not where this
     * library's own calls of omp_* functions bind: the entry points forward */
    if (!dlsym(RTLD_DEFAULT, "omp_get_cancellation"))
        return 0;
    /* LLVM libomp under libgomp's name (conda's llvm-openmp links
     * libgomp.so.1 to libomp.so): its own OMPT measures; taken for libgomp,
     * the bridge's tool start said a second runtime ran unmeasured (a probe) */
    void *kmpc = dlsym(RTLD_NEXT, "__kmpc_fork_call");
    Dl_info kmpc_info;
    if (kmpc && dladdr(kmpc, &kmpc_info) && kmpc_info.dli_fbase == info.dli_fbase)
        return 0;
    const char *base = strrchr(info.dli_fname, '/');
    return strncmp(base ? base + 1 : info.dli_fname, "libgomp", 7) == 0;
}

/* ---- the inquiry functions the tool looks up ---- */

/* The events the bridge reports (not: masked, nest_lock, cancel, the device
 * callbacks; dependences only of doacross waits and posts; docs/gomp.md). */
static const ompt_callbacks_t reported[] = {
    ompt_callback_thread_begin, ompt_callback_thread_end,   ompt_callback_parallel_begin,
    ompt_callback_parallel_end, ompt_callback_implicit_task, ompt_callback_sync_region,
    ompt_callback_work,         ompt_callback_dispatch,     ompt_callback_mutex_acquire,
    ompt_callback_mutex_acquired, ompt_callback_mutex_released, ompt_callback_task_create,
    ompt_callback_task_schedule, ompt_callback_dependences, ompt_callback_sync_region_wait,
};

void gomp_watch_update(void)
{
    int states_read = __atomic_load_n(&gomp_states_sampled, __ATOMIC_RELAXED) ||
                      __atomic_load_n(&states_kept, __ATOMIC_RELAXED);
    __atomic_store_n(&gomp_states_read, states_read, __ATOMIC_RELAXED);
    int watched = states_read || GOMP_CB(mutex_acquire) || GOMP_CB_MUTEX(mutex_acquired) ||
                  GOMP_CB_MUTEX(mutex_released);
    int active = __atomic_load_n(&gomp_active, __ATOMIC_ACQUIRE);
    __atomic_store_n(&gomp_mutex_path,
                     (active == 1 && !watched) || active == -1 ? GOMP_MUTEX_FORWARD
                                                               : GOMP_MUTEX_DECIDE,
                     __ATOMIC_RELEASE);
    /* gomp_task.c's task_report, decided ahead for what does not depend on the task */
    int followed = GOMP_CB(task_create) || GOMP_CB(task_schedule) || states_read;
    int instrumented = __atomic_load_n(&gomp_tasks_instrumented, __ATOMIC_RELAXED) && !states_read;
    int task_path = GOMP_TASK_DECIDE;
    if (active == -1 || (active == 1 && (!followed || instrumented)))
        task_path = active == 1 && followed &&
                            __atomic_load_n(&gomp_untied_split, __ATOMIC_RELAXED)
                        ? GOMP_TASK_FORWARD_TIED
                        : GOMP_TASK_FORWARD;
    __atomic_store_n(&gomp_task_path, task_path, __ATOMIC_RELEASE);
    /* the taskwaits in the body of an untied task construct the tool
     * measures are the runtime's to report (gomp_untied_split) */
    int untied_split = __atomic_load_n(&gomp_untied_split, __ATOMIC_RELAXED);
    __atomic_store_n(&gomp_taskwait_forward,
                     active == -1 || (active == 1 && (!GOMP_CB(sync_region) ||
                                                      (instrumented && !untied_split))),
                     __ATOMIC_RELEASE);
}

static int set_callback(ompt_callbacks_t event, ompt_callback_t cb)
{
    for (size_t i = 0; i < sizeof reported / sizeof *reported; i++)
        if (reported[i] == event) {
            __atomic_store_n(&gomp_callbacks[event], cb, __ATOMIC_RELEASE);
            gomp_watch_update();
            return ompt_set_always;
        }
    return ompt_set_never;
}

/* pomp's own entry point (not OMPT's): a reader of thread states, the
 * collector API, starts. From then on the mutex waits set their states too. */
static void keep_states(void)
{
    __atomic_store_n(&states_kept, 1, __ATOMIC_RELAXED);
    gomp_watch_update();
}

/* pomp's own entry point: the program's task constructs are instrumented
 * (a pompcc build), so GOMP_task forwards them unwrapped unless thread states
 * are read, or the tool follows the task (an untied one, whose body the
 * instrumentation may leave without events); the tasks of taskloops, which no
 * instrumentation sees, stay wrapped (gomp_task.c). */
int gomp_tasks_instrumented;
static void tasks_instrumented(void)
{
    __atomic_store_n(&gomp_tasks_instrumented, 1, __ATOMIC_RELAXED);
    gomp_watch_update();
}
int gomp_untied_split;
static void untied_split(void)
{
    __atomic_store_n(&gomp_untied_split, 1, __ATOMIC_RELAXED);
    gomp_watch_update();
}

/* The calling thread's state; async-signal-safe (thread-local reads). A
 * worker past its body is in its team's closing barrier until it is next
 * given work, as libomp reports it: whether the master had left that barrier
 * when a sample was due is the tool's to say, from the join time it keeps
 * (the bridge's own "joined now" read a sample handled late, after the join,
 * as waiting for work: 22 samples for 216 ms of barrier wait in regions of
 * 50 us, a probe). */
static int get_state(ompt_wait_id_t *wait_id)
{
    struct gomp_thread_state *t = &gomp_tls;
    if (wait_id)
        *wait_id = t->wait_id;
    return t->state;
}

/* The current task only (ancestor level 0): its data, its team, and a frame
 * that says whether the runtime invoked it (in a team or an explicit task). */
static int get_task_info(int ancestor_level, int *flags, ompt_data_t **task_data,
                         ompt_frame_t **task_frame, ompt_data_t **parallel_data, int *thread_num)
{
    struct gomp_thread_state *t = &gomp_tls;
    if (ancestor_level != 0)
        return 0;
    /* a worker past its body (pending) is in its team's closing barrier,
     * and runs tasks there, until it is next given work (get_state) */
    ompt_data_t *team = gomp_team_data(t);
    int implicit = team && t->task == &t->implicit[t->nesting - 1];
    if (flags)
        *flags = t->task == &t->initial_task || !t->task ? ompt_task_initial
                 : implicit                              ? ompt_task_implicit
                                                         : ompt_task_explicit;
    if (task_data)
        *task_data = t->task ? t->task : &t->initial_task;
    /* invoked by the runtime and running: an explicit task, or an implicit
     * one in its body (not once its code returned: the closing barrier's) */
    int invoked = (team || (t->task && t->task != &t->initial_task)) && !(implicit && t->pending);
    t->frame.exit_frame.ptr = invoked ? &t->frame : NULL;
    t->frame.enter_frame.ptr = NULL;
    if (task_frame)
        *task_frame = &t->frame;
    if (parallel_data)
        *parallel_data = team;
    if (thread_num)
        *thread_num = 0;
    return 2;
}

static void shutdown_runtime(void);
static void each_unmeasured(void (*say)(void *ctx, const char *what), void *ctx);

static ompt_interface_fn_t lookup(const char *name)
{
    if (strcmp(name, "ompt_set_callback") == 0)
        return (ompt_interface_fn_t)(void (*)(void))set_callback;
    if (strcmp(name, "ompt_get_state") == 0)
        return (ompt_interface_fn_t)(void (*)(void))get_state;
    if (strcmp(name, "ompt_get_task_info") == 0) { /* the sampler asks for it */
        __atomic_store_n(&gomp_states_sampled, 1, __ATOMIC_RELAXED);
        gomp_watch_update();
        return (ompt_interface_fn_t)(void (*)(void))get_task_info;
    }
    if (strcmp(name, "pomp_gomp_keep_states") == 0)
        return (ompt_interface_fn_t)(void (*)(void))keep_states;
    if (strcmp(name, "pomp_gomp_tasks_instrumented") == 0)
        return (ompt_interface_fn_t)(void (*)(void))tasks_instrumented;
    if (strcmp(name, "pomp_gomp_untied_split") == 0)
        return (ompt_interface_fn_t)(void (*)(void))untied_split;
    if (strcmp(name, "pomp_gomp_shutdown") == 0)
        return (ompt_interface_fn_t)(void (*)(void))shutdown_runtime;
    if (strcmp(name, "pomp_gomp_unmeasured") == 0)
        return (ompt_interface_fn_t)(void (*)(void))each_unmeasured;
    return NULL; /* the tool copes with an inquiry the runtime lacks */
}

/* ---- start and finalization ---- */

static ompt_start_tool_result_t *tool;
static int shut_down;

/* The tasks that ran unmeasured, a sentence each to say(ctx, what): printed
 * at the end (say_unmeasured), and handed to the tool for its profile
 * (looked up as "pomp_gomp_unmeasured"), where pomp-report finds them. */
static void each_unmeasured(void (*say)(void *ctx, const char *what), void *ctx)
{
    static const char *const why[GOMP_TASKLOOP_CASES] = {
        [GOMP_TASKLOOP_LARGE] = "of more tasks or larger data than the bridge wraps",
        [GOMP_TASKLOOP_CANCELLATION] = "under OMP_CANCELLATION without a copy function",
        [GOMP_TASKLOOP_ODD] = "with arguments GCC does not pass",
    };
    static const char *const task_why[GOMP_UNWRAPPED_CASES] = {
        [GOMP_UNWRAPPED_CANCELLATION] = "under OMP_CANCELLATION libgomp discards a cancelled task "
                                        "only without a copy function, which the bridge's wrapper "
                                        "would add",
        [GOMP_UNWRAPPED_DETACH] = "detachable tasks (detach clause): libgomp writes the event "
                                  "handle into the task's data, where the bridge's wrapper keeps "
                                  "its own",
    };
    char what[400];
    for (int c = 0; c < GOMP_UNWRAPPED_CASES; c++) {
        uint64_t tasks = __atomic_load_n(&gomp_unwrapped_tasks[c], __ATOMIC_RELAXED);
        if (!tasks)
            continue;
        /* created: whether they ran, the bridge cannot see (a cancellation
         * discards most of them: "200 ran" for 40) */
        snprintf(what, sizeof what,
                 "%llu task%s created on libgomp went unmeasured, and so did %s: %s (docs/gomp.md)",
                 (unsigned long long)tasks, tasks == 1 ? "" : "s",
                 tasks == 1 ? "its run" : "their runs", task_why[c]);
        say(ctx, what);
    }
    for (int c = 0; c < GOMP_TASKLOOP_CASES; c++) {
        uint64_t n = __atomic_load_n(&gomp_unwrapped_taskloops[c], __ATOMIC_RELAXED);
        if (!n)
            continue;
        snprintf(what, sizeof what,
                 "%llu taskloop construct%s %s ran on libgomp with %s tasks unmeasured (the "
                 "taskloop region itself is measured; docs/gomp.md)",
                 (unsigned long long)n, n == 1 ? "" : "s", why[c], n == 1 ? "its" : "their");
        say(ctx, what);
    }
}

static void print_note(void *ctx, const char *what)
{
    fprintf(ctx, "pomp: note: %s\n", what);
}

/* What ran unmeasured, said once at the end. */
static void say_unmeasured(void)
{
    if (!__atomic_load_n(&tool, __ATOMIC_ACQUIRE) && __atomic_load_n(&libgomp_local, __ATOMIC_RELAXED)) {
        fputs("pomp: note: GCC OpenMP code that a dlopened library brought (with its own libgomp) "
              "ran unmeasured: its libgomp is not where the libgomp bridge's calls bind "
              "(docs/gomp.md)\n",
              stderr);
        /* copies under other names, each a plugin's own (wheels): the
         * bridge's entry points forward to one, the first found */
        int copies = renamed_path[0] ? renamed_copies(NULL) : 0;
        if (copies > 1)
            fprintf(stderr,
                    "pomp: warning: %d copies of libgomp were loaded by dlopened libraries, "
                    "each its own; the libgomp bridge forwarded the calls of all of them to "
                    "one, %s: the OpenMP code of the others ran on a runtime not its own, "
                    "which changes it (omp_* calls there answer from their own copy); run "
                    "such a program without pomprun's preload (docs/gomp.md)\n",
                    copies, renamed_path);
    }
    each_unmeasured(print_note, stderr);
}

/* The runtime's end for the tool, once: from here on every entry point
 * forwards. Called by libpomp's finalization (looked up as
 * "pomp_gomp_shutdown"), which runs when libpomp itself is finalized: after
 * the destructors of the libraries loaded after it, whose OpenMP regions are
 * measured. The exit handler of this library would run before theirs when it
 * is preloaded (pomprun: a preloaded library is initialized after the
 * program's own libraries, so finalized before them). */
static void shutdown_runtime(void)
{
    if (__atomic_exchange_n(&shut_down, 1, __ATOMIC_ACQ_REL))
        return;
    __atomic_store_n(&gomp_active, -1, __ATOMIC_RELEASE); /* what runs after exit() forwards */
    gomp_watch_update();
    say_unmeasured();
}

/* A worker thread of libgomp's ends (libgomp gives each nested team threads
 * of their own and ends them after it): the tool hears of it. Its team's
 * closing barrier, whose end the bridge reports when a thread is next given
 * work, is over: the tool ends it there (at the master's join), where it
 * was ended at finalization, long after the master's record of the join was
 * reused (a nested region's workers waited 0 ms). */
static void thread_exit(void *arg)
{
    struct gomp_thread_state *t = arg;
    if (__atomic_load_n(&gomp_active, __ATOMIC_ACQUIRE) != 1)
        return;
    t->state = ompt_state_idle; /* before pending's clearing (gomp_close_pending) */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->pending = 0;
    ompt_callback_thread_end_t end = GOMP_CB(thread_end);
    if (end)
        end(NULL);
}

static pthread_key_t thread_exit_key;
static int thread_exit_key_made;

static void make_thread_exit_key(void)
{
    thread_exit_key_made = pthread_key_create(&thread_exit_key, thread_exit) == 0;
}

void gomp_thread_watch_exit(struct gomp_thread_state *t)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_thread_exit_key);
    if (thread_exit_key_made)
        (void)pthread_setspecific(thread_exit_key, t);
}

/* This library's exit handler: only where libpomp's tool never started (its
 * finalization then does not call shutdown_runtime). */
static void finalize_tool(void)
{
    if (!__atomic_load_n(&tool, __ATOMIC_ACQUIRE))
        shutdown_runtime();
}

/* libpomp's ompt_start_tool, looked up in this library's own scope (itself and
 * the libraries it needs: libpomp), not the first definition in the global
 * scope: a program with an OMPT tool of its own built in (for libomp) exports
 * its ompt_start_tool (-rdynamic, or a pompcc link, where this library's
 * reference makes the linker export it), and the reference bound to it: the
 * program's tool was started, which libgomp never does (its output changed),
 * and pomp's was not (no runtime event measured, unsaid; under pomprun no
 * profile at all). */
static ompt_start_tool_result_t *start_pomp_tool(unsigned int omp_version,
                                                 const char *runtime_version)
{
    ompt_start_tool_result_t *(*start)(unsigned int, const char *) = NULL;
    Dl_info info;
    if (dladdr((void *)&start_pomp_tool, &info) && info.dli_fname) {
        void *self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (self) {
            *(void **)&start = dlsym(self, "ompt_start_tool");
            dlclose(self); /* only the reference NOLOAD took: it stays loaded */
        }
    }
    if (!start)
        start = ompt_start_tool;
    return start(omp_version, runtime_version);
}

static void start_tool(void)
{
    int active = -1;
    gomp_real_resolve();
    gomp_cancellation = on_libgomp() && omp_get_cancellation();
    /* OpenMP 5.1, as libgomp 12 implements it */
    ompt_start_tool_result_t *t =
        on_libgomp() ? start_pomp_tool(202011, "GNU libgomp (pomp gomp-bridge)") : NULL;
    struct gomp_thread_state *s = &gomp_tls;
    s->task = &s->initial_task;
    if (t && t->initialize(lookup, 0, &t->tool_data)) {
        __atomic_store_n(&tool, t, __ATOMIC_RELEASE);
        active = 1;
    }
    __atomic_store_n(&gomp_active, active, __ATOMIC_RELEASE);
    gomp_watch_update();
    ompt_callback_thread_begin_t begin = GOMP_CB(thread_begin);
    s->started = 1;
    if (active == 1 && begin)
        begin(ompt_thread_initial, NULL);
}

/* At the first call of an interposed entry point (libomp starts its tool
 * when it initializes, at the program's first OpenMP call): a program that
 * never calls one is not measured, as on libomp. */
int gomp_start(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, start_tool);
    return __atomic_load_n(&gomp_active, __ATOMIC_ACQUIRE) == 1;
}

uintptr_t gomp_own_code_lo, gomp_own_code_hi;

/* The executable segment holding this library's code (arg: an address in it). */
static int find_own_code(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    uintptr_t self = (uintptr_t)arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + p->p_vaddr, hi = lo + p->p_memsz;
        if (p->p_type == PT_LOAD && (p->p_flags & PF_X) && self >= lo && self < hi) {
            gomp_own_code_lo = lo;
            gomp_own_code_hi = hi;
            return 1;
        }
    }
    return 0;
}

/* Resolved at load, off the hot path. The tool's exit handler is registered
 * here too: after libpomp's (registered by its constructor, which runs first:
 * this library needs it), so that it runs before it, and before main, so that
 * every handler the program registers runs before both, measured (libomp ends
 * its tool in a destructor, after every handler). */
__attribute__((constructor)) static void resolve_at_load(void)
{
    gomp_real_resolve();
    dl_iterate_phdr(find_own_code, (void *)(uintptr_t)&gomp_start);
    atexit(finalize_tool);
}
