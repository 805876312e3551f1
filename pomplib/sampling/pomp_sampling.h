/* Statistical sampling (POMP_SAMPLING): a per-thread timer interrupts each
 * OpenMP thread periodically; the signal handler records the thread's OMPT
 * state and its user-model call stack (seed 003 §6) into the thread's sampled
 * call-path tree, and counts the sample as OpenMP Work or Wait in the POMP
 * region the thread is in. Everything the handler touches is preallocated
 * when the thread starts; formatting happens after the run. */
#ifndef POMP_SAMPLING_H
#define POMP_SAMPLING_H

#include <omp-tools.h>
#include <stdint.h>
#include <stdio.h>

#include "pomp_sample_tree.h"

/* Nested parallel regions a thread can open with its call stack kept. */
#define POMP_SAMPLE_MAX_FORKS 8

/* The encountering thread's user-model call stack where it opened a parallel
 * region (outermost frame first): the base of every sample in that region. */
struct pomp_fork_record {
    uint32_t n;
    uintptr_t frames[POMP_SAMPLE_MAX_FRAMES];
};

/* The runtime's inquiry functions the handler uses (async-signal-safe per the
 * OpenMP specification); any may be NULL where the runtime has no OMPT. */
struct pomp_sampling_runtime {
    ompt_get_state_t get_state;
    ompt_get_task_info_t get_task_info;
    /* the fork record kept with a parallel region (the OMPT bridge's team) */
    const struct pomp_fork_record *(*fork_of)(const ompt_data_t *parallel_data);
    /* whether the calling thread is a worker whose team had joined by due
     * (pomp_now's ticks: when the sample was due): waiting for work, whatever
     * state the runtime reports (may be NULL) */
    int (*after_join)(uint64_t due);
};

/* Reads POMP_SAMPLING and POMP_SAMPLING_TIMER (once, at initialization);
 * returns whether sampling is on. */
int pomp_sampling_configure(void);
int pomp_sampling_is_on(void);
uint64_t pomp_sampling_period_ns(void);
const char *pomp_sampling_timer_name(void);

/* Called by the OMPT bridge once it has looked the inquiry functions up. */
void pomp_sampling_set_runtime(const struct pomp_sampling_runtime *rt);

/* Starts and stops sampling the calling thread (idempotent). */
void pomp_sampling_thread_begin(void);
void pomp_sampling_thread_end(void);

/* At a parallel region's begin, on the encountering thread: records its call
 * stack up to the call site codeptr_ra; the result is kept with the region
 * (the OMPT parallel_data) and found again by the samples taken inside it.
 * NULL when sampling is off or the nesting is too deep. */
struct pomp_fork_record *pomp_sampling_fork_begin(const void *codeptr_ra);
void pomp_sampling_fork_end(struct pomp_fork_record *record);

/* Stops every timer and waits for running handlers (at finalization). */
void pomp_sampling_stop(void);

/* The threads whose period was raised at run time because their samples took
 * too long for it, and those that held SIGPROF blocked when sampling ended
 * (after pomp_sampling_stop). */
struct pomp_sampling_raised {
    uint32_t threads;
    uint64_t max_period_ns;     /* the longest period a thread ended with */
    uint64_t longest_ns;        /* the longest sample that raised a period */
    uint32_t blocked_threads;   /* threads that held SIGPROF blocked, with a sample
                                   pending, when sampling ended */
};
void pomp_sampling_raised(struct pomp_sampling_raised *out);

/* After pomp_sampling_stop: all threads' trees merged into one (caller
 * destroys it), the number of samples taken and of samples lost. */
int pomp_sampling_merge(struct pomp_sample_tree *out, uint64_t *taken, uint64_t *lost);

/* Writes the "sampling" member of profile.json (after pomp_sampling_stop). */
void pomp_sampling_write_json(FILE *f);

struct dl_phdr_info;
/* dl_iterate_phdr for pomp's own calls while sampling may run: a sample that
 * comes meanwhile does not walk its stack (the walk may take the loader's lock
 * this thread holds). */
int pomp_sampling_dl_iterate_phdr(int (*callback)(struct dl_phdr_info *, size_t, void *),
                                  void *data);

/* The program sets SIGPROF's disposition itself (sigaction, signal: the
 * program's own handler, SIG_IGN): if pomp samples with its handler, every
 * timer stops first, so that the program's handler gets no signal of
 * pomp's; the samples so far are kept, and a warning says it once. A call
 * of pomp's own before its handler is installed does nothing here. */
/* The program is about to close (or replace) descriptors lo..hi: where they
 * hold libunwind's pipe, sampling stops first, said at the end (a file the
 * program opens there next would be read and written by libunwind's checks). */
void pomp_sampling_fds_closing(unsigned lo, unsigned hi);
void pomp_sampling_yield_sigprof(void);
/* What a program that asks for SIGPROF's disposition is shown where pomp's
 * sampling handler stands: the disposition pomp found there (the default),
 * as for pomp's other handlers (core/pomp_signals.c; a probe: a program
 * chaining to the previous SIGPROF handler called pomp's). The first
 * replaces *a and returns 1 where it holds pomp's handler; the second
 * answers for a handler as signal() returns it. */
struct sigaction;
int pomp_sampling_sigprof_shown(struct sigaction *a);
void (*pomp_sampling_sigprof_handler_shown(void (*h)(int)))(int);

#endif
