/* Thread records: one per thread that ever recorded an event, numbered in the
 * order threads first appeared (not by omp_get_thread_num, which repeats across
 * teams). Found through a thread-local pointer; registered once under a lock. */
#ifndef POMP_THREAD_H
#define POMP_THREAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pomp_eventlog.h"
#include "pomp_profile.h"

struct pomp_thread {
    uint32_t index;             /* 0, 1, ... in order of first event */
    int32_t omp_thread_num;     /* thread_id argument of the thread's first event */
    pid_t os_tid;
    struct pomp_thread *next;   /* all threads, newest first */
    struct pomp_eventlog log;
    struct pomp_profile profile;
};

extern __thread struct pomp_thread *pomp_tls_thread __attribute__((tls_model("initial-exec")));

struct pomp_thread *pomp_thread_register(int32_t thread_id);

static inline struct pomp_thread *pomp_thread_self(int32_t thread_id)
{
    struct pomp_thread *t = pomp_tls_thread;
    if (__builtin_expect(t == NULL, 0))
        t = pomp_thread_register(thread_id);
    return t;
}

/* All registered threads, newest first, and their number. */
struct pomp_thread *pomp_thread_list(uint32_t *count);

#endif
