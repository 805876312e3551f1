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

static void copy_task(void *dst, void *src)
{
    const struct task_head *from = src;
    struct task_head *to = dst;
    *to = *from;
    char *user = (char *)dst + from->offset;
    if (from->cpyfn)
        from->cpyfn(user, from->data);
    else if (from->size > 0)
        memcpy(user, from->data, (size_t)from->size);
}

static void run_task(void *arg)
{
    struct task_head *head = arg;
    struct gomp_thread_state *t = &gomp_tls;
    ompt_data_t *prior = t->task;
    int32_t state = t->state;
    ompt_callback_task_schedule_t schedule = GOMP_CB(task_schedule);
    if (schedule)
        schedule(prior, ompt_task_switch, &head->task);
    t->task = &head->task;
    t->state = ompt_state_work_parallel;
    head->fn((char *)arg + head->offset);
    t->task = prior;
    t->state = state;
    if (schedule)
        schedule(&head->task, ompt_task_complete, prior);
}

static inline int tasks_followed(void)
{
    return GOMP_ACTIVE() && (GOMP_CB(task_create) != NULL || GOMP_CB(task_schedule) != NULL ||
                             gomp_states_sampled);
}

/* GCC's flag bits of GOMP_task (libgomp's gomp-constants.h). */
enum { GOMP_TASK_FLAG_DEPEND = 8 };

GOMP_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                           long arg_size, long arg_align, bool if_clause, unsigned flags,
                           void **depend, int priority, void *detach)
{
    if (!tasks_followed()) {
        REAL(GOMP_task)(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority,
                        detach);
        return;
    }
    size_t align = arg_align > 0 ? (size_t)arg_align : 1;
    if (align < _Alignof(struct task_head))
        align = _Alignof(struct task_head);
    size_t offset = (sizeof(struct task_head) + align - 1) & ~(align - 1);
    struct task_head head = {.fn = fn, .cpyfn = cpyfn, .data = data,
                             .size = arg_size, .offset = offset};
    struct gomp_thread_state *t = &gomp_tls;
    ompt_callback_task_create_t create = GOMP_CB(task_create);
    if (create)
        create(t->task, NULL, &head.task, ompt_task_explicit | (if_clause ? 0 : ompt_task_undeferred),
               (flags & GOMP_TASK_FLAG_DEPEND) != 0, GOMP_CODE_OF(fn));
    REAL(GOMP_task)(run_task, &head, copy_task, (long)offset + (arg_size > 0 ? arg_size : 0),
                    (long)align, if_clause, flags, depend, priority, detach);
}

/* A taskloop's tasks get their iteration range written by libgomp into the
 * first words of their argument block, where the bridge's head would be:
 * they run unwrapped, counted; the construct is reported as work. */
GOMP_EXPORT void GOMP_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                               long arg_size, long arg_align, unsigned flags,
                               unsigned long num_tasks, int priority, long start, long end,
                               long step)
{
    ompt_callback_work_t work = GOMP_CB(work);
    struct gomp_thread_state *t = &gomp_tls;
    const void *codeptr = GOMP_CODE_OF(fn);
    if (tasks_followed())
        __atomic_add_fetch(&gomp_unwrapped_taskloops, 1, __ATOMIC_RELAXED);
    if (work)
        work(ompt_work_taskloop, ompt_scope_begin, gomp_team_data(t), t->task, 0, codeptr);
    REAL(GOMP_taskloop)(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start,
                        end, step);
    if (work)
        work(ompt_work_taskloop, ompt_scope_end, gomp_team_data(t), t->task, 0, codeptr);
}

GOMP_SYNC_WAIT(GOMP_taskwait, ompt_sync_region_taskwait, ompt_state_wait_taskwait)
GOMP_SYNC_WAIT(GOMP_taskgroup_end, ompt_sync_region_taskgroup, ompt_state_wait_taskgroup)
