/* ThreadSanitizer stress of the OMPT bridge (no runtime: the callbacks are
 * called as libomp calls them, with pthread barriers for the runtime's own
 * synchronization). A master forks a team round after round; workers set a
 * contended lock and take region slots for 64 call sites concurrently, and
 * end their closing barrier late (after the master's next fork began), reading
 * the master's join time while it writes the next team record. Exits non-zero
 * on wrong counts; TSan fails the run on any data race. */
#include <omp-tools.h>
#include <pomplib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge_callbacks.h"
#include "pomp_merge.h"
#include "pomp_region.h"
#include "pomp_thread.h"

enum { WORKERS = 4, ROUNDS = 300, SITES = 64 };
static const char sites[SITES];           /* code addresses */
static pthread_barrier_t forked, arrived, joined;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ompt_data_t parallel_data;         /* written by the master before `forked` */

static ompt_set_result_t fake_set_callback(ompt_callbacks_t event, ompt_callback_t cb)
{
    (void)event;
    (void)cb;
    return ompt_set_always;
}
static ompt_interface_fn_t fake_lookup(const char *name)
{
    (void)name;
    return (ompt_interface_fn_t)fake_set_callback;
}

static void *worker(void *arg)
{
    unsigned index = (unsigned)(long)arg;
    ompt_data_t task = {0}, pd;
    bridge_on_thread_begin(ompt_thread_worker, &task);
    for (int round = 0; round < ROUNDS; round++) {
        pthread_barrier_wait(&forked);
        if (round > 0) { /* the late end of the previous round's closing barrier */
            bridge_on_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL,
                                  &task, NULL);
            bridge_on_implicit_task(ompt_scope_end, NULL, &task, 0, index, ompt_task_implicit);
        }
        pd = parallel_data;
        bridge_on_implicit_task(ompt_scope_begin, &pd, &task, WORKERS + 1, index,
                                ompt_task_implicit);
        const void *site = &sites[(round * 7 + index) % SITES];
        bridge_on_mutex_acquire(ompt_mutex_lock, 0, 0, 1, site);
        pthread_mutex_lock(&lock);
        bridge_on_mutex_acquired(ompt_mutex_lock, 1, site);
        pthread_mutex_unlock(&lock);
        bridge_on_mutex_released(ompt_mutex_lock, 1, site);
        bridge_on_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin, &pd,
                              &task, NULL);
        pthread_barrier_wait(&arrived);
        pthread_barrier_wait(&joined);
    }
    return NULL; /* its last barrier stays open: finalization closes it */
}

int main(void)
{
    setenv("POMP_SUMMARY", "off", 0);
    setenv("POMP_OUTPUT_DIR", "/tmp/pomp-tsan-ompt", 0);
    ompt_start_tool_result_t *tool = ompt_start_tool(201611, "stress");
    if (!tool || !tool->initialize(fake_lookup, 0, &tool->tool_data)) {
        fputs("ompt_stress: no tool\n", stderr);
        return 1;
    }
    pthread_barrier_init(&forked, NULL, WORKERS + 1);
    pthread_barrier_init(&arrived, NULL, WORKERS + 1);
    pthread_barrier_init(&joined, NULL, WORKERS + 1);
    pthread_t th[WORKERS];
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&th[i], NULL, worker, (void *)(i + 1));
    ompt_data_t task = {0};
    bridge_on_thread_begin(ompt_thread_initial, &task);
    for (int round = 0; round < ROUNDS; round++) {
        const void *site = &sites[round % 2];
        bridge_on_parallel_begin(&task, NULL, &parallel_data, WORKERS + 1, ompt_parallel_team,
                                 site);
        bridge_on_implicit_task(ompt_scope_begin, &parallel_data, &task, WORKERS + 1, 0,
                                ompt_task_implicit);
        pthread_barrier_wait(&forked);
        pthread_barrier_wait(&arrived);
        bridge_on_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin,
                              &parallel_data, &task, site);
        bridge_on_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL,
                              &task, site);
        bridge_on_implicit_task(ompt_scope_end, NULL, &task, WORKERS + 1, 0, ompt_task_implicit);
        bridge_on_parallel_end(&parallel_data, &task, ompt_parallel_team, site);
        pthread_barrier_wait(&joined);
    }
    for (int i = 0; i < WORKERS; i++)
        pthread_join(th[i], NULL);
    POMP_Finalize();

    /* every thread began every round's share once; no frame was left unmatched */
    uint32_t n;
    int failures = 0;
    for (struct pomp_thread *t = pomp_thread_list(&n); t; t = t->next) {
        uint64_t begins = 0;
        for (struct pomp_node *c = t->profile.root.first_child; c; c = c->next_sibling)
            begins += c->begins;
        if (begins != ROUNDS || t->profile.nesting_errors || t->profile.depth != 1) {
            fprintf(stderr, "ompt_stress: thread %u: %llu begins, %llu nesting errors, depth %u\n",
                    t->index, (unsigned long long)begins,
                    (unsigned long long)t->profile.nesting_errors, t->profile.depth);
            failures++;
        }
    }
    if (n != WORKERS + 1) {
        fprintf(stderr, "ompt_stress: %u threads\n", n);
        failures++;
    }
    return failures != 0;
}
