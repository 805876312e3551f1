/* Explicit tasks: creation counted under the creating thread's region
 * (task_create), execution as a frame from the task's start to its end on the
 * thread that runs it (task_schedule). A task suspended at a scheduling point
 * (taskwait, taskyield, a barrier) keeps its frame; the tasks run meanwhile
 * nest inside it. An untied task resumed by another thread opens a second
 * frame there. Also: dependences and cancellation, as single events. */
#include <stddef.h>

#include "bridge_callbacks.h"
#include "bridge_record.h"

/* A task's OMPT data is one word, which the bridge fills without allocating:
 * 0 for a task it does not follow (and implicit tasks); INSTRUMENTED_TASK for
 * one the instrumentation creates and begins itself (the bridge opens no frame
 * for it: counted once); else the number of the region of its execution
 * (bridge_region_number) in the low bits, and above them the id that its
 * creation's trace record carries (0 when no trace is written), which its
 * execution's records carry too (docs/output.md). */
_Static_assert(BRIDGE_REGION_NUMBER_BITS + POMP_TASK_ID_BITS <= 64, "a task's data holds both");
#define REGION_NUMBER_MASK ((UINT64_C(1) << BRIDGE_REGION_NUMBER_BITS) - 1)
#define INSTRUMENTED_TASK REGION_NUMBER_MASK /* a number no region has */

static inline uint64_t task_data(uint32_t region_number, uint64_t id)
{
    return id << BRIDGE_REGION_NUMBER_BITS | region_number;
}

static inline int task_followed(const ompt_data_t *task)
{
    return task && task->value && task->value != INSTRUMENTED_TASK;
}

static inline struct POMP_Region_s *task_region(const ompt_data_t *task)
{
    return bridge_region_numbered((uint32_t)(task->value & REGION_NUMBER_MASK));
}

static inline uint64_t task_id(const ompt_data_t *task)
{
    return task->value >> BRIDGE_REGION_NUMBER_BITS;
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

/* The task's execution region travels with the task (its data), with its
 * id when the creation went into a trace; a task of an instrumented taskloop
 * (which the instrumentation cannot see: the runtime cuts the loop into
 * tasks) is named after the taskloop's place. */
static void task_created(struct bridge_thread *b, ompt_data_t *new_task_data,
                         struct POMP_Region_s *in_taskloop, const void *codeptr_ra)
{
    uint32_t run = in_taskloop ? bridge_region_number_at(BC_TASK, in_taskloop)
                               : bridge_region_number(BC_TASK, codeptr_ra);
    struct POMP_Region_s *create = in_taskloop ? bridge_region_at(BC_TASK_CREATE, in_taskloop)
                                               : bridge_region(BC_TASK_CREATE, codeptr_ra);
    uint64_t id;
    bridge_record_task_create(b, create, pomp_now(), &id);
    new_task_data->value = run ? task_data(run, id) : 0;
}

/* The thread's instrumented taskloop, if it is inside one (entered, no task
 * of its own running above it): the creator of the tasks the runtime reports. */
static struct POMP_Region_s *instrumented_taskloop(struct bridge_thread *b)
{
    return bridge_pomp_entered(b, BRC_TASKLOOP) ? bridge_top_frame(b)->region : NULL;
}

static struct bridge_thread *task_creation_recorded(int flags)
{
    struct bridge_thread *b;
    if (!(flags & ompt_task_explicit) || !bridge_records(POMP_GROUP_TASK, BR_ENTER_EXIT) ||
        bridge_measuring() < 0 || !(b = bridge_self()))
        return NULL;
    return b;
}

void bridge_on_task_create(ompt_data_t *encountering_task_data,
                           const ompt_frame_t *encountering_task_frame,
                           ompt_data_t *new_task_data, int flags, int has_dependences,
                           const void *codeptr_ra)
{
    (void)encountering_task_data;
    (void)encountering_task_frame;
    (void)has_dependences;
    struct bridge_thread *b = task_creation_recorded(flags);
    if (!b)
        return;
    if (bridge_pomp_entered(b, BRC_TASK)) { /* POMP_Task_enter: its begin/end are in the body */
        keep_entering(bridge_top_frame(b)->region); /* else its tasks would count twice */
        new_task_data->value = INSTRUMENTED_TASK;
        return;
    }
    task_created(b, new_task_data, instrumented_taskloop(b), codeptr_ra);
}

/* In a program pompcc linked, where the instrumentation measures the task
 * constructs (a throttled one too, whose enter leaves no frame to recognize
 * it by): only the tasks of its taskloops are the bridge's. Any other task
 * keeps empty data, which task_schedule passes over without a clock read. */
void bridge_on_taskloop_task_create(ompt_data_t *encountering_task_data,
                                    const ompt_frame_t *encountering_task_frame,
                                    ompt_data_t *new_task_data, int flags,
                                    int has_dependences, const void *codeptr_ra)
{
    (void)encountering_task_data;
    (void)encountering_task_frame;
    (void)has_dependences;
    struct bridge_thread *b = task_creation_recorded(flags);
    struct POMP_Region_s *taskloop = b ? instrumented_taskloop(b) : NULL;
    if (taskloop)
        task_created(b, new_task_data, taskloop, codeptr_ra);
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

/* A switch that ends or starts a task the bridge follows: prior, next or
 * both (the other NULL). Apart from the callback, whose every call pays
 * for the registers this one needs otherwise. */
static __attribute__((noinline)) void followed_task_switch(ompt_data_t *prior, ompt_data_t *next)
{
    struct bridge_thread *b;
    if (bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    uint64_t now = pomp_now();
    struct bridge_scope *s = bridge_scope_top(b);
    if (prior && s && s->kind == SCOPE_TASK && s->task == prior) {
        bridge_scope_pop(b, SCOPE_TASK);
        if (s->region)
            bridge_record(b, BR_END, s->region, now, POMP_EV_OMPT_TASK_END);
        s = bridge_scope_top(b);
    }
    if (!next)
        return; /* an implicit task, a task POMP measures, or one created while not recording */
    if (task_is_open(b, next))
        return; /* resumed where it was suspended (below the taskwait it waited in) */
    s = bridge_scope_push(b, SCOPE_TASK);
    if (!s)
        return;
    s->task = next;
    if (!bridge_records(POMP_GROUP_TASK, BR_BEGIN_END))
        return;
    s->region = task_region(next);
    bridge_record_arg(b, BR_BEGIN, s->region, now, POMP_EV_OMPT_TASK_BEGIN, task_id(next));
}

void bridge_on_task_schedule(ompt_data_t *prior_task_data, ompt_task_status_t prior_task_status,
                             ompt_data_t *next_task_data)
{
    /* a switch between tasks POMP measures (or implicit ones) reads no clock:
     * in a pompcc build on libomp, the runtime reports every task's switches
     * while the bridge follows only those of taskloops */
    int prior_ours = task_followed(prior_task_data) && ends_execution(prior_task_status);
    int next_ours = task_followed(next_task_data);
    if (prior_ours || next_ours)
        followed_task_switch(prior_ours ? prior_task_data : NULL,
                             next_ours ? next_task_data : NULL);
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
     * event cannot be matched with it, so the region around decides */
    if (c == BC_CANCEL_ACTIVATED && bridge_in_instrumented_code(b))
        return;
    bridge_record(b, BR_EVENT, bridge_region(c, codeptr_ra), pomp_now(), POMP_EV_OMPT_CANCEL);
}
