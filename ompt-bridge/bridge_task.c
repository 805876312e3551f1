/* Explicit tasks: creation counted under the creating thread's region
 * (task_create), execution as a frame from the task's start to its end on the
 * thread that runs it (task_schedule). A task suspended at a scheduling point
 * (taskwait, taskyield, a barrier) keeps its frame; the tasks run meanwhile
 * nest inside it. An untied task may also stop a part of its execution at a
 * scheduling point and go on later, on this thread or another: each part is a
 * frame on the thread that runs it, and only the first counts a begin. Also:
 * dependences and cancellation, as single events. */
#include <stddef.h>
#include <stdint.h>

#include "bridge_callbacks.h"
#include "bridge_record.h"

/* A task's OMPT data is one word, which the bridge fills without allocating:
 * 0 for a task it does not follow (and implicit tasks), among them one the
 * instrumentation creates and begins itself (the bridge opens no frame for it:
 * counted once; the libgomp bridge counts no unwrapped task of it as
 * unmeasured); else the number of the region of its execution
 * (bridge_region_number) in the low bits, TASK_BEGUN once its execution began
 * (a later part of an untied task's execution counts no second begin), and
 * above them the id that its creation's trace record carries (0 when no trace
 * is written), which its execution's records carry too (docs/output.md). */
enum { TASK_ID_SHIFT = BRIDGE_REGION_NUMBER_BITS + 1 };
_Static_assert(TASK_ID_SHIFT + POMP_TASK_ID_BITS <= 64, "a task's data holds all three");
#define REGION_NUMBER_MASK ((UINT64_C(1) << BRIDGE_REGION_NUMBER_BITS) - 1)
#define TASK_BEGUN (UINT64_C(1) << BRIDGE_REGION_NUMBER_BITS)

static inline uint64_t task_data(uint32_t region_number, uint64_t id)
{
    return region_number ? id << TASK_ID_SHIFT | region_number : 0;
}

static inline int task_followed(const ompt_data_t *task)
{
    return task && task->value;
}

static inline struct POMP_Region_s *task_region(const ompt_data_t *task)
{
    return bridge_region_numbered((uint32_t)(task->value & REGION_NUMBER_MASK));
}

static inline uint64_t task_id(const ompt_data_t *task)
{
    return task->value >> TASK_ID_SHIFT;
}

int bridge_untied_parts;

static inline void note_untied(int flags)
{
    if (__builtin_expect((flags & ompt_task_untied) != 0, 0) &&
        !__atomic_load_n(&bridge_untied_parts, __ATOMIC_RELAXED)) {
        __atomic_store_n(&bridge_untied_parts, 1, __ATOMIC_RELAXED);
        pomp_fast_done_waits_stop(); /* it may resume on another thread */
    }
}

/* A creation the runtime may defer: the creating task's taskwait may wait
 * (POMP_Fast_children_done; an undeferred one, if(0) or included, has run to
 * its end when its creation returns). */
static inline void note_deferred(int flags)
{
    if (!(flags & ompt_task_undeferred))
        POMP_Fast_children_done = 0;
}

/* Marks the task's execution begun; returns whether it had begun before. */
static inline int task_begins(ompt_data_t *task)
{
    uint64_t v = task->value;
    task->value = v | TASK_BEGUN;
    return (v & TASK_BEGUN) != 0;
}

/* The bridge tells the runtime's reports of POMP's task constructs by the
 * construct's enter, which a throttled one would no longer make (its
 * creations are counted inline): such a construct is never throttled. (A
 * throttled taskloop still enters: only atomic, critical and task sites are
 * counted inline.) */
static void keep_entering(struct POMP_Region_s *r)
{
    if (!__atomic_load_n(&r->keep_entering, __ATOMIC_RELAXED))
        __atomic_store_n(&r->keep_entering, 1, __ATOMIC_RELAXED);
}

/* The region that counts the creations of tasks of region run: at run's
 * place where it has one (the tasks of an instrumented taskloop), else at the
 * code address the runtime gave, or, for a creation inside the runtime (the
 * helper tasks of LLVM libomp's taskloop, which create parts of the loop on
 * any thread), at run's own address in the program: before, those creations
 * were a region of their own named `__kmpc_taskloop()` under pomprun, 92 of a
 * taskloop's 107 (a probe). */
static struct POMP_Region_s *creation_region(uint32_t run, const void *codeptr_ra)
{
    struct POMP_Region_s *r = bridge_region_numbered(run);
    if (r && r->ctc.file)
        return bridge_region_at(BC_TASK_CREATE, r);
    if (!bridge_code_is_program(BC_TASKLOOP, codeptr_ra)) {
        const void *code = bridge_region_numbered_code(run, BC_TASK);
        if (code)
            codeptr_ra = code;
    }
    return bridge_region(BC_TASK_CREATE, codeptr_ra);
}

/* The task's execution region travels with the task (its data), with its
 * id when the creation went into a trace; a task of an instrumented taskloop
 * (which the instrumentation cannot see: the runtime cuts the loop into
 * tasks) is named after the taskloop's place. */
static void task_created(struct bridge_thread *b, ompt_data_t *new_task_data,
                         struct POMP_Region_s *in_taskloop, const void *codeptr_ra)
{
    uint32_t run = in_taskloop ? bridge_region_number_at(BC_TASK, in_taskloop)
                               : bridge_region_number(BC_TASK, codeptr_ra);
    uint64_t id;
    bridge_record_task_create(b, creation_region(run, codeptr_ra), pomp_now(), &id);
    new_task_data->value = task_data(run, id);
}

/* A task created inside the runtime (LLVM libomp's __kmpc_taskloop) by a
 * taskloop the bridge measures: at the taskloop's place in the program, where
 * the bridge found one (bridge_program_caller), so that its tasks are a task
 * region at the taskloop's place, not one named after a libomp function. */
static const void *taskloop_place(struct bridge_thread *b, const void *codeptr_ra)
{
    const struct bridge_scope *s = bridge_scope_top(b);
    if (!s || s->kind != SCOPE_WORK || s->detail != ompt_work_taskloop || !s->task ||
        !codeptr_ra || (uintptr_t)codeptr_ra - bridge_runtime_code_lo >= bridge_runtime_code_span)
        return codeptr_ra;
    return s->task;
}

/* LLVM libomp cuts a taskloop of many tasks recursively (more than
 * KMP_TASKLOOP_MIN_TASKS, by default ten per thread of the team): a helper
 * task of its own creates the tasks of a part of the loop, and reports those
 * creations with the taskloop's encountering task instead of itself, the task
 * that runs on this thread, and at a code address inside libomp (as all the
 * taskloop's creations). So such a creation while a followed task runs here
 * continues that task's taskloop: the new task is of the same region, its
 * creation counted there; and the running task is the runtime's helper, whose
 * begin is taken back (its time, the loop's splitting, stays in the task
 * root). Every task of the loop is then in its task root, once (before: about
 * half of them were in no profile). A task of the program's own (created at a
 * place of the program) by a task POMP measures, which runs inside the
 * followed one's wait, is not one: its creator is not the followed task
 * either, but its address is the program's. */
static int taskloop_continued(struct bridge_thread *b, const ompt_data_t *encountering_task_data,
                              ompt_data_t *new_task_data, const void *codeptr_ra)
{
    struct bridge_scope *s = bridge_scope_top(b);
    if (!s || s->kind != SCOPE_TASK || s->task == encountering_task_data ||
        !task_followed(s->task) || !codeptr_ra ||
        (uintptr_t)codeptr_ra - bridge_runtime_code_lo >= bridge_runtime_code_span)
        return 0;
    uint32_t run = (uint32_t)(((const ompt_data_t *)s->task)->value & REGION_NUMBER_MASK);
    if (!s->detail) { /* its first creation: a helper, not a task of the program */
        s->detail = 1;
        struct pomp_thread *t = bridge_pomp_thread(b);
        if (t && s->region)
            pomp_thread_uncount_task(t, s->region);
    }
    uint64_t id;
    bridge_record_task_create(b, creation_region(run, codeptr_ra), pomp_now(), &id);
    new_task_data->value = task_data(run, id);
    return 1;
}

/* A task of POMP's task construct r whose body the instrumentation left
 * without events (an untied task that may resume on another thread): POMP
 * counted its creation (the enter just ran), the bridge measures its
 * executions as r's, so that they sit in r's task root like any task's. pompcc
 * never counts such a construct inline: it enters, throttled or not. */
static void split_task_created(ompt_data_t *new_task_data, struct POMP_Region_s *r)
{
    new_task_data->value = task_data(bridge_region_number_of(r), 0);
}

static struct bridge_thread *task_creation_recorded(int flags)
{
    struct bridge_thread *b;
    if (!(flags & ompt_task_explicit) || !bridge_records(POMP_GROUP_TASK, BR_ENTER_EXIT) ||
        bridge_measuring() < 0 || !(b = bridge_self()))
        return NULL;
    return b;
}

/* ---- waits for dependences ----
 *
 * LLVM libomp 19 reports an undeferred task's wait for its dependences (an
 * if(0) task with a depend clause: __kmpc_omp_wait_deps) and the wait of a
 * `taskwait depend(...)` (__kmpc_omp_taskwait_deps_51, which serves both) as
 * a "taskwait task" of their own: task_create with ompt_task_taskwait (and
 * undeferred, mergeable), at the construct's code address; the tasks the
 * thread runs meanwhile; then task_schedule of that task with
 * ompt_taskwait_complete. The undeferred task itself is created (and begins)
 * only after that. The libgomp bridge reports GOMP_task's wait for the
 * dependences of an if(0) task so too (gomp-bridge/gomp_task.c). So the
 * bridge makes that interval a wait named dependences at the construct's
 * place, the region libpomp makes for the same wait of an instrumented task
 * (the wait table's taskwait column), and the tasks run meanwhile nest inside
 * it, as in a taskwait; before, it read as the enclosing region's work (a
 * single's 20 ms). libomp's flags do not tell an if(0) task's wait from a
 * taskwait depend's: both are this wait (docs/ompt.md).
 *
 * The task's data stays empty: libomp keeps it in its thread record, asserts
 * it empty at every such creation (KMP_ASSERT) and clears it at the complete,
 * so a value there would abort a thread that waits so again inside a task it
 * runs meanwhile. Every creation opens a scope, the complete closes it: where
 * POMP's task or taskwait construct is open (its enter just ran) the scope is
 * bare, as the instrumentation measures the wait from its enter (libpomp's
 * dependences wait, or the taskwait); so the instrumented waits nested in an
 * uninstrumented one pair up too. */

/* On LLVM libomp the dependences callback is not registered (bridge_tool.c):
 * libomp 19's __kmpc_omp_taskwait_deps_51 (an if(0) task's wait for its
 * dependences, a taskwait depend) writes the type of a mutexinoutset or
 * inoutset entry of the list it builds for that callback past the list's end
 * (ompt_deps[ndeps + i] for [i]), on the heap: the program aborted in libomp's
 * allocator (kmp_alloc.cpp(753)) under pomprun and POMP_OMPT=full. A task's
 * dependences are counted from its creation's has_dependences instead
 * (task_create: a task with dependences, and a taskwait task), as the callback
 * counted them, but for doacross waits and posts (the callback only). */
int bridge_dependences_at_create;

static void count_dependences(struct bridge_thread *b)
{
    bridge_record(b, BR_EVENT, bridge_region(BC_TASK_DEPENDENCES, NULL), pomp_now(),
                  POMP_EV_OMPT_TASK_DEPENDENCES);
}

/* The taskwait task's creation: the wait begins. measured: the bridge measures
 * what the instrumentation does not (pomprun, POMP_OMPT=full); else the scope
 * only pairs with the complete. */
static __attribute__((noinline, cold)) void dependences_wait_begin(int has_dependences,
                                                                   const void *codeptr_ra,
                                                                   int measured)
{
    struct bridge_thread *b;
    struct bridge_scope *s;
    if (bridge_measuring() < 0 || !(b = bridge_self()) ||
        !(s = bridge_scope_push(b, SCOPE_DEPWAIT)) || !measured ||
        !bridge_records(POMP_GROUP_TASK, BR_ENTER_EXIT))
        return;
    if (has_dependences && __atomic_load_n(&bridge_dependences_at_create, __ATOMIC_RELAXED))
        count_dependences(b); /* (where the callback counted them: before the wait) */
    struct POMP_Region_s *pomp;
    enum bridge_class c = bridge_pomp_entered_class(b, &pomp);
    if (c == BRC_TASK || c == BRC_TASK_UNTIED_SPLIT || c == BRC_TASKWAIT)
        return; /* POMP's construct: the instrumentation measures the wait */
    struct pomp_thread *t = bridge_pomp_thread(b);
    s->start = pomp_now();
    s->region = bridge_region(BC_WAIT_DEPENDENCES, codeptr_ra);
    s->exit_kind = POMP_EV_OMPT_SYNC_EXIT;
    /* without a trace or sampling, no frame: a leaf, as a taskwait's */
    s->leaf = !b->sampling && t && s->region && !s->region->filtered_out &&
              bridge_measuring() == 1 && pomp_thread_leaf_open(t, s->region, s->start, 0);
    if (!s->leaf)
        bridge_record(b, BR_ENTER, s->region, s->start, POMP_EV_OMPT_SYNC_ENTER);
}

/* ... and its complete: the wait ends. */
static __attribute__((noinline, cold)) void dependences_wait_end(void)
{
    struct bridge_thread *b;
    struct bridge_scope *s;
    if (bridge_measuring() < 0 || !(b = bridge_self()) ||
        !(s = bridge_scope_pop(b, SCOPE_DEPWAIT)) || !s->region)
        return;
    uint64_t now = pomp_now();
    if (s->leaf)
        pomp_thread_leaf_close(bridge_pomp_thread(b), s->region, now);
    else
        bridge_record(b, BR_EXIT, s->region, now, (enum pomp_event_kind)s->exit_kind);
}

/* Whether a task created without a POMP enter is a task construct in the body
 * of an untied task the instrumentation left without events: the
 * instrumentation gives such a construct no enter/exit (its creation may end
 * a part of the untied task), but a tied one its begin/end. */
static int tied_in_split_task(const ompt_data_t *encountering_task_data, int flags)
{
    return !(flags & ompt_task_untied) && task_followed(encountering_task_data) &&
           bridge_class_of(task_region(encountering_task_data)) == BRC_TASK_UNTIED_SPLIT;
}

void bridge_on_task_create(ompt_data_t *encountering_task_data,
                           const ompt_frame_t *encountering_task_frame,
                           ompt_data_t *new_task_data, int flags, int has_dependences,
                           const void *codeptr_ra)
{
    (void)encountering_task_frame;
    note_untied(flags);
    note_deferred(flags);
    struct bridge_thread *b = task_creation_recorded(flags);
    if (!b) { /* (not explicit, among others: a deferred task pays no test here) */
        if (flags & ompt_task_taskwait)
            dependences_wait_begin(has_dependences, codeptr_ra, 1);
        return;
    }
    if (__builtin_expect(has_dependences, 0) &&
        __atomic_load_n(&bridge_dependences_at_create, __ATOMIC_RELAXED))
        count_dependences(b);
    struct POMP_Region_s *r = NULL;
    switch (bridge_pomp_entered_class(b, &r)) {
    case BRC_TASK: /* POMP_Task_enter: its begin/end are in the body */
        keep_entering(r); /* else its tasks would count twice */
        new_task_data->value = 0; /* POMP measures it */
        return;
    case BRC_TASK_UNTIED_SPLIT: split_task_created(new_task_data, r); return;
    case BRC_TASKLOOP: task_created(b, new_task_data, r, codeptr_ra); return;
    default:
        if (tied_in_split_task(encountering_task_data, flags))
            new_task_data->value = 0; /* POMP measures it: its body's begin/end */
        else if (!taskloop_continued(b, encountering_task_data, new_task_data, codeptr_ra))
            task_created(b, new_task_data, NULL, taskloop_place(b, codeptr_ra));
        return;
    }
}

/* In a program pompcc linked, where the instrumentation measures the task
 * constructs (a throttled one too, whose enter leaves no frame to recognize
 * it by): only the tasks whose executions it does not see are the bridge's,
 * those of its taskloops and of its untied tasks without events in their
 * body. Any other task keeps empty data, which task_schedule passes over
 * without a clock read. */
void bridge_on_unreported_task_create(ompt_data_t *encountering_task_data,
                                      const ompt_frame_t *encountering_task_frame,
                                      ompt_data_t *new_task_data, int flags,
                                      int has_dependences, const void *codeptr_ra)
{
    (void)encountering_task_frame;
    note_untied(flags);
    note_deferred(flags);
    struct bridge_thread *b = task_creation_recorded(flags);
    if (!b) {
        if (flags & ompt_task_taskwait) /* (paired with its complete, measured by POMP) */
            dependences_wait_begin(has_dependences, codeptr_ra, 0);
        return;
    }
    struct POMP_Region_s *r = NULL;
    enum bridge_class c = bridge_pomp_entered_class(b, &r);
    if (c == BRC_TASK) /* POMP's task construct: the common case, one test */
        return;
    if (c == BRC_TASKLOOP)
        task_created(b, new_task_data, r, codeptr_ra);
    else if (c == BRC_TASK_UNTIED_SPLIT)
        split_task_created(new_task_data, r);
    else
        taskloop_continued(b, encountering_task_data, new_task_data, codeptr_ra);
}

/* Whether the task's frame is open on this thread: it was suspended here. */
static int task_is_open(const struct bridge_thread *b, const ompt_data_t *task)
{
    for (uint32_t i = b->nscopes; i-- > 0;)
        if (b->scope[i].kind == SCOPE_TASK && b->scope[i].task == task)
            return 1;
    return 0;
}

static int ends_execution(ompt_task_status_t status)
{
    return status == ompt_task_complete || status == ompt_task_cancel ||
           status == ompt_task_detach;
}

/* Whether the switch away from the followed task prior ends the frame on top
 * of thread b: prior's execution ends, or a part of it does. libomp ends a
 * part of an untied task (Clang's code re-queues the task at a scheduling
 * point in its body, and any thread may go on with it) by switching back to
 * the task the part interrupted; a task that waits or yields switches to
 * another one, and keeps its frame. */
static int ends_frame(const struct bridge_scope *s, const ompt_data_t *prior,
                      ompt_task_status_t status, const ompt_data_t *next)
{
    return s && s->kind == SCOPE_TASK && s->task == prior &&
           (ends_execution(status) || next == s->switched_from);
}

static void task_frame_end(struct bridge_thread *b, uint64_t now)
{
    struct bridge_scope *s = bridge_scope_pop(b, SCOPE_TASK);
    if (s && s->region)
        bridge_record(b, BR_END, s->region, now, POMP_EV_OMPT_TASK_END);
}

/* A part's frame whose task interrupted `current` (switched_from), on top
 * while the runtime reports `current` running again: the part ended. An
 * untied task's parts count its task down (td_untied_count), and the one
 * that counts last reports the task's end: where the last part (the task's
 * tail after its taskwait, run by this thread) ends before the part before it
 * (on another thread, which re-queued the task and has not returned yet), the
 * other thread reports the task complete and this one gets no event. Its
 * frame stayed open, and the frames around it did not match their ends (a
 * runtime taskwait lost, 5-9 unmatched events in 2 runs of 150; a probe).
 * Closed at the next event of this thread: the part ended before it. */
void bridge_task_parts_ended(struct bridge_thread *b, const void *current)
{
    struct bridge_scope *s;
    uint64_t now = 0;
    while (current && (s = bridge_scope_top(b)) && s->kind == SCOPE_TASK && s->task != current &&
           s->switched_from == current) {
        if (!now)
            now = pomp_now();
        task_frame_end(b, now);
    }
}

/* A frame for task's execution, or for a later part of it (a begin counted
 * once per execution), which interrupts the task `from`. */
static void task_frame_begin(struct bridge_thread *b, ompt_data_t *from, ompt_data_t *task,
                             uint64_t now)
{
    struct bridge_scope *s = bridge_scope_push(b, SCOPE_TASK);
    if (!s)
        return;
    s->task = task;
    s->switched_from = from;
    if (!bridge_records(POMP_GROUP_TASK, BR_BEGIN_END))
        return;
    s->region = task_region(task);
    if (task_begins(task))
        bridge_resume(b, s->region, now, POMP_EV_OMPT_TASK_BEGIN, task_id(task));
    else
        bridge_record_arg(b, BR_BEGIN, s->region, now, POMP_EV_OMPT_TASK_BEGIN, task_id(task));
}

/* A switch from or to a task the bridge follows. */
static __attribute__((noinline)) void followed_task_switch(ompt_data_t *prior_task_data,
                                                           ompt_task_status_t prior_task_status,
                                                           ompt_data_t *next_task_data)
{
    struct bridge_thread *b;
    if (bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    if (__atomic_load_n(&bridge_untied_parts, __ATOMIC_RELAXED))
        bridge_task_parts_ended(b, prior_task_data);
    int ends = task_followed(prior_task_data) &&
               ends_frame(bridge_scope_top(b), prior_task_data, prior_task_status, next_task_data);
    if (!ends && b->lost_scopes && task_followed(prior_task_data) &&
        ends_execution(prior_task_status))
        bridge_scope_pop(b, SCOPE_TASK); /* its scope was one too many: counted down */
    /* not if next goes on where it was suspended (below the taskwait it waited in) */
    int begins = task_followed(next_task_data) && !task_is_open(b, next_task_data);
    if (!ends && !begins)
        return; /* prior waits or yields; next resumed where it was suspended, or not ours */
    uint64_t now = pomp_now();
    if (ends)
        task_frame_end(b, now);
    if (begins)
        task_frame_begin(b, prior_task_data, next_task_data, now);
}

/* A switch between tasks the bridge does not follow, in a program with
 * untied tasks: a part of one may have ended before it (an implicit task's
 * taskwait ran the last part of an untied task, then a tied task). */
static __attribute__((noinline)) void unfollowed_task_switch(const ompt_data_t *prior_task_data)
{
    struct bridge_thread *b;
    if (bridge_measuring() >= 0 && (b = bridge_self()))
        bridge_task_parts_ended(b, prior_task_data);
}

void bridge_on_task_schedule(ompt_data_t *prior_task_data, ompt_task_status_t prior_task_status,
                             ompt_data_t *next_task_data)
{
    /* a switch between tasks POMP measures (or implicit ones) costs two tests
     * and reads no clock: in a pompcc build on libomp, the runtime reports
     * every task's switches while the bridge follows only those it measures */
    if (task_followed(prior_task_data) || task_followed(next_task_data))
        followed_task_switch(prior_task_data, prior_task_status, next_task_data);
    else if (__builtin_expect(prior_task_status == ompt_taskwait_complete, 0))
        dependences_wait_end(); /* (a taskwait task's data stays empty) */
    else if (__builtin_expect(__atomic_load_n(&bridge_untied_parts, __ATOMIC_RELAXED), 0))
        unfollowed_task_switch(prior_task_data);
}

void bridge_on_dependences(ompt_data_t *task_data, const ompt_dependence_t *deps, int ndeps)
{
    (void)task_data;
    (void)deps;
    struct bridge_thread *b;
    if (ndeps <= 0 || !bridge_records(POMP_GROUP_TASK, BR_ENTER_EXIT) ||
        bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    bridge_record(b, BR_EVENT, bridge_region(BC_TASK_DEPENDENCES, NULL), pomp_now(),
                  POMP_EV_OMPT_TASK_DEPENDENCES);
}

/* Whether the thread's top frame is a region the bridge made at the place of
 * an instrumented construct (create in bridge_regions.c: only such a region has
 * a file). */
static int at_instrumented_place(struct bridge_thread *b)
{
    struct pomp_frame *f = bridge_top_frame(b);
    return f && f->region && f->region->ctc.file;
}

void bridge_on_cancel(ompt_data_t *task_data, int flags, const void *codeptr_ra)
{
    (void)task_data;
    struct bridge_thread *b;
    if (!bridge_records(POMP_GROUP_SYNC, BR_SINGLE_EVENT) || bridge_measuring() < 0 ||
        !(b = bridge_self()))
        return;
    enum bridge_construct c = (flags & ompt_cancel_activated)   ? BC_CANCEL_ACTIVATED
                              : (flags & ompt_cancel_detected) ? BC_CANCEL_DETECTED
                                                               : BC_CANCEL_DISCARDED;
    /* an activated cancel in instrumented code is POMP_Cancel_event's: a single
     * event cannot be matched with it, so the region around decides: POMP's,
     * or the bridge's at the place of an instrumented construct (a task of
     * pompcc's taskloop, whose body is instrumented: before, its one cancel
     * counted twice, as cancel and as cancel activated) */
    if (c == BC_CANCEL_ACTIVATED && (bridge_in_instrumented_code(b) || at_instrumented_place(b)))
        return;
    bridge_record(b, BR_EVENT, bridge_region(c, codeptr_ra), pomp_now(), POMP_EV_OMPT_CANCEL);
}
