/* Task events in the profile (docs/api.md, "Tasks"): creation is recorded on
 * the creating thread under the region open there; a deferred body, on the
 * thread that runs it, in a tree of its own rooted at the task construct (a
 * task root), and its time is not the time of the wait it ran in; recursion
 * folds. Two real threads hand a task body over. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>

#include <pomplib.h>

#include "pomp_profile.h"
#include "pomp_thread.h"

static void quiet_output(void)
{
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-unit-test-output", 1);
    setenv("POMP_SUMMARY", "off", 1);
}

TestSuite(tasks, .init = quiet_output);

static POMP_Handle_t par, task, barrier, taskwait;

static struct pomp_node *child(struct pomp_node *parent, POMP_Handle_t r)
{
    for (struct pomp_node *c = parent->first_child; c; c = c->next_sibling)
        if (c->region == r)
            return c;
    return NULL;
}

/* The task root of a task construct on this thread (a child of its root). */
static struct pomp_node *task_root(POMP_Handle_t r)
{
    for (struct pomp_node *c = pomp_tls_thread->profile.root.first_child; c; c = c->next_sibling)
        if (c->region == r && c->task_root)
            return c;
    return NULL;
}

/* An undeferred task (if(0), or run at once): the body runs between its
 * creation's enter and exit, and is a task root like any execution, so that
 * a recursion of undeferred tasks folds as deferred ones do; the creation's
 * node keeps the creation alone. */
Test(tasks, an_undeferred_body_is_a_task_root)
{
    POMP_Task_enter(&task, 0, "12*type=task**");
    cr_assert_eq(POMP_Task_begin(task, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_end(task, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_exit(task, 0), POMP_SUCCESS);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    struct pomp_node *n = NULL;
    for (struct pomp_node *c = p->root.first_child; c; c = c->next_sibling)
        if (c->region == task && !c->task_root)
            n = c;
    struct pomp_node *root = task_root(task);
    cr_assert_not_null(n);
    cr_assert_not_null(root);
    cr_expect_eq(n->visits, 1);
    cr_expect_eq(n->begins, 0);
    cr_expect_null(n->first_child);
    cr_expect_eq(root->begins, 1);
    cr_expect_leq(n->excl + root->incl, n->incl, "the creation's own time leaves the task out");
    cr_expect_eq(p->nesting_errors, 0);
}

/* A deferred task run later by the creating thread inside a barrier: its body
 * is a task root, and the barrier's own time leaves the task's time out; the
 * creation stays where it happened. */
Test(tasks, a_deferred_body_is_a_task_root)
{
    POMP_Parallel_enter(&par, 0, 1, 1, "16*type=parallel**");
    POMP_Parallel_begin(par, 0);
    POMP_Task_enter(&task, 0, "12*type=task**");
    POMP_Task_exit(task, 0);
    POMP_Barrier_enter(&barrier, 0, "15*type=barrier**");
    cr_assert_eq(POMP_Task_begin(task, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_end(task, 0), POMP_SUCCESS);
    POMP_Barrier_exit(barrier, 0);
    POMP_Parallel_end(par, 0);
    POMP_Parallel_exit(par, 0);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    struct pomp_node *pn = child(&p->root, par);
    struct pomp_node *created = child(pn, task), *b = child(pn, barrier);
    cr_assert_not_null(created);
    cr_assert_not_null(b);
    cr_expect_eq(created->visits, 1);
    cr_expect_eq(created->begins, 0);
    cr_expect_null(child(b, task), "the body is not under the barrier");
    struct pomp_node *ran = task_root(task);
    cr_assert_not_null(ran);
    cr_expect_neq(ran, created);
    cr_expect_eq(ran->visits, 0);
    cr_expect_eq(ran->begins, 1);
    cr_expect_eq(b->excl, b->incl - ran->incl, "the barrier's own time is its wait, without the task");
    cr_expect_eq(p->nesting_errors, 0);
}

/* Recursive tasks: a task created and waited for inside a task's body. */
Test(tasks, tasks_inside_tasks)
{
    POMP_Task_enter(&task, 0, "12*type=task**");
    POMP_Task_exit(task, 0);
    POMP_Taskwait_enter(&taskwait, 0, "16*type=taskwait**");
    POMP_Task_begin(task, 0);          /* the outer task, run inside the taskwait */
    POMP_Task_enter(&task, 0, NULL);   /* it creates one more */
    POMP_Task_exit(task, 0);
    POMP_Taskwait_enter(&taskwait, 0, NULL);
    POMP_Task_begin(task, 0);          /* and runs it while waiting */
    POMP_Task_end(task, 0);
    POMP_Taskwait_exit(taskwait, 0);
    POMP_Task_end(task, 0);
    POMP_Taskwait_exit(taskwait, 0);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    struct pomp_node *tw = child(&p->root, taskwait);
    cr_assert_not_null(tw);
    cr_expect_null(child(tw, task), "no task body under the taskwait");
    /* both bodies fold into one task root: two begins, one path */
    struct pomp_node *root = task_root(task);
    cr_assert_not_null(root);
    cr_expect_eq(root->begins, 2);
    struct pomp_node *tw2 = child(root, taskwait);
    cr_assert_not_null(tw2);
    cr_expect_null(child(tw2, task), "the inner body folds into the root, not below");
    cr_expect_eq(child(root, task)->visits, 1, "the inner creation, inside the outer body");
    cr_expect_eq(p->nesting_errors, 0);
}

/* Recursion folds into one task root whose figures add up: a task run inside
 * another task's taskwait is a task switch, left out of the interrupted task's
 * frames; a wait nested in a wait counts once (the inner task's time, and its
 * wait, are out of the outer wait). */
Test(tasks, recursion_folds_and_waits_count_once)
{
    static POMP_Handle_t t, tw;
    POMP_Task_enter(&t, 0, "12*type=task**");
    POMP_Task_exit(t, 0);
    POMP_Taskwait_enter(&tw, 0, "16*type=taskwait**");  /* the outer wait */
    POMP_Task_begin(t, 0);                               /* outer body */
    POMP_Taskwait_enter(&tw, 0, NULL);                   /* its wait */
    POMP_Task_begin(t, 0);                               /* inner body, run while waiting */
    POMP_Task_end(t, 0);
    POMP_Taskwait_exit(tw, 0);
    POMP_Task_end(t, 0);
    POMP_Taskwait_exit(tw, 0);
    struct pomp_node *root = task_root(t), *outer_wait = child(&pomp_tls_thread->profile.root, tw);
    cr_assert_not_null(root);
    cr_assert_not_null(outer_wait);
    struct pomp_node *inner_wait = child(root, tw);
    cr_assert_not_null(inner_wait);
    /* the root's incl is the outer body's alone: it contains the inner one */
    cr_expect_leq(root->incl, outer_wait->incl);
    cr_expect_eq(root->excl + inner_wait->excl, root->incl,
                 "own times of the folded root and its wait add up to the outer body");
    cr_expect_eq(outer_wait->excl, outer_wait->incl - root->incl,
                 "the outer wait leaves out the whole outer body (the inner wait included)");
    cr_expect_eq(inner_wait->overlap, inner_wait->incl,
                 "the inner wait ran inside the outer one: all its time overlaps it");
    cr_expect_eq(outer_wait->overlap, 0, "the outer wait overlaps nothing");
    cr_expect_eq(root->overlap, 0, "no task was open outside the tasks");
}

/* Creation on one thread, the body on another. */
static void *run_body(void *arg)
{
    (void)arg;
    POMP_Barrier_enter(&barrier, 1, "15*type=barrier**");
    int32_t b = POMP_Task_begin(task, 1), e = POMP_Task_end(task, 1);
    POMP_Barrier_exit(barrier, 1);
    struct pomp_node *bn = child(&pomp_tls_thread->profile.root, barrier);
    struct pomp_node *ran = task_root(task);
    int ok = b == POMP_SUCCESS && e == POMP_SUCCESS && bn && !child(bn, task) && ran &&
             ran->begins == 1 && pomp_tls_thread->profile.nesting_errors == 0;
    return ok ? arg : (void *)1;
}

Test(tasks, the_body_on_another_thread)
{
    POMP_Task_enter(&task, 0, "12*type=task**");
    POMP_Task_exit(task, 0);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, run_body, NULL), 0);
    void *result;
    pthread_join(t, &result);
    cr_expect_null(result, "the executing thread recorded the body as a task root");
    struct pomp_node *n = child(&pomp_tls_thread->profile.root, task);
    cr_assert_not_null(n);
    cr_expect_eq(n->visits, 1);
    cr_expect_eq(n->begins, 0);
    cr_expect_eq(pomp_tls_thread->profile.nesting_errors, 0);
}

/* Task ids (docs/api.md, "Task ids"): without a trace, POMP_Task_enter_id is
 * POMP_Task_enter and leaves the id alone; the profile is the same. */
Test(tasks, no_task_id_without_a_trace)
{
    POMP_Task_id id = 0;
    cr_assert_eq(POMP_Task_enter_id(&task, 0, &id, "12*type=task**"), POMP_SUCCESS);
    cr_expect_eq(id, 0);
    cr_assert_eq(POMP_Task_begin_id(task, 0, id), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_end(task, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_exit(task, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_enter_id(&task, 0, NULL, NULL), POMP_SUCCESS, "NULL: no id");
    cr_assert_eq(POMP_Task_exit(task, 0), POMP_SUCCESS);
    struct pomp_node *n = child(&pomp_tls_thread->profile.root, task);
    cr_assert_not_null(n);
    cr_expect_eq(n->visits, 2);
    cr_assert_not_null(task_root(task));
    cr_expect_eq(task_root(task)->begins, 1);
}

static void traced_output(void)
{
    quiet_output();
    setenv("POMP_TRACE", "events", 1);
}

/* The record of thread t's log that is the i-th (from 0) of a kind. */
static const struct pomp_event *logged(const struct pomp_thread *t, unsigned kind, unsigned i)
{
    for (uint32_t k = 0; k < t->log.used; k++)
        if (t->log.buf[k].kind == kind && i-- == 0)
            return &t->log.buf[k];
    return NULL;
}

/* With a trace, each creation gets a new id (the thread's index above its
 * count), its record carries it, and so does the begin it is handed to. */
Test(tasks, a_traced_creation_gives_its_task_an_id, .init = traced_output)
{
    POMP_Task_id first = 0, second = 0;
    cr_assert_eq(POMP_Task_enter_id(&task, 0, &first, "12*type=task**"), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_exit(task, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_enter_id(&task, 0, &second, NULL), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_exit(task, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_begin_id(task, 0, second), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_end(task, 0), POMP_SUCCESS);
    const struct pomp_thread *t = pomp_tls_thread;
    cr_assert_not_null(t->log.buf, "POMP_TRACE gives the thread a log");
    cr_expect_neq(first, 0);
    cr_expect_neq(second, first);
    cr_expect_eq(first >> (POMP_TASK_ID_BITS - POMP_TASK_ID_THREAD_BITS), t->index);
    const struct pomp_event *create = logged(t, POMP_EV_TASK_ENTER, 1);
    const struct pomp_event *begin = logged(t, POMP_EV_TASK_BEGIN, 0);
    cr_assert(create && begin);
    cr_expect_eq(logged(t, POMP_EV_TASK_ENTER, 0)->arg, first);
    cr_expect_eq(create->arg, second);
    cr_expect_eq(begin->arg, second);
    cr_expect_eq(logged(t, POMP_EV_TASK_EXIT, 0)->arg, 0);
}
