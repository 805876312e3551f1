#include "bridge_thread.h"

#include "pomp_lines.h"
#include "pomp_record.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

__thread struct bridge_thread *bridge_tls __attribute__((tls_model("initial-exec")));

/* Every thread's state, for the finalize hook (bridge_tool.c); written once per thread. */
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct bridge_thread *list_head;

struct bridge_thread *bridge_thread_create(void)
{
    struct bridge_thread *b = pomp_alloc_lines(sizeof *b); /* apart from other threads' */
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
    if (b->scope != b->scope_first)
        free(b->scope);
    b->scope = bigger;
    b->scope_cap = cap;
    return 1;
}
