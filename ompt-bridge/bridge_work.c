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
    enum bridge_construct construct;
    enum pomp_group group;
    unsigned levels;
    enum pomp_event_kind enter, exit;
    const char *const *pomp_types; /* POMP's region types for the same construct */
    uint8_t loop;            /* its chunks are dispatched */
    uint8_t executes;        /* single: this thread executes the block */
};

static int work_kind_of(ompt_work_t type, struct work_kind *k)
{
    /* the instrumenter's CTC types: the directive's name (docs/ctc.md) */
    static const char *const loops[] = {"for", "for simd", "loop", "do", NULL};
    static const char *const sections_t[] = {"sections", NULL};
    static const char *const single_t[] = {"single", NULL};
    static const char *const workshare_t[] = {"workshare", NULL};
    static const char *const distributes[] = {"distribute", "distribute simd",
                                              "distribute parallel for",
                                              "distribute parallel for simd", NULL};
    static const char *const taskloops[] = {"taskloop", "taskloop simd", NULL};
    static const char *const scope_t[] = {"scope", NULL};
    static const struct work_kind
        loop = {BC_FOR, POMP_GROUP_LOOP, BR_LOOP_ENTER_EXIT, POMP_EV_LOOP_ENTER,
                POMP_EV_LOOP_EXIT, loops, 1, 0},
        sections = {BC_SECTIONS, POMP_GROUP_WORKSHARE, BR_ENTER_EXIT, POMP_EV_SECTIONS_ENTER,
                    POMP_EV_SECTIONS_EXIT, sections_t, 0, 0},
        single = {BC_SINGLE, POMP_GROUP_WORKSHARE, BR_ENTER_EXIT, POMP_EV_SINGLE_ENTER,
                  POMP_EV_SINGLE_EXIT, single_t, 0, 0},
        workshare = {BC_WORKSHARE, POMP_GROUP_WORKSHARE, BR_ENTER_EXIT, POMP_EV_WORKSHARE_ENTER,
                     POMP_EV_WORKSHARE_EXIT, workshare_t, 0, 0},
        distribute = {BC_DISTRIBUTE, POMP_GROUP_LOOP, BR_LOOP_ENTER_EXIT, POMP_EV_OMPT_WORK_ENTER,
                      POMP_EV_OMPT_WORK_EXIT, distributes, 1, 0},
        taskloop = {BC_TASKLOOP, POMP_GROUP_TASK, BR_ENTER_EXIT, POMP_EV_OMPT_WORK_ENTER,
                    POMP_EV_OMPT_WORK_EXIT, taskloops, 0, 0},
        scope = {BC_SCOPE, POMP_GROUP_WORKSHARE, BR_ENTER_EXIT, POMP_EV_OMPT_WORK_ENTER,
                 POMP_EV_OMPT_WORK_EXIT, scope_t, 0, 0};
    switch ((int)type) {
    case ompt_work_loop:
    case ompt_work_loop_static:
    case ompt_work_loop_dynamic:
    case ompt_work_loop_guided:
    case ompt_work_loop_other: *k = loop; return 1;
    case ompt_work_sections: *k = sections; return 1;
    case ompt_work_single_executor: *k = single, k->executes = 1; return 1;
    case ompt_work_single_other: *k = single; return 1;
    case ompt_work_workshare: *k = workshare; return 1;
    case ompt_work_distribute: *k = distribute; return 1;
    case ompt_work_taskloop: *k = taskloop; return 1;
    case ompt_work_scope: *k = scope; return 1;
    default: return 0;
    }
}

static void work_begin(struct bridge_thread *b, ompt_work_t type, const void *codeptr_ra)
{
    struct bridge_scope *s = bridge_scope_push(b, SCOPE_WORK);
    struct work_kind k;
    if (!s || !work_kind_of(type, &k) || !bridge_records(k.group, k.levels))
        return;
    s->detail = (uint8_t)type;
    if (bridge_pomp_entered_any(b, k.pomp_types)) { /* instrumented */
        if (k.loop)
            s->loop = bridge_top_frame(b)->region;
        return;
    }
    uint64_t now = pomp_now();
    s->start = now;
    s->region = bridge_region(k.construct, codeptr_ra);
    s->exit_kind = (uint16_t)k.exit;
    bridge_record(b, BR_ENTER, s->region, now, k.enter);
    if (k.loop)
        s->loop = s->region;
    if (k.executes && bridge_records(POMP_GROUP_WORKSHARE, BR_BEGIN_END)) {
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
        if (!s || !bridge_records(POMP_GROUP_SYNC, BR_BEGIN_END))
            return;
        s->region = bridge_region(BC_MASKED, codeptr_ra);
        bridge_record(b, BR_BEGIN, s->region, pomp_now(), POMP_EV_MASTER_BEGIN);
        struct pomp_thread *t = bridge_pomp_thread(b);
        if (t) { /* POMP_Masked_begin, if instrumented, comes next and takes it over */
            pomp_profile_mark_adoptable(&t->profile);
            s->depth = t->profile.depth;
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
