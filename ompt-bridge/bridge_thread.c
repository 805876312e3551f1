#include "bridge_thread.h"

#include "pomp_handoff.h"
#include "pomp_lines.h"
#include "pomp_record.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

__thread struct bridge_thread *bridge_tls __attribute__((tls_model("initial-exec")));

/* Every thread's state, for the finalize hook (bridge_tool.c); written once per thread. */
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct bridge_thread *list_head;
/* States of ended threads, for new ones (bridge_thread_retire). */
static struct pomp_handoff retired;

/* An ended thread's state made the calling thread's: as a new one, but for
 * the counters that number its forks' teams, which go on (a worker of a team
 * it forked may still read that team's record: seq tells it apart). */
static struct bridge_thread *take_retired(void)
{
    struct bridge_thread *b = pomp_handoff_take(&retired, NULL, NULL);
    if (!b)
        return NULL;
    b->pomp = NULL;
    b->thread_num = 0;
    b->released = 0;
    b->league_tasks = b->league_teams = b->league_team_forks = 0;
    b->caller_walks = 0;
    b->last_sync_end = 0;
    bridge_tls = b;
    return b;
}

void bridge_thread_retire(void)
{
    struct bridge_thread *b = bridge_tls;
    if (!b || b->nesting || b->forks || b->nscopes || b->lost_scopes || b->forking ||
        b->scope != b->scope_first)
        return; /* something of it is still open: it stays its thread's */
    for (int d = 0; d < BRIDGE_MAX_DEVICES; d++)
        if (b->streams[d])
            return; /* its device streams are its own thread's */
    bridge_tls = NULL; /* a callback from here on makes or takes a state again */
    pomp_handoff_put(&retired, b);
}

struct bridge_thread *bridge_thread_create(void)
{
    struct bridge_thread *b = take_retired();
    if (b)
        return b;
    b = pomp_alloc_lines(sizeof *b); /* apart from other threads' */
    if (!b)
        return NULL;
    b->sampling = (uint8_t)pomp_sampling_is_on();
    b->scope = b->scope_first;
    b->scope_cap = BRIDGE_FIRST_SCOPES;
    pthread_mutex_lock(&list_lock);
    b->next = list_head;
    list_head = b;
    pthread_mutex_unlock(&list_lock);
    bridge_tls = b;
    return b;
}

struct bridge_thread *bridge_thread_list(void)
{
    pthread_mutex_lock(&list_lock);
    struct bridge_thread *b = list_head;
    pthread_mutex_unlock(&list_lock);
    return b;
}

int bridge_scopes_grow(struct bridge_thread *b)
{
    if (b->scope_cap >= BRIDGE_MAX_SCOPES)
        return 0;
    uint32_t cap = 2 * b->scope_cap;
    struct bridge_scope *bigger = malloc((size_t)cap * sizeof *bigger);
    if (!bigger)
        return 0;
    memcpy(bigger, b->scope, (size_t)b->nscopes * sizeof *bigger);
    /* the new array in place before the old one is freed: a signal handler on
     * this thread (the collector API's STATE) reads the scope on top */
    struct bridge_scope *old = b->scope;
    __atomic_store_n(&b->scope, bigger, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (old != b->scope_first)
        free(old);
    b->scope_cap = cap;
    return 1;
}
