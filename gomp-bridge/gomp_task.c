/* Explicit tasks: GOMP_task hands libgomp a wrapper function and a copy
 * function of the bridge's, so that the task's execution is seen where it
 * runs (task_schedule: switch to it, complete after it), with the task's
 * OMPT data traveling in its argument block. Semantics stay libgomp's: the
 * same if clause, flags, dependences, priority and detach event; the user's
 * data is copied into the block exactly as libgomp would (the user's copy
 * function, or memcpy), at the same point, with the user's alignment.
 *
 * The argument block: [struct task_head][padding to the user's alignment]
 * [the user's data]. libgomp aligns the block to the larger alignment. */
#include <stddef.h>
#include <string.h>

#include "gomp_bridge.h"

struct task_head {
    void (*fn)(void *);
    void (*cpyfn)(void *, void *); /* the user's, or NULL: memcpy */
    void *data;                    /* the user's data, at the creation (the source) */
    long size;                     /* the user's arg_size */
    size_t offset;                 /* where the user's data starts in the block */
    ompt_data_t task;              /* the tool's data of this task */
};

/* The user's data into a task's block, as libgomp would copy it. */
static inline void copy_user(void *user, const struct task_head *from)
{
    if (from->cpyfn)
        from->cpyfn(user, from->data);
    else if (from->size > 0)
        memcpy(user, from->data, (size_t)from->size);
}

static void copy_task(void *dst, void *src)
{
    const struct task_head *from = src;
    struct task_head *to = dst;
    *to = *from;
    copy_user((char *)dst + from->offset, from);
}

/* A wrapped task's execution on this thread: the user's function on its data. */
static inline void run_user(struct task_head *head, void *user)
{
    struct gomp_thread_state *t = &gomp_tls;
    ompt_data_t *prior = t->task;
    int32_t state = t->state;
    ompt_callback_task_schedule_t schedule = GOMP_CB(task_schedule);
    if (schedule)
        schedule(prior, ompt_task_switch, &head->task);
    t->task = &head->task;
    t->state = ompt_state_work_parallel;
    head->fn(user);
    t->task = prior;
    t->state = state;
    if (schedule)
        schedule(&head->task, ompt_task_complete, prior);
}

const void *gomp_running_task_code(const struct gomp_thread_state *t)
{
    const ompt_data_t *d = t->task;
    if (!d || d == &t->initial_task || (d >= t->implicit && d < t->implicit + GOMP_MAX_NESTING))
        return NULL;
    /* run_user's: the task's data is its head's (a taskloop's too) */
    const struct task_head *head =
        (const struct task_head *)(const void *)((const char *)d - offsetof(struct task_head, task));
    return GOMP_CODE_OF(head->fn);
}

static void run_task(void *arg)
{
    struct task_head *head = arg;
    run_user(head, (char *)arg + head->offset);
}

static inline int tasks_followed(void)
{
    return GOMP_ACTIVE() && (GOMP_CB(task_create) != NULL || GOMP_CB(task_schedule) != NULL ||
                             __atomic_load_n(&gomp_states_read, __ATOMIC_RELAXED));
}

/* GCC's flag bits of GOMP_task (libgomp's gomp-constants.h). */
enum { GOMP_TASK_FLAG_UNTIED = 1, GOMP_TASK_FLAG_DEPEND = 8, GOMP_TASK_FLAG_DETACH = 1 << 13 };

/* What GOMP_task does for the tool: forward the task untouched, wrap it, or
 * report its creation first and wrap it if the tool follows it. */
enum task_report { TASK_FORWARD, TASK_WRAP, TASK_ASK };

/* In a pompcc build the instrumentation measures the task constructs, and a
 * wrapped task would cost each of them a copy and three callbacks that the
 * tool passes over: only thread states need it then, and an untied task,
 * whose body the instrumentation leaves without events where it holds a
 * scheduling point: the tool says so by the data it gives the task at its
 * creation (empty: not followed), and only asked when it said that the
 * program has such a construct (gomp_untied_split). libgomp runs untied
 * tasks tied, so the wrapper sees each execution whole. */
static inline enum task_report task_report(unsigned flags)
{
    if (!tasks_followed())
        return TASK_FORWARD;
    if (!__atomic_load_n(&gomp_tasks_instrumented, __ATOMIC_RELAXED) ||
        __atomic_load_n(&gomp_states_read, __ATOMIC_RELAXED))
        return TASK_WRAP;
    return (flags & GOMP_TASK_FLAG_UNTIED) && __atomic_load_n(&gomp_untied_split, __ATOMIC_RELAXED)
               ? TASK_ASK
               : TASK_FORWARD;
}

/* Why a task that the tool follows is forwarded unwrapped, or -1: it is wrapped. */
static inline int unwrapped_task(void (*cpyfn)(void *, void *), unsigned flags)
{
    if (flags & GOMP_TASK_FLAG_DETACH) /* libgomp writes the event into the block's first word */
        return GOMP_UNWRAPPED_DETACH;
    if (!cpyfn && gomp_cancellation) /* wrapping would change what is discarded */
        return GOMP_UNWRAPPED_CANCELLATION;
    return -1;
}

/* An undeferred task's wait for its dependences (an if(0) task with a depend
 * clause): libgomp waits inside GOMP_task, running other tasks meanwhile,
 * before it runs the task's function on this thread. Reported as LLVM libomp
 * reports that wait: a "taskwait task" (task_create with ompt_task_taskwait,
 * undeferred and mergeable, at the task construct's place) from GOMP_task's
 * entry, after the task's own creation, to the task's start (task_schedule
 * ompt_taskwait_complete), or to GOMP_task's return where the task never
 * starts (a cancelled team or taskgroup). The OMPT bridge makes it a wait
 * named dependences; it read as the enclosing region's work (a single's 20
 * ms). The thread's state is a taskwait's meanwhile. Other undeferred tasks
 * (a final task's children, libgomp running a task at once past 64 queued
 * per thread) wait for their dependences unreported: the wrapper cannot tell
 * them (docs/gomp.md). */
struct gomp_dependences_wait {
    ompt_data_t task; /* the taskwait task's data (the tool leaves it empty) */
    int32_t state;    /* the thread's state before the wait */
};

/* The wait on this thread ends: its task starts, or GOMP_task returns. */
static void dependences_waited(struct gomp_thread_state *t)
{
    struct gomp_dependences_wait *w = t->dependences_wait;
    t->dependences_wait = NULL;
    gomp_wait_end(t, w->state);
    ompt_callback_task_schedule_t schedule = GOMP_CB(task_schedule);
    if (schedule)
        schedule(&w->task, ompt_taskwait_complete, NULL);
}

/* The task run after its wait: libgomp runs it on this thread inside
 * GOMP_task, where the wait is the innermost (a task run meanwhile that waits
 * so too has ended its own before it returns). */
static void run_task_waited(void *arg)
{
    struct gomp_thread_state *t = &gomp_tls;
    if (t->dependences_wait)
        dependences_waited(t);
    run_task(arg);
}

/* task_create of a task about to be handed to libgomp, its data in head. */
static inline void task_created(struct task_head *head, bool if_clause, unsigned flags)
{
    ompt_callback_task_create_t create = GOMP_CB(task_create);
    if (create)
        create(gomp_tls.task, NULL, &head->task,
               ompt_task_explicit | (if_clause ? 0 : ompt_task_undeferred) |
                   (flags & GOMP_TASK_FLAG_UNTIED ? ompt_task_untied : 0),
               (flags & GOMP_TASK_FLAG_DEPEND) != 0, GOMP_CODE_OF(head->fn));
}

/* A wrapped if(0) task with dependences, its creation reported: its wait
 * reported around libgomp's (gomp_dependences_wait). */
static __attribute__((noinline)) void undeferred_waiting(struct task_head *head, long arg_size,
                                                         size_t align, unsigned flags,
                                                         void **depend, int priority,
                                                         void *detach)
{
    struct gomp_thread_state *t = &gomp_tls;
    struct gomp_dependences_wait w = {.task = ompt_data_none};
    struct gomp_dependences_wait *outer = t->dependences_wait;
    ompt_callback_task_create_t create = GOMP_CB(task_create);
    if (create)
        create(t->task, NULL, &w.task,
               ompt_task_taskwait | ompt_task_undeferred | ompt_task_mergeable, 1,
               GOMP_CODE_OF(head->fn));
    w.state = gomp_wait_begin(t, ompt_state_wait_taskwait, 0);
    t->dependences_wait = &w;
    REAL(GOMP_task)(run_task_waited, head, copy_task,
                    (long)head->offset + (arg_size > 0 ? arg_size : 0), (long)align, false, flags,
                    depend, priority, detach);
    if (t->dependences_wait == &w) /* the task never started */
        dependences_waited(t);
    t->dependences_wait = outer;
}

/* libgomp's GOMP_task with the program's own arguments. */
#define FORWARD_TASK()                                                                          \
    REAL(GOMP_task)(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority,   \
                    detach)

/* A task the tool may follow: wrapped, unless the tool does not follow it or
 * libgomp needs it unwrapped. Apart from GOMP_task, so that a task forwarded
 * untouched (a pompcc build's tied one) pays for none of it. */
static __attribute__((noinline)) void task_for_tool(enum task_report report, void (*fn)(void *),
                                                    void *data, void (*cpyfn)(void *, void *),
                                                    long arg_size, long arg_align, bool if_clause,
                                                    unsigned flags, void **depend, int priority,
                                                    void *detach)
{
    size_t align = arg_align > 0 ? (size_t)arg_align : 1;
    if (align < _Alignof(struct task_head))
        align = _Alignof(struct task_head);
    size_t offset = (sizeof(struct task_head) + align - 1) & ~(align - 1);
    struct task_head head = {.fn = fn, .cpyfn = cpyfn, .data = data,
                             .size = arg_size, .offset = offset};
    task_created(&head, if_clause, flags);
    if (report == TASK_ASK && !head.task.value) { /* the instrumentation measures it */
        FORWARD_TASK();
        return;
    }
    int unwrapped = unwrapped_task(cpyfn, flags);
    if (unwrapped >= 0) {
        /* unmeasured only if the tool follows it (an instrumented task's data is
         * empty: the instrumentation measures it; its thread state is the
         * enclosing one's) */
        if (head.task.value)
            __atomic_add_fetch(&gomp_unwrapped_tasks[unwrapped], 1, __ATOMIC_RELAXED);
        FORWARD_TASK();
        return;
    }
    if (__builtin_expect(!if_clause, 0) && (flags & GOMP_TASK_FLAG_DEPEND)) {
        undeferred_waiting(&head, arg_size, align, flags, depend, priority, detach);
        return;
    }
    REAL(GOMP_task)(run_task, &head, copy_task, (long)offset + (arg_size > 0 ? arg_size : 0),
                    (long)align, if_clause, flags, depend, priority, detach);
}

/* GOMP_task when gomp_task_path does not settle it: the bridge not started
 * yet, or a task the tool may follow. Not static: the x86-64 GOMP_task below
 * jumps to it by name. */
__attribute__((noinline, visibility("hidden"))) void
gomp_task_decide(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                 long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
                 void *detach)
{
    enum task_report report = task_report(flags);
    if (report == TASK_FORWARD)
        FORWARD_TASK();
    else
        task_for_tool(report, fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
                      priority, detach);
}

/* One load decides the common case (gomp_task_path): libgomp's GOMP_task
 * straight away, a tail call with the program's own arguments, so that a
 * fine-grained task program's creations cost what they cost without the
 * bridge (a pompcc build's tasks, measured by the instrumentation). Before
 * it: the thread's creations counted (its team's closing barrier may run
 * them, gomp_team.c), and a deferred one (or one with a detach event; in a
 * final task libgomp includes it all the same) ends POMP_Fast_children_done.
 *
 * On x86-64 written in assembly: GCC's tail call with four arguments on the
 * stack loads them and stores them back in place, 34 instructions a task
 * where this takes 12 (a fib with an if-clause cutoff makes millions of
 * undeferred tasks, ~20 instructions of libgomp's each). Its offsets are
 * checked below; the C form is the same function for every other target. */
#if defined(__x86_64__) && defined(__ELF__)
_Static_assert(offsetof(struct gomp_thread_state, tasks_made) == 20,
               "GOMP_task's assembly adds to gomp_tls.tasks_made at offset 20");
_Static_assert(GOMP_TASK_FORWARD == 1 && GOMP_TASK_FORWARD_TIED == 2 &&
                   GOMP_TASK_FLAG_UNTIED == 1,
               "GOMP_task's assembly tests these values");
/* The arguments: fn rdi, data rsi, cpyfn rdx, arg_size rcx, arg_align r8,
 * if_clause r9b; on the stack after the return address: flags 8(%rsp),
 * depend 16, priority 24, detach 32. Only rax is used: every argument
 * reaches libgomp (or gomp_task_decide) as it came. */
__asm__(".text\n"
        ".globl GOMP_task\n"
        ".type GOMP_task, @function\n"
        ".p2align 4\n"
        "GOMP_task:\n"
        ".cfi_startproc\n"
#ifdef __CET__
        "endbr64\n"
#endif
        "movq gomp_tls@gottpoff(%rip), %rax\n"
        "addl $1, %fs:20(%rax)\n"
        "testb %r9b, %r9b\n"
        "jne 1f\n"
        "cmpq $0, 32(%rsp)\n"
        "je 2f\n"
        "1:\n"
        "movq POMP_Fast_children_done@gottpoff(%rip), %rax\n"
        "movl $0, %fs:(%rax)\n"
        "2:\n"
        "movl gomp_task_path(%rip), %eax\n"
        "cmpl $1, %eax\n"
        "jne 3f\n"
        "4:\n"
        "jmp *real_GOMP_task(%rip)\n"
        "3:\n"
        "cmpl $2, %eax\n"
        "jne 5f\n"
        "testb $1, 8(%rsp)\n"
        "je 4b\n"
        "5:\n"
        "jmp gomp_task_decide\n"
        ".cfi_endproc\n"
        ".size GOMP_task, .-GOMP_task\n");
#else
GOMP_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                           long arg_size, long arg_align, bool if_clause, unsigned flags,
                           void **depend, int priority, void *detach)
{
    gomp_tls.tasks_made++;
    if (if_clause || detach)
        POMP_Fast_children_done = 0;
    int path = __atomic_load_n(&gomp_task_path, __ATOMIC_RELAXED);
    if (__builtin_expect(path == GOMP_TASK_FORWARD ||
                             (path == GOMP_TASK_FORWARD_TIED && !(flags & GOMP_TASK_FLAG_UNTIED)),
                         1))
        real_GOMP_task(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority,
                       detach);
    else
        gomp_task_decide(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
                         priority, detach);
}
#endif
#undef FORWARD_TASK

/* Taskloops. libgomp cuts the iterations into tasks itself: each task gets a
 * copy of the argument block (the copy function, or memcpy), and libgomp
 * writes the task's iterations [start, end) into the first two words of that
 * copy, of the loop's type (long; unsigned long long for GOMP_taskloop_ull).
 * Given a block it does not copy (no copy function, run undeferred) it writes
 * them into the block it was handed and runs the task on it. With a reduction
 * clause, libgomp reads the address of the reduction data after those two
 * words of the block it was handed.
 *
 * The bridge hands libgomp its own copy and run functions and a head whose
 * lead has that layout: libgomp writes each task's range into its copy's
 * lead, and the bridge's run function copies it into the first two words of
 * the task's copy of the user's data, then runs the user's function on that.
 * Each task is created (task_create) when its block is copied, on the
 * encountering thread; task_schedule is as for GOMP_task. Passing a copy
 * function always makes libgomp copy: an undeferred taskloop (if(0), no team,
 * in a final task, or more tasks than libgomp queues) copies every task's
 * block into one buffer on its stack first, beside an array of task records
 * it would not have otherwise (no copy function of the user's), so a taskloop
 * of many tasks or large blocks is forwarded unwrapped (taskloop_case). */
struct taskloop_lead_long {
    long range[2];
    void *reductions;
};
struct taskloop_lead_ull {
    gomp_ull range[2];
    void *reductions;
};
struct taskloop_head {
    union {                          /* first: what libgomp writes and reads */
        struct taskloop_lead_long l;
        struct taskloop_lead_ull u;
    } lead;
    struct task_head t;              /* fn, the user's copy function and data, offset: as GOMP_task's */
    int create_flags;                /* task_create's flags of each task */
};

/* GCC's flag bits of GOMP_taskloop (libgomp's gomp-constants.h). */
enum {
    GOMP_TASK_FLAG_UP = 1 << 8,         /* _ull: the loop counts up */
    GOMP_TASK_FLAG_GRAINSIZE = 1 << 9,  /* num_tasks is the grainsize */
    GOMP_TASK_FLAG_IF = 1 << 10,        /* the if clause is true (or absent) */
    GOMP_TASK_FLAG_NOGROUP = 1 << 11,   /* no taskgroup around the tasks */
    GOMP_TASK_FLAG_REDUCTION = 1 << 12, /* a reduction clause: libgomp reads lead.reductions */
};

/* libgomp's (not interposed). */
extern void GOMP_taskgroup_start(void);
extern void GOMP_taskgroup_reduction_register(uintptr_t *data);

/* Whether a taskloop's implicit taskgroup is opened here rather than inside
 * libgomp, so that its wait for the tasks is reported as one (libomp reports
 * it so too: a taskgroup wait inside the taskloop), instead of being the
 * taskloop's own time. libgomp does exactly this for a taskloop without
 * nogroup: GOMP_taskgroup_start, with a reduction clause
 * GOMP_taskgroup_reduction_register of the reduction data GCC passes, the
 * taskloop's tasks, GOMP_taskgroup_end. A taskloop with a reduction and no
 * iteration is left to libgomp (it then tells GCC's code that no reduction
 * was registered); and so is any under cancellation (libgomp tests the
 * enclosing taskgroup of a nogroup taskloop for a cancel). Without the
 * taskgroup here, a reduction's taskloop had its wait for the tasks read as
 * its own work: 50 ms of wait, load balance 98 % for 58. */
static inline int taskloop_group_here(unsigned flags, gomp_ull iterations)
{
    return !(flags & GOMP_TASK_FLAG_NOGROUP) &&
           (iterations || !(flags & GOMP_TASK_FLAG_REDUCTION)) && !gomp_cancellation &&
           GOMP_CB_AS(ompt_callback_sync_region_wait, ompt_callback_sync_region_t) != NULL;
}

/* Limits of what a wrapped taskloop may add to libgomp's stack when it runs
 * undeferred: the heads of all its tasks, plus their copies of the user's
 * data and libgomp's task records when the user has no copy function (with
 * one, libgomp copies onto its stack anyway). */
enum { TASKLOOP_MAX_TASKS = 256, TASKLOOP_MAX_BYTES = 64 << 10 };

uint64_t gomp_unwrapped_taskloops[GOMP_TASKLOOP_CASES];

/* libgomp's (not interposed). */
extern int omp_get_num_threads(void);

static void copy_taskloop(void *dst, void *src)
{
    const struct taskloop_head *from = src;
    struct taskloop_head *to = dst;
    *to = *from;
    ompt_callback_task_create_t create = GOMP_CB(task_create);
    if (create) /* libgomp copies each task's block on the encountering thread, as it creates it */
        create(gomp_tls.task, NULL, &to->t.task, from->create_flags, 0, GOMP_CODE_OF(from->t.fn));
    copy_user((char *)dst + from->t.offset, &from->t);
}

static void run_taskloop_long(void *arg)
{
    struct taskloop_head *head = arg;
    void *user = (char *)arg + head->t.offset;
    memcpy(user, head->lead.l.range, sizeof head->lead.l.range);
    run_user(&head->t, user);
}

static void run_taskloop_ull(void *arg)
{
    struct taskloop_head *head = arg;
    void *user = (char *)arg + head->t.offset;
    memcpy(user, head->lead.u.range, sizeof head->lead.u.range);
    run_user(&head->t, user);
}

/* The number of iterations: (span + by - 1) / by, without overflow. */
static inline gomp_ull iterations(gomp_ull span, gomp_ull by)
{
    return span / by + (span % by != 0);
}

/* Whether to wrap a taskloop of n iterations (> 0), and if so its head and
 * block (size, alignment); else the case it is counted under. */
static enum gomp_taskloop_case taskloop_case(struct taskloop_head *head, long *size, long *align,
                                             void (*fn)(void *), void *data,
                                             void (*cpyfn)(void *, void *), long arg_size,
                                             long arg_align, unsigned flags,
                                             unsigned long num_tasks, gomp_ull n,
                                             size_t range_size, size_t lead_size,
                                             size_t reductions_at)
{
    if (arg_size < (long)(flags & GOMP_TASK_FLAG_REDUCTION ? lead_size : range_size) ||
        (flags & GOMP_TASK_FLAG_GRAINSIZE && num_tasks == 0))
        return GOMP_TASKLOOP_ODD; /* not GCC's: libgomp's own behavior, unmeasured */
    if (!cpyfn && gomp_cancellation)
        return GOMP_TASKLOOP_CANCELLATION;
    /* at most this many tasks: libgomp makes n / grainsize (one more at most
     * for a strict grainsize), or num_tasks (default: the team's size), and
     * never more than n */
    gomp_ull tasks = flags & GOMP_TASK_FLAG_GRAINSIZE ? n / num_tasks + (n / num_tasks < n)
                     : num_tasks                      ? num_tasks
                                                      : (gomp_ull)omp_get_num_threads();
    if (tasks > n)
        tasks = n;
    size_t a = arg_align > 0 ? (size_t)arg_align : 1;
    if (a < _Alignof(struct taskloop_head))
        a = _Alignof(struct taskloop_head);
    size_t offset = (sizeof(struct taskloop_head) + a - 1) & ~(a - 1);
    size_t user = cpyfn ? 0 : ((size_t)arg_size + a - 1) & ~(a - 1);
    if ((!cpyfn && tasks > TASKLOOP_MAX_TASKS) || tasks > TASKLOOP_MAX_BYTES / (offset + user))
        return GOMP_TASKLOOP_LARGE;
    *head = (struct taskloop_head){
        .t = {.fn = fn, .cpyfn = cpyfn, .data = data, .size = arg_size, .offset = offset},
        .create_flags = ompt_task_explicit | (flags & GOMP_TASK_FLAG_IF ? 0 : ompt_task_undeferred),
    };
    if (flags & GOMP_TASK_FLAG_REDUCTION)
        memcpy((char *)&head->lead + reductions_at, (const char *)data + reductions_at,
               sizeof(void *));
    *size = (long)offset + arg_size;
    *align = (long)a;
    return GOMP_TASKLOOP_WRAPPED;
}

/* The construct is reported as work around libgomp's call (which, without
 * nogroup, includes its wait for the tasks); its tasks as GOMP_task's. */
#define TASKLOOP(name, T, lead, run, count)                                                     \
    GOMP_EXPORT void name(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),        \
                          long arg_size, long arg_align, unsigned flags,                        \
                          unsigned long num_tasks, int priority, T start, T end, T step)        \
    {                                                                                           \
        gomp_tls.tasks_made++;                                                                  \
        POMP_Fast_children_done = 0;                                                            \
        if (!GOMP_ACTIVE()) {                                                                   \
            REAL(name)(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority,        \
                       start, end, step);                                                       \
            return;                                                                             \
        }                                                                                       \
        const void *codeptr = GOMP_CODE_OF(fn);                                                 \
        taskloop_work(ompt_scope_begin, codeptr);                                               \
        gomp_ull n = (count);                                                                   \
        int group = taskloop_group_here(flags, n);                                              \
        if (group) {                                                                            \
            GOMP_taskgroup_start();                                                             \
            if (flags & GOMP_TASK_FLAG_REDUCTION)                                               \
                GOMP_taskgroup_reduction_register((uintptr_t *)((struct lead *)data)->reductions); \
            flags |= GOMP_TASK_FLAG_NOGROUP;                                                    \
        }                                                                                       \
        struct taskloop_head head;                                                              \
        long size, align;                                                                       \
        enum gomp_taskloop_case c =                                                             \
            n && tasks_followed()                                                               \
                ? taskloop_case(&head, &size, &align, fn, data, cpyfn, arg_size, arg_align,     \
                                flags, num_tasks, n, 2 * sizeof(T), sizeof(struct lead),        \
                                offsetof(struct lead, reductions))                              \
                : GOMP_TASKLOOP_FORWARDED;                                                      \
        if (c == GOMP_TASKLOOP_WRAPPED) {                                                       \
            REAL(name)(run, &head, copy_taskloop, size, align, flags, num_tasks, priority,      \
                       start, end, step);                                                       \
        } else {                                                                                \
            if (c != GOMP_TASKLOOP_FORWARDED)                                                   \
                __atomic_add_fetch(&gomp_unwrapped_taskloops[c], 1, __ATOMIC_RELAXED);          \
            REAL(name)(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority,        \
                       start, end, step);                                                       \
        }                                                                                       \
        if (group)                                                                              \
            gomp_sync_wait(ompt_sync_region_taskgroup, ompt_state_wait_taskgroup, codeptr,      \
                           REAL(GOMP_taskgroup_end));                                           \
        taskloop_work(ompt_scope_end, codeptr);                                                 \
    }

static void taskloop_work(ompt_scope_endpoint_t endpoint, const void *codeptr)
{
    ompt_callback_work_t work = GOMP_CB(work);
    struct gomp_thread_state *t = &gomp_tls;
    if (work)
        work(ompt_work_taskloop, endpoint, gomp_team_data(t), t->task, 0, codeptr);
}

/* A loop's iterations as libgomp counts them: none when the bounds are the
 * wrong way round (or step is 0: libgomp's behavior is left to it). */
static inline gomp_ull iterations_long(long start, long end, long step)
{
    if (step > 0 && start < end)
        return iterations((gomp_ull)end - (gomp_ull)start, (gomp_ull)step);
    if (step < 0 && start > end)
        return iterations((gomp_ull)start - (gomp_ull)end, -(gomp_ull)step);
    return 0;
}

static inline gomp_ull iterations_ull(unsigned flags, gomp_ull start, gomp_ull end, gomp_ull step)
{
    if (flags & GOMP_TASK_FLAG_UP)
        return start < end && step ? iterations(end - start, step) : 0;
    return start > end && step ? iterations(start - end, -step) : 0;
}

TASKLOOP(GOMP_taskloop, long, taskloop_lead_long, run_taskloop_long,
         iterations_long(start, end, step))
TASKLOOP(GOMP_taskloop_ull, gomp_ull, taskloop_lead_ull, run_taskloop_ull,
         iterations_ull(flags, start, end, step))

/* A pompcc build's taskwait is the instrumentation's to measure: one load
 * decides it (gomp_taskwait_forward), and libgomp's function is a tail call. */
GOMP_EXPORT void GOMP_taskwait(void)
{
    if (__builtin_expect(__atomic_load_n(&gomp_taskwait_forward, __ATOMIC_RELAXED), 1))
        real_GOMP_taskwait();
    else if (!GOMP_ACTIVE())
        REAL(GOMP_taskwait)();
    else
        gomp_sync_wait(ompt_sync_region_taskwait, ompt_state_wait_taskwait, GOMP_CALLER(),
                       REAL(GOMP_taskwait));
}

/* taskwait with depend clauses (OpenMP 5.0): a taskwait as GOMP_taskwait's,
 * which waits for the tasks the clauses name (the tasks run meanwhile nest
 * inside it). */
GOMP_EXPORT void GOMP_taskwait_depend(void **depend)
{
    if (!GOMP_ACTIVE()) {
        REAL(GOMP_taskwait_depend)(depend);
        return;
    }
    const void *codeptr = GOMP_CALLER();
    int32_t old = gomp_sync_wait_begin(ompt_sync_region_taskwait, ompt_state_wait_taskwait,
                                       codeptr);
    REAL(GOMP_taskwait_depend)(depend);
    gomp_sync_wait_end(ompt_sync_region_taskwait, codeptr, old);
}
GOMP_SYNC_WAIT(GOMP_taskgroup_end, ompt_sync_region_taskgroup, ompt_state_wait_taskgroup)
