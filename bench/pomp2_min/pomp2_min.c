/* A minimal POMP2 measurement library for OPARI2-instrumented programs, so that
 * make bench can set OPARI2 beside pomp in the same run. It records what
 * libpomp records in profile mode, the same way: a raw timestamp (rdtsc) per
 * event and a per-thread call-path profile, with libpomp's own profile code
 * (pomplib/pomp_profile.c) linked in. So the comparison shows what the two
 * instrumentations cost (OPARI2's extra events, added barriers and nowaits,
 * task handles), not two different libraries.
 *
 * Mapping of POMP2 events to the profile: fork/join are the enter/exit of the
 * parallel region and begin/end its block; enter/exit and begin/end of the
 * other constructs likewise; an implicit barrier is a region of its own (one per
 * construct); a lock call is a region around the runtime's call.
 *
 * At exit, with $POMP2_MIN_OUTPUT set, it writes one line per thread: the number
 * of events and of call-path nodes (the bench checks it recorded something). */
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "pomp_clock.h"
#include "pomp_control.h"
#include "pomp_profile.h"
#include "pomp_region.h"

#pragma GCC visibility push(default)
#include <opari2/pomp2_lib.h>
#pragma GCC visibility pop

/* Generated at the link (opari2-config --region-initialization); weak, so a
 * program without OPARI2 regions still loads. */
extern void POMP2_Init_regions(void) __attribute__((weak));

/* What a POMP2 handle points to: the construct's region, and its companion:
 * the construct's implicit barrier, or a task's body (which runs apart from its
 * creation). libpomp's own region record (pomp_region.h), zeroed: the profile
 * reads its flags (a record of this library's own, one pointer long, had it
 * read past its end), none of which is set here. */
struct pomp2_region {
    struct POMP_Region_s construct;
    struct POMP_Region_s companion;
};

/* The profile asks this only for frames the OMPT bridge marked adoptable
 * (pomp_region.c); no such frame exists here. */
int pomp_region_same_construct(const struct POMP_Region_s *a, const struct POMP_Region_s *b)
{
    return a == b;
}

/* Asked only for a region whose kind bit is among those open outside the
 * running task (pomp_profile.c): this library's regions have none (0). */
int pomp_region_maybe_twins(const struct POMP_Region_s *a, const struct POMP_Region_s *b)
{
    (void)a;
    (void)b;
    return 0;
}

/* Asked only for a task with dependences (has_depend), which POMP2 does not tell. */
struct POMP_Region_s *pomp_region_dependences_wait(struct POMP_Region_s *task)
{
    (void)task;
    return NULL;
}

struct pomp2_thread {
    struct pomp_profile profile;
    uint64_t events;
    POMP2_Task_handle current_task, next_task;
    struct pomp2_thread *next;
};

static __thread struct pomp2_thread *self __attribute__((tls_model("initial-exec")));
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* handles and the thread list */
static struct pomp2_thread *threads;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void write_output(void)
{
    const char *path = getenv("POMP2_MIN_OUTPUT");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f)
        return;
    for (struct pomp2_thread *t = threads; t; t = t->next)
        fprintf(f, "events %llu nodes %u\n", (unsigned long long)t->events, t->profile.nodes_used);
    fclose(f);
}

/* The profile code asks for the clock only to throttle, which this library
 * leaves off (pomp_profile_set_throttle is never called). */
static struct pomp_clock clock_unused;
const struct pomp_clock *pomp_clock(void) { return &clock_unused; }

static void init(void)
{
    if (POMP2_Init_regions)
        POMP2_Init_regions();
    atexit(write_output);
}

static struct pomp2_thread *thread_register(void)
{
    pthread_once(&init_once, init);
    struct pomp2_thread *t = calloc(1, sizeof *t);
    if (!t || pomp_profile_init(&t->profile, 1024, __rdtsc()) != 0) {
        fprintf(stderr, "pomp2_min: out of memory\n");
        abort();
    }
    pthread_mutex_lock(&lock);
    t->next = threads;
    threads = t;
    pthread_mutex_unlock(&lock);
    self = t;
    return t;
}

static inline struct pomp2_thread *thread_self(void)
{
    struct pomp2_thread *t = self;
    return __builtin_expect(t != NULL, 1) ? t : thread_register();
}

void POMP2_Assign_handle(POMP2_Region_handle *handle, const char ctc[])
{
    pthread_mutex_lock(&lock);
    if (!*handle) {
        struct pomp2_region *r = calloc(1, sizeof *r);
        if (!r) {
            fprintf(stderr, "pomp2_min: out of memory\n");
            abort();
        }
        (void)ctc; /* the profile needs no region's text */
        __atomic_store_n(handle, r, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
}

/* The region of a handle, created from ctc the first time (OPARI2 handles
 * start NULL and events that carry a CTC string may be the first). */
static inline struct pomp2_region *region(POMP2_Region_handle *handle, const char *ctc)
{
    struct pomp2_region *r = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (__builtin_expect(r == NULL, 0)) {
        pthread_once(&init_once, init);
        POMP2_Assign_handle(handle, ctc ? ctc : "");
        r = *handle;
    }
    return r;
}

enum phase { ENTER, BEGIN, END, EXIT, EVENT };

static inline void record(POMP2_Region_handle *handle, const char *ctc, int companion,
                          enum phase phase)
{
    struct pomp2_region *reg = region(handle, ctc);
    struct POMP_Region_s *r = companion ? &reg->companion : &reg->construct;
    struct pomp2_thread *t = thread_self();
    uint64_t now = __rdtsc();
    struct POMP_Region_s *adopted_from; /* never set: this library marks no frame adoptable */
    t->events++;
    switch (phase) {
    case ENTER: pomp_profile_enter(&t->profile, r, now, 0); break;
    case BEGIN: pomp_profile_begin(&t->profile, r, now, 0, &adopted_from); break;
    case END: pomp_profile_end(&t->profile, r, now); break;
    case EXIT: pomp_profile_exit(&t->profile, r, now); break;
    case EVENT: pomp_profile_event(&t->profile, r, now, 0, 0); break;
    }
}

POMP2_Task_handle POMP2_Get_new_task_handle(void)
{
    struct pomp2_thread *t = thread_self();
    return ((POMP2_Task_handle)(uintptr_t)t << 16) + ++t->next_task;
}

int POMP2_Lib_get_max_threads(void) { return omp_get_max_threads(); }

/* ---- constructs ---- */
#define ENTER_EXIT(name)                                                                       \
    void POMP2_##name##_enter(POMP2_Region_handle *h, const char ctc[])                        \
    {                                                                                          \
        record(h, ctc, 0, ENTER);                                                              \
    }                                                                                          \
    void POMP2_##name##_exit(POMP2_Region_handle *h) { record(h, NULL, 0, EXIT); }
#define BEGIN_END(name)                                                                        \
    void POMP2_##name##_begin(POMP2_Region_handle *h) { record(h, NULL, 0, BEGIN); }           \
    void POMP2_##name##_end(POMP2_Region_handle *h) { record(h, NULL, 0, END); }

ENTER_EXIT(Atomic)
ENTER_EXIT(Flush)
ENTER_EXIT(Critical)
BEGIN_END(Critical)
ENTER_EXIT(For)
ENTER_EXIT(Sections)
ENTER_EXIT(Single)
BEGIN_END(Single)
ENTER_EXIT(Workshare)
ENTER_EXIT(Ordered)
BEGIN_END(Ordered)

void POMP2_Master_begin(POMP2_Region_handle *h, const char ctc[]) { record(h, ctc, 0, BEGIN); }
void POMP2_Master_end(POMP2_Region_handle *h) { record(h, NULL, 0, END); }
void POMP2_Section_begin(POMP2_Region_handle *h, const char ctc[]) { record(h, ctc, 0, BEGIN); }
void POMP2_Section_end(POMP2_Region_handle *h) { record(h, NULL, 0, END); }

void POMP2_Parallel_fork(POMP2_Region_handle *h, int if_clause, int num_threads,
                         POMP2_Task_handle *old_task, const char ctc[])
{
    (void)if_clause;
    (void)num_threads;
    *old_task = thread_self()->current_task;
    record(h, ctc, 0, ENTER);
}
void POMP2_Parallel_begin(POMP2_Region_handle *h)
{
    record(h, NULL, 0, BEGIN);
    self->current_task = POMP2_Get_new_task_handle(); /* the implicit task */
}
void POMP2_Parallel_end(POMP2_Region_handle *h) { record(h, NULL, 0, END); }
void POMP2_Parallel_join(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    record(h, NULL, 0, EXIT);
    self->current_task = old_task;
}

void POMP2_Barrier_enter(POMP2_Region_handle *h, POMP2_Task_handle *old_task, const char ctc[])
{
    *old_task = thread_self()->current_task;
    record(h, ctc, 0, ENTER);
}
void POMP2_Barrier_exit(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    record(h, NULL, 0, EXIT);
    self->current_task = old_task;
}
void POMP2_Implicit_barrier_enter(POMP2_Region_handle *h, POMP2_Task_handle *old_task)
{
    *old_task = thread_self()->current_task;
    record(h, NULL, 1, ENTER);
}
void POMP2_Implicit_barrier_exit(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    record(h, NULL, 1, EXIT);
    self->current_task = old_task;
}

/* ---- tasks ---- */
void POMP2_Task_create_begin(POMP2_Region_handle *h, POMP2_Task_handle *new_task,
                             POMP2_Task_handle *old_task, int pomp2_if, const char ctc[])
{
    (void)pomp2_if;
    *old_task = thread_self()->current_task;
    *new_task = POMP2_Get_new_task_handle();
    record(h, ctc, 0, ENTER);
}
void POMP2_Task_create_end(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    record(h, NULL, 0, EXIT);
    self->current_task = old_task;
}
void POMP2_Task_begin(POMP2_Region_handle *h, POMP2_Task_handle task)
{
    thread_self()->current_task = task;
    record(h, NULL, 1, BEGIN);
}
void POMP2_Task_end(POMP2_Region_handle *h) { record(h, NULL, 1, END); }
void POMP2_Untied_task_create_begin(POMP2_Region_handle *h, POMP2_Task_handle *new_task,
                                    POMP2_Task_handle *old_task, int pomp2_if, const char ctc[])
{
    POMP2_Task_create_begin(h, new_task, old_task, pomp2_if, ctc);
}
void POMP2_Untied_task_create_end(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    POMP2_Task_create_end(h, old_task);
}
void POMP2_Untied_task_begin(POMP2_Region_handle *h, POMP2_Task_handle task)
{
    POMP2_Task_begin(h, task);
}
void POMP2_Untied_task_end(POMP2_Region_handle *h) { POMP2_Task_end(h); }
void POMP2_Taskwait_begin(POMP2_Region_handle *h, POMP2_Task_handle *old_task, const char ctc[])
{
    *old_task = thread_self()->current_task;
    record(h, ctc, 0, ENTER);
}
void POMP2_Taskwait_end(POMP2_Region_handle *h, POMP2_Task_handle old_task)
{
    record(h, NULL, 0, EXIT);
    self->current_task = old_task;
}

/* ---- locks: OPARI2 replaces the omp_*_lock calls by these ---- */
static POMP2_Region_handle lock_regions[10];
enum { INIT, DESTROY, SET, UNSET, TEST, INIT_NEST, DESTROY_NEST, SET_NEST, UNSET_NEST, TEST_NEST };

#define LOCK_CALL(name, type, kind, call)                                                      \
    void POMP2_##name(type *s)                                                                 \
    {                                                                                          \
        record(&lock_regions[kind], #name, 0, ENTER);                                          \
        call(s);                                                                               \
        record(&lock_regions[kind], NULL, 0, EXIT);                                            \
    }
LOCK_CALL(Init_lock, omp_lock_t, INIT, omp_init_lock)
LOCK_CALL(Destroy_lock, omp_lock_t, DESTROY, omp_destroy_lock)
LOCK_CALL(Set_lock, omp_lock_t, SET, omp_set_lock)
LOCK_CALL(Unset_lock, omp_lock_t, UNSET, omp_unset_lock)
LOCK_CALL(Init_nest_lock, omp_nest_lock_t, INIT_NEST, omp_init_nest_lock)
LOCK_CALL(Destroy_nest_lock, omp_nest_lock_t, DESTROY_NEST, omp_destroy_nest_lock)
LOCK_CALL(Set_nest_lock, omp_nest_lock_t, SET_NEST, omp_set_nest_lock)
LOCK_CALL(Unset_nest_lock, omp_nest_lock_t, UNSET_NEST, omp_unset_nest_lock)

int POMP2_Test_lock(omp_lock_t *s)
{
    record(&lock_regions[TEST], "Test_lock", 0, ENTER);
    int r = omp_test_lock(s);
    record(&lock_regions[TEST], NULL, 0, EXIT);
    return r;
}
int POMP2_Test_nest_lock(omp_nest_lock_t *s)
{
    record(&lock_regions[TEST_NEST], "Test_nest_lock", 0, ENTER);
    int r = omp_test_nest_lock(s);
    record(&lock_regions[TEST_NEST], NULL, 0, EXIT);
    return r;
}
