#include "pomp_thread.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "pomp_clock.h"
#include "pomp_control.h"
#include "pomp_sampling.h"

__thread struct pomp_thread *pomp_tls_thread __attribute__((tls_model("initial-exec")));

/* Every thread record, for the output at the end; written once per thread. */
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pomp_thread *threads_head;
static uint32_t threads_count;

/* A new record with its profile and (when tracing) its event log, numbered
 * and listed; NULL if memory ran out. */
static struct pomp_thread *new_record(int32_t thread_id, pid_t os_tid, int32_t device,
                                      uint32_t host_thread)
{
    pomp_ensure_initialized();
    const struct pomp_config *cfg = pomp_config();
    struct pomp_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (pomp_profile_init(&t->profile, cfg->profile_nodes, pomp_now()) != 0) {
        free(t);
        return NULL;
    }
    t->log.fd = -1;
    if (cfg->trace)
        pomp_eventlog_alloc(&t->log, cfg->trace_events_per_thread);
    t->omp_thread_num = thread_id;
    t->os_tid = os_tid;
    t->device = device;
    t->host_thread = host_thread;
    pthread_mutex_lock(&threads_lock);
    t->index = threads_count++;
    t->next = threads_head;
    threads_head = t;
    pthread_mutex_unlock(&threads_lock);
    return t;
}

struct pomp_thread *pomp_thread_register_stream(int32_t device, uint32_t host_thread)
{
    return new_record(-1, 0, device, host_thread);
}

struct pomp_thread *pomp_thread_register(int32_t thread_id)
{
    struct pomp_thread *t = new_record(thread_id, gettid(), -1, 0);
    if (!t)
        return NULL;
    pomp_tls_thread = t;
    pomp_sampling_thread_begin(); /* threads the OMPT bridge did not announce */
    return t;
}

struct pomp_thread *pomp_thread_list(uint32_t *count)
{
    pthread_mutex_lock(&threads_lock);
    struct pomp_thread *t = threads_head;
    *count = threads_count;
    pthread_mutex_unlock(&threads_lock);
    return t;
}
