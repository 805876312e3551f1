/* Recording what the runtime reports: the same thread-local path as the POMP
 * event routines (pomp_events.c's record()): the calling thread's profile and
 * event log, a raw timestamp, no lock, no allocation. It differs only where
 * OMPT differs: the region is known (bridge_regions.h) instead of a handle,
 * and a close may carry an earlier timestamp than now (a worker's implicit
 * barrier ends when its master left it). */
#ifndef POMP_BRIDGE_RECORD_H
#define POMP_BRIDGE_RECORD_H

#include <pomplib.h>

#include "bridge_regions.h"
#include "bridge_thread.h"
#include "pomp_clock.h"
#include "pomp_record.h"

/* Whether the bridge's callbacks record: 1 while measuring, 0 while paused
 * (POMP_Off: scopes still pair up, frames are skipped), -1 after finalization
 * or in a fork()ed child (the callback returns at once). */
static inline int bridge_measuring(void)
{
    int s = __atomic_load_n(&pomp_state, __ATOMIC_RELAXED);
    return s == POMP_STATE_ON ? 1 : s == POMP_STATE_OFF ? 0 : -1;
}

static inline int bridge_records(enum pomp_group g, unsigned levels)
{
    return pomp_level_records(g, levels);
}

/* The levels under which the bridge's events record, as pomp_events.c's. */
enum {
    BR_ENTER_EXIT = POMP_LEVEL_ENTEREXIT | POMP_LEVEL_BEGINEND,
    BR_BEGIN_END = POMP_LEVEL_BEGINEND,
    BR_LOOP_ENTER_EXIT = POMP_LEVEL_ENTEREXIT | POMP_LEVEL_CHUNKS | POMP_LEVEL_ITEREVENT |
                         POMP_LEVEL_ITERBEGINEND,
    BR_SINGLE_EVENT = POMP_LEVEL_EVENT | POMP_LEVEL_ENTEREXIT | POMP_LEVEL_BEGINEND,
};

/* Whether the runtime's taskwaits that are not POMP's are measured: where
 * code not built with pompcc may run constructs the instrumentation would
 * otherwise report (pomprun, POMP_OMPT=full, constructs pompcc left to the
 * runtime), set when the tool starts, and in a program with an untied task
 * construct whose body has no events (its taskwaits are left to the runtime),
 * set once its region is made (bridge_tool.c). Otherwise such a taskwait is
 * not measured, as the tasks it waits for are not (docs/ompt.md): its time
 * would be theirs too. */
extern int bridge_runtime_taskwaits;
/* Set when the tool starts on LLVM libomp, where the dependences callback is
 * not registered (its runtime overflows a heap block for it): task_create's
 * has_dependences counts the task_dependences visits instead (bridge_task.c). */
extern int bridge_dependences_at_create;
/* Set once the bridge follows an untied task: a part of one may then end with
 * no event on its thread (bridge_task_parts_ended). */
extern int bridge_untied_parts;
/* Closes the frames on top of thread b of untied task parts that ended
 * without an event, now that the runtime reports `current` as the thread's
 * task again: libomp gives the end of an untied task's last part to the
 * thread of the part before when that one's own end comes later (both race
 * to count the task's parts down), and says nothing to the thread that ran
 * it (bridge_task.c). */
void bridge_task_parts_ended(struct bridge_thread *b, const void *current);

/* The mutex callbacks are registered for uninstrumented lock calls only
 * (bridge_tool.c): critical, ordered and atomic waits are the instrumentation's. */
extern int bridge_mutex_locks_only;
/* (bridge_mutex_no_release, in bridge_thread.h: no release will come, so
 * critical and ordered constructs get no frame, only their waits) */
/* ... and a critical or ordered construct ran without its frame since (set once) */
extern int bridge_mutex_unframed;
/* The ompt thread_end callback's part for that (bridge_tool.c). */
void bridge_tool_thread_end(void);
/* A parallel region of code not built with pompcc forked at codeptr_ra, in a
 * program whose callbacks follow the instrumentation only: the constructs
 * inside it go unmeasured, which is said at the end (bridge_tool.c). */
void bridge_uninstrumented_fork(const void *codeptr_ra);

/* The calling thread's libpomp record (registered at its first event), where
 * that event is in region (NULL: not known; pomp_thread_register). */
static inline struct pomp_thread *bridge_pomp_thread_in(struct bridge_thread *b,
                                                        const struct POMP_Region_s *region)
{
    if (__builtin_expect(b->pomp == NULL, 0))
        b->pomp = pomp_thread_self(b->thread_num, region);
    return b->pomp;
}

static inline struct pomp_thread *bridge_pomp_thread(struct bridge_thread *b)
{
    return bridge_pomp_thread_in(b, NULL);
}

/* The bridge's names for the event phases (pomp_eventlog.h). */
enum bridge_op {
    BR_ENTER = POMP_PHASE_ENTER,
    BR_BEGIN = POMP_PHASE_BEGIN,
    BR_END = POMP_PHASE_END,
    BR_EXIT = POMP_PHASE_EXIT,
    BR_EVENT = POMP_PHASE_EVENT
};

/* The event group a bridge event's trace record carries (the trace's category). */
static inline unsigned bridge_group_of(enum pomp_event_kind kind)
{
    switch (kind) {
    case POMP_EV_PARALLEL_ENTER: case POMP_EV_PARALLEL_BEGIN:
    case POMP_EV_PARALLEL_END: case POMP_EV_PARALLEL_EXIT: return POMP_GROUP_PARALLEL;
    case POMP_EV_LOOP_ENTER: case POMP_EV_LOOP_EXIT:
    case POMP_EV_LOOP_CHUNK_BEGIN: case POMP_EV_LOOP_CHUNK_END: return POMP_GROUP_LOOP;
    case POMP_EV_SECTIONS_ENTER: case POMP_EV_SECTIONS_EXIT: case POMP_EV_SINGLE_ENTER:
    case POMP_EV_SINGLE_BEGIN: case POMP_EV_SINGLE_END: case POMP_EV_SINGLE_EXIT:
    case POMP_EV_WORKSHARE_ENTER: case POMP_EV_WORKSHARE_EXIT:
    case POMP_EV_OMPT_WORK_ENTER: case POMP_EV_OMPT_WORK_EXIT: return POMP_GROUP_WORKSHARE;
    case POMP_EV_OMPT_SYNC_ENTER: case POMP_EV_OMPT_SYNC_EXIT: case POMP_EV_OMPT_TASK_CREATE:
    case POMP_EV_OMPT_TASK_BEGIN: case POMP_EV_OMPT_TASK_END:
    case POMP_EV_OMPT_TASK_DEPENDENCES: return POMP_GROUP_TASK;
    case POMP_EV_TARGET_ENTER: case POMP_EV_TARGET_EXIT: case POMP_EV_OMPT_DEVICE_OP_ENTER:
    case POMP_EV_OMPT_DEVICE_OP_EXIT: return POMP_GROUP_TARGET;
    default: return POMP_GROUP_SYNC; /* barriers, critical, ordered, master, waits, cancel */
    }
}

/* The region of (c, codeptr), remembered in m (struct bridge_region_memo). */
static inline struct POMP_Region_s *bridge_region_memo(struct bridge_region_memo *m,
                                                       enum bridge_construct c,
                                                       const void *codeptr)
{
    uint32_t generation = __atomic_load_n(&bridge_regions_generation, __ATOMIC_ACQUIRE);
    if (__builtin_expect(m->region && m->codeptr == codeptr && m->construct == (uint32_t)c &&
                             m->generation == generation,
                         1))
        return m->region;
    struct POMP_Region_s *r = bridge_region(c, codeptr);
    *m = (struct bridge_region_memo){codeptr, r, (uint32_t)c, generation};
    return r;
}

/* The time of an event of region r on thread b: the clock, or POMP_UNTIMED
 * without reading it where the event needs none (r throttled, or the thread
 * inside a throttled region): a hot lock call left to the runtime spent most
 * of its callbacks' time in the two clock reads of a throttled wait. */
static inline uint64_t bridge_clock(struct bridge_thread *b, struct POMP_Region_s *r,
                                    enum bridge_op op)
{
    struct pomp_thread *t = bridge_pomp_thread(b);
    return t && r ? pomp_thread_clock(t, r, (enum pomp_phase)op) : pomp_now();
}

/* One event on thread b's profile and log at time `when`, arg in its trace
 * record (a task's id: docs/output.md, "The raw trace"). Returns 1 if it
 * changed the profile (a frame opened while paused returns 0 but still opens). */
static inline int bridge_record_arg(struct bridge_thread *b, enum bridge_op op,
                                    struct POMP_Region_s *r, uint64_t when,
                                    enum pomp_event_kind kind, uint64_t arg)
{
    struct pomp_thread *t = bridge_pomp_thread(b);
    if (__builtin_expect(t == NULL || r == NULL || r->filtered_out, 0))
        return 0;
    int off = bridge_measuring() == 0;
    when = pomp_thread_time_of(t, r, (enum pomp_phase)op, when);
    return pomp_thread_record(t, r, when, (enum pomp_phase)op, off, kind,
                              bridge_group_of(kind), arg) != POMP_PROFILE_SKIPPED;
}

static inline int bridge_record(struct bridge_thread *b, enum bridge_op op,
                                struct POMP_Region_s *r, uint64_t when,
                                enum pomp_event_kind kind)
{
    return bridge_record_arg(b, op, r, when, kind, 0);
}

/* A task's creation, as a single event: its trace record gets a new task id,
 * which *task_id receives (it stays 0 without a trace record). */
static inline void bridge_record_task_create(struct bridge_thread *b, struct POMP_Region_s *r,
                                             uint64_t when, uint64_t *task_id)
{
    struct pomp_thread *t = bridge_pomp_thread(b);
    *task_id = 0;
    if (__builtin_expect(t == NULL || r == NULL || r->filtered_out, 0))
        return;
    when = pomp_thread_time_of(t, r, POMP_PHASE_EVENT, when);
    pomp_thread_record_creating(t, r, when, POMP_PHASE_EVENT, bridge_measuring() == 0,
                                POMP_EV_OMPT_TASK_CREATE, POMP_GROUP_TASK, 0, task_id);
}

/* A later part of the execution of task region r on thread b, at `when`: a
 * task root frame that counts no begin (pomp_thread_resume), closed by a
 * BR_END of r; its trace record carries the task's id. */
static inline void bridge_resume(struct bridge_thread *b, struct POMP_Region_s *r, uint64_t when,
                                 enum pomp_event_kind kind, uint64_t task_id)
{
    struct pomp_thread *t = bridge_pomp_thread(b);
    if (__builtin_expect(t != NULL && r != NULL && !r->filtered_out, 1))
        pomp_thread_resume(t, r, when, bridge_measuring() == 0, kind, bridge_group_of(kind),
                           task_id);
}

/* Whether thread b's regions are nested deeper than its profile records
 * (POMP_PROFILE_DEPTH): what opens there is counted, not recorded. */
static inline int bridge_too_deep(struct bridge_thread *b)
{
    struct pomp_thread *t = bridge_pomp_thread(b);
    return t && t->profile.too_deep;
}

/* The frame on top of thread b's profile, or NULL if none is open. */
static inline struct pomp_frame *bridge_top_frame(struct bridge_thread *b)
{
    struct pomp_thread *t = bridge_pomp_thread(b);
    if (!t || t->profile.depth <= 1 || t->profile.too_deep)
        return NULL;
    return &t->profile.frames[t->profile.depth - 1];
}

/* The class of POMP's construct open on top of thread b (its frame, or its
 * leaf: pomp_profile_leaf_open), entered and not yet in its block (the
 * runtime reports the construct POMP just entered), with its region in *r;
 * BRC_OTHER if the top is none such. */
static inline enum bridge_class bridge_pomp_entered_class(struct bridge_thread *b,
                                                          struct POMP_Region_s **r)
{
    struct pomp_thread *t = bridge_pomp_thread(b);
    if (t && t->profile.leaf.construct && t->profile.leaf.depth == t->profile.depth &&
        t->profile.leaf.region) { /* POMP's wait or task creation, counted without a frame */
        *r = t->profile.leaf.region;
        return bridge_class_of(*r);
    }
    struct pomp_frame *f = bridge_top_frame(b);
    if (!f || !f->entered || f->in_body || f->team)
        return BRC_OTHER;
    *r = f->region;
    return bridge_class_of(f->region);
}

/* Whether the top frame is POMP's open construct of this class, entered and
 * not yet in its block. */
static inline int bridge_pomp_entered(struct bridge_thread *b, enum bridge_class class)
{
    struct POMP_Region_s *r;
    return bridge_pomp_entered_class(b, &r) == class;
}

/* Whether the innermost open region was made by the instrumentation: the code
 * that runs now was built with pompcc (for single events, which cannot be
 * matched against POMP's own). */
static inline int bridge_in_instrumented_code(struct bridge_thread *b)
{
    struct pomp_frame *f = bridge_top_frame(b);
    return f && f->region && f->region->init_kind != POMP_INIT_OMPT;
}

#endif
