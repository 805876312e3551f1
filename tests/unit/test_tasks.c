/* Task events in the profile (docs/api.md, "Tasks"): creation is recorded on
 * the creating thread, the body on the thread that runs it, under whatever
 * region that thread has open; two real threads hand a task body over. */
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

/* An undeferred task (if(0), or run at once): the body runs between its
 * creation's enter and exit, and counts as the body of that one node. */
Test(tasks, an_undeferred_body_is_the_body_of_its_creation)
{
    POMP_Task_enter(&task, 0, "12*type=task**");
    cr_assert_eq(POMP_Task_begin(task, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_end(task, 0), POMP_SUCCESS);
    cr_assert_eq(POMP_Task_exit(task, 0), POMP_SUCCESS);
    struct pomp_profile *p = &pomp_tls_thread->profile;
    struct pomp_node *n = child(&p->root, task);
    cr_assert_not_null(n);
    cr_expect_eq(n->visits, 1);
    cr_expect_eq(n->begins, 1);
    cr_expect_null(n->first_child);
    cr_expect_eq(p->nesting_errors, 0);
}

/* A deferred task run later by the creating thread inside a barrier: its body
 * nests under the barrier; the creation stays where it happened. */
Test(tasks, a_deferred_body_nests_under_the_region_open_on_its_thread)
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
    struct pomp_node *ran = child(b, task);
    cr_assert_not_null(ran);
    cr_expect_eq(ran->visits, 0);
    cr_expect_eq(ran->begins, 1);
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
    struct pomp_node *outer = child(tw, task);
    cr_assert_not_null(outer);
    struct pomp_node *tw2 = child(outer, taskwait);
    cr_assert_not_null(tw2);
    cr_assert_not_null(child(tw2, task));
    cr_expect_eq(p->nesting_errors, 0);
}

/* Creation on one thread, the body on another. */
static void *run_body(void *arg)
{
    (void)arg;
    POMP_Barrier_enter(&barrier, 1, "15*type=barrier**");
    int32_t b = POMP_Task_begin(task, 1), e = POMP_Task_end(task, 1);
    POMP_Barrier_exit(barrier, 1);
    struct pomp_node *bn = child(&pomp_tls_thread->profile.root, barrier);
    struct pomp_node *ran = bn ? child(bn, task) : NULL;
    int ok = b == POMP_SUCCESS && e == POMP_SUCCESS && ran && ran->begins == 1 &&
             pomp_tls_thread->profile.nesting_errors == 0;
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
    cr_expect_null(result, "the executing thread recorded the body under its barrier");
    struct pomp_node *n = child(&pomp_tls_thread->profile.root, task);
    cr_assert_not_null(n);
    cr_expect_eq(n->visits, 1);
    cr_expect_eq(n->begins, 0);
    cr_expect_eq(pomp_tls_thread->profile.nesting_errors, 0);
}
