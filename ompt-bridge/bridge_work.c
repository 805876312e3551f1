/* Worksharing constructs (work callback), their chunks (dispatch: the Loop
 * group's Chunks level) and masked regions.
 *
 * Count once: an instrumented construct has its POMP frame open (entered, not
 * yet in its block) when the runtime reports its begin; the bridge then opens
 * nothing, and a loop's chunks begin and end POMP's loop region. Otherwise the
 * bridge opens a region named by the construct's code address. */
#include <stddef.h>

#include "bridge_callbacks.h"
#include "bridge_collector.h"
#include "bridge_record.h"

struct work_kind {
    uint8_t known;           /* 0: a work type the bridge does not record */
    uint8_t construct;       /* enum bridge_construct */
    uint8_t group;           /* enum pomp_group */
    uint8_t levels;
    uint16_t enter, exit;    /* enum pomp_event_kind */
    uint8_t pomp_class;      /* POMP's regions for the same construct (enum bridge_class) */
    uint8_t loop;            /* its chunks are dispatched */
    uint8_t executes;        /* single: this thread executes the block */
};

/* Every work type of libomp 19, by ompt_work_t. */
enum { WORK_TYPES = ompt_work_loop_other + 1 };
static const struct work_kind work_kinds[WORK_TYPES] = {
#define LOOP {1, BC_FOR, POMP_GROUP_LOOP, BR_LOOP_ENTER_EXIT, POMP_EV_LOOP_ENTER, \
              POMP_EV_LOOP_EXIT, BRC_LOOP, 1, 0}
#define SINGLE(executes) {1, BC_SINGLE, POMP_GROUP_WORKSHARE, BR_ENTER_EXIT, \
                          POMP_EV_SINGLE_ENTER, POMP_EV_SINGLE_EXIT, BRC_SINGLE, 0, executes}
    [ompt_work_loop] = LOOP,
    [ompt_work_loop_static] = LOOP,
    [ompt_work_loop_dynamic] = LOOP,
    [ompt_work_loop_guided] = LOOP,
    [ompt_work_loop_other] = LOOP,
    [ompt_work_sections] = {1, BC_SECTIONS, POMP_GROUP_WORKSHARE, BR_ENTER_EXIT,
                            POMP_EV_SECTIONS_ENTER, POMP_EV_SECTIONS_EXIT, BRC_SECTIONS, 0, 0},
    [ompt_work_single_executor] = SINGLE(1),
    [ompt_work_single_other] = SINGLE(0),
    [ompt_work_workshare] = {1, BC_WORKSHARE, POMP_GROUP_WORKSHARE, BR_ENTER_EXIT,
                             POMP_EV_WORKSHARE_ENTER, POMP_EV_WORKSHARE_EXIT, BRC_WORKSHARE, 0, 0},
    [ompt_work_distribute] = {1, BC_DISTRIBUTE, POMP_GROUP_LOOP, BR_LOOP_ENTER_EXIT,
                              POMP_EV_OMPT_WORK_ENTER, POMP_EV_OMPT_WORK_EXIT, BRC_DISTRIBUTE, 1, 0},
    [ompt_work_taskloop] = {1, BC_TASKLOOP, POMP_GROUP_TASK, BR_ENTER_EXIT,
                            POMP_EV_OMPT_WORK_ENTER, POMP_EV_OMPT_WORK_EXIT, BRC_TASKLOOP, 0, 0},
    [ompt_work_scope] = {1, BC_SCOPE, POMP_GROUP_WORKSHARE, BR_ENTER_EXIT, POMP_EV_OMPT_WORK_ENTER,
                         POMP_EV_OMPT_WORK_EXIT, BRC_SCOPE, 0, 0},
#undef LOOP
#undef SINGLE
};

static void work_end(struct bridge_thread *b);

/* Ends the worksharing region s on top, whose end the runtime did not report
 * (libomp's libgomp layer reports no end of a single): the collector API's
 * THR_END_SINGLE comes with it, else its THR_BEGIN_SINGLE went unpaired (GCC
 * code on libomp: 300 begins, no end; a probe). */
static void work_end_unreported(struct bridge_thread *b, const struct bridge_scope *s)
{
    if (s->detail == ompt_work_single_executor)
        bridge_collector_event(OMP_EVENT_THR_END_SINGLE);
    work_end(b);
}

void bridge_work_end_open_single(struct bridge_thread *b)
{
    const struct bridge_scope *s = bridge_scope_top(b);
    if (s && s->kind == SCOPE_WORK && s->detail == ompt_work_single_executor && !b->lost_scopes &&
        s->nesting == bridge_scope_nesting(b))
        work_end_unreported(b, s);
}

void bridge_work_end_at_barrier(struct bridge_thread *b)
{
    const struct bridge_scope *s = bridge_scope_top(b);
    if (!s || s->kind != SCOPE_WORK || b->lost_scopes || s->nesting != bridge_scope_nesting(b))
        return;
    int loop = s->detail < WORK_TYPES && work_kinds[s->detail].loop &&
               s->detail != ompt_work_distribute;
    if (s->detail == ompt_work_single_executor || s->detail == ompt_work_sections || loop)
        work_end_unreported(b, s);
}

static void work_begin(struct bridge_thread *b, ompt_work_t type, const void *codeptr_ra)
{
    if (type != ompt_work_taskloop) /* a taskloop may be inside a single's block */
        bridge_work_end_open_single(b);
    struct bridge_scope *s = bridge_scope_push(b, SCOPE_WORK);
    const struct work_kind *k = (unsigned)type < WORK_TYPES ? &work_kinds[type] : NULL;
    if (s) {
        s->detail = (uint8_t)type;
        s->nesting = bridge_scope_nesting(b);
    }
    if (!s || !k || !k->known || !bridge_records((enum pomp_group)k->group, k->levels))
        return;
    if (bridge_pomp_entered(b, (enum bridge_class)k->pomp_class)) { /* instrumented */
        if (k->loop)
            s->loop = bridge_top_frame(b)->region;
        return;
    }
    /* LLVM libomp's libgomp layer reports GCC's sections as a loop (its
     * sections are a dynamic loop over their number): where POMP's sections
     * is open, that is it, without chunks (a 'for' without a place was nested
     * in every instrumented sections of a GCC build on libomp) */
    if (k->loop && bridge_pomp_entered(b, BRC_SECTIONS))
        return;
    uint64_t now = pomp_now();
    s->start = now;
    if (type == ompt_work_taskloop && !bridge_code_is_program(BC_TASKLOOP, codeptr_ra))
        s->task = codeptr_ra = bridge_program_caller(); /* its tasks' place too (bridge_task.c) */
    /* no address: LLVM libomp 19 clears the one it keeps for the thread at a
     * critical's release (as bridge_mutex.c says), and the loop after it came
     * without (1 to 3 of 400 executions in a row of their own, placed
     * nowhere; a probe): the program's call, found on the stack, a few times
     * per thread */
    if (__builtin_expect(!codeptr_ra, 0) && b->caller_walks < BRIDGE_CALLER_WALKS) {
        b->caller_walks++;
        codeptr_ra = bridge_program_caller();
    }
    s->region = bridge_region((enum bridge_construct)k->construct, codeptr_ra);
    s->exit_kind = k->exit;
    bridge_record(b, BR_ENTER, s->region, now, (enum pomp_event_kind)k->enter);
    if (k->loop)
        s->loop = s->region;
    if (k->executes && bridge_records(POMP_GROUP_WORKSHARE, BR_BEGIN_END)) {
        bridge_record(b, BR_BEGIN, s->region, now, POMP_EV_SINGLE_BEGIN);
        s->body = 1;
    }
}

static void work_end(struct bridge_thread *b)
{
    struct bridge_scope *s = bridge_scope_pop(b, SCOPE_WORK);
    if (!s || !(s->chunk_open || s->region))
        return;
    uint64_t now = pomp_now();
    if (s->chunk_open)
        bridge_record(b, BR_END, s->loop, now, POMP_EV_LOOP_CHUNK_END);
    if (s->body)
        bridge_record(b, BR_END, s->region, now, POMP_EV_SINGLE_END);
    if (s->region)
        bridge_record(b, BR_EXIT, s->region, now, (enum pomp_event_kind)s->exit_kind);
}

void bridge_on_work(ompt_work_t work_type, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel_data, ompt_data_t *task_data, uint64_t count,
                    const void *codeptr_ra)
{
    (void)parallel_data;
    (void)task_data;
    (void)count;
    struct bridge_thread *b;
    if (work_type == ompt_work_single_executor)
        bridge_collector_event(endpoint == ompt_scope_begin ? OMP_EVENT_THR_BEGIN_SINGLE
                                                            : OMP_EVENT_THR_END_SINGLE);
    if (bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    if (endpoint == ompt_scope_begin)
        work_begin(b, work_type, codeptr_ra);
    else
        work_end(b);
}

/* A chunk starts: the previous one of this loop (on this thread) ends. The
 * last one ends with the loop (work end). */
void bridge_on_dispatch(ompt_data_t *parallel_data, ompt_data_t *task_data,
                        ompt_dispatch_t kind, ompt_data_t instance)
{
    (void)parallel_data;
    (void)task_data;
    (void)instance;
    if (kind != ompt_dispatch_ws_loop_chunk && kind != ompt_dispatch_distribute_chunk)
        return; /* sections, single iterations, taskloop chunks (tasks of their own) */
    struct bridge_thread *b;
    if (!bridge_records(POMP_GROUP_LOOP, POMP_LEVEL_CHUNKS) || bridge_measuring() < 0 ||
        !(b = bridge_self()))
        return;
    struct bridge_scope *s = bridge_scope_top(b);
    if (!s || s->kind != SCOPE_WORK || !s->loop)
        return;
    uint64_t now = pomp_now();
    if (s->chunk_open)
        bridge_record(b, BR_END, s->loop, now, POMP_EV_LOOP_CHUNK_END);
    bridge_record(b, BR_BEGIN, s->loop, now, POMP_EV_LOOP_CHUNK_BEGIN);
    s->chunk_open = 1;
}

/* masked (and master): the block of the thread that executes it, as
 * POMP_Master_begin/end. */
void bridge_on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                      ompt_data_t *task_data, const void *codeptr_ra)
{
    (void)parallel_data;
    (void)task_data;
    struct bridge_thread *b;
    bridge_collector_event(endpoint == ompt_scope_begin ? OMP_EVENT_THR_BEGIN_MASTER
                                                        : OMP_EVENT_THR_END_MASTER);
    if (bridge_measuring() < 0 || !(b = bridge_self()))
        return;
    if (endpoint == ompt_scope_begin) {
        struct bridge_scope *s = bridge_scope_push(b, SCOPE_MASKED);
        const struct bridge_membership *m = bridge_membership_top(b);
        /* (not the runtime's own team's: libomp's hidden helper master waits
         * in its masked block until the runtime shuts down, a region the
         * program does not have, left open at the end and said so; a probe) */
        if (!s || !bridge_records(POMP_GROUP_SYNC, BR_BEGIN_END) || (m && m->runtime))
            return;
        s->region = bridge_region(BC_MASKED, codeptr_ra);
        bridge_record(b, BR_BEGIN, s->region, pomp_now(), POMP_EV_MASTER_BEGIN);
        struct pomp_thread *t = bridge_pomp_thread(b);
        if (t && pomp_thread_write_begin(t)) { /* POMP_Masked_begin, if instrumented, takes it over */
            pomp_profile_mark_adoptable(&t->profile);
            s->depth = t->profile.depth;
            pomp_thread_write_end(t);
        }
    } else {
        struct bridge_scope *s = bridge_scope_pop(b, SCOPE_MASKED);
        struct pomp_thread *t = bridge_pomp_thread(b);
        if (!s || !s->region || !t)
            return;
        /* still the bridge's frame (POMP's Masked_end closed it if POMP took it) */
        const struct pomp_profile *p = &t->profile;
        if (p->too_deep || (p->depth == s->depth && p->frames[p->depth - 1].region == s->region))
            bridge_record(b, BR_END, s->region, pomp_now(), POMP_EV_MASTER_END);
    }
}
