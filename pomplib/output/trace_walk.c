#include "trace_walk.h"

#include <stdlib.h>
#include <string.h>

struct stack {
    struct trace_frame *f;
    uint32_t depth, capacity;
};

static int push(struct stack *s, const struct trace_frame *f)
{
    if (s->depth == s->capacity) {
        uint32_t cap = s->capacity ? s->capacity * 2 : 64;
        struct trace_frame *n = realloc(s->f, cap * sizeof *n);
        if (!n)
            return -1;
        s->f = n;
        s->capacity = cap;
    }
    s->f[s->depth++] = *f;
    return 0;
}

/* The topmost frame of region r that the record can close, or -1. An end
 * closes what a begin opened; an exit closes what an enter opened. */
static int64_t find_open(const struct stack *s, const struct pomp_event *e)
{
    int by_enter = e->phase == POMP_PHASE_EXIT;
    for (int64_t i = (int64_t)s->depth - 1; i >= 0; i--)
        if (s->f[i].region == e->region && (s->f[i].entered == by_enter) &&
            (by_enter || s->f[i].body || !s->f[i].entered))
            return i;
    return -1;
}

static void close_to(struct stack *s, uint32_t depth, uint64_t time, const struct pomp_event *last,
                     const struct trace_walk_ops *ops, void *ctx, struct trace_walk_stats *st)
{
    while (s->depth > depth) {
        s->depth--;
        const struct pomp_event *close = s->depth == depth ? last : NULL;
        if (!close)
            st->closed_by_walker++;
        ops->leave(ctx, &s->f[s->depth], time, close, s->depth);
    }
}

int trace_walk(const struct trace_thread *t, uint64_t end_ticks, const struct trace_walk_ops *ops,
               void *ctx, struct trace_walk_stats *st)
{
    struct stack s = {0};
    memset(st, 0, sizeof *st);
    uint64_t now = 0, lost_said = 0;
    for (uint64_t i = 0; i < t->count; i++) {
        const struct pomp_event *e = &t->events[i];
        if (e->time < now)
            st->time_clamped++;
        else
            now = e->time;
        if (e->kind == POMP_EV_TRACE_GAP) {
            /* events are missing here: what was open may have closed */
            close_to(&s, 0, now, NULL, ops, ctx, st);
            if (ops->gap)
                ops->gap(ctx, e, now);
            lost_said += e->arg;
            continue;
        }
        switch (e->phase) {
        case POMP_PHASE_ENTER:
        case POMP_PHASE_BEGIN: {
            struct trace_frame f = {.open = e, .start = now, .region = e->region,
                                    .entered = e->phase == POMP_PHASE_ENTER};
            if (e->phase == POMP_PHASE_BEGIN && s.depth) {
                const struct trace_frame *top = &s.f[s.depth - 1];
                f.body = top->region == e->region && top->entered && !top->body;
            }
            if (push(&s, &f) != 0) {
                free(s.f);
                return -1;
            }
            if (s.depth > st->max_depth)
                st->max_depth = s.depth;
            ops->enter(ctx, &s.f[s.depth - 1], s.depth - 1);
            break;
        }
        case POMP_PHASE_END:
        case POMP_PHASE_EXIT: {
            int64_t at = find_open(&s, e);
            if (at < 0) {
                st->unmatched++;
                break;
            }
            close_to(&s, (uint32_t)at, now, e, ops, ctx, st);
            break;
        }
        default:
            ops->single(ctx, e, now, s.depth);
            break;
        }
    }
    if (t->dropped > lost_said && t->count && t->events[t->count - 1].kind != POMP_EV_TRACE_GAP) {
        /* events lost after the file's last record with no gap record of
         * theirs (a full disk: the room the failed write's cut freed went to
         * another thread's write first): they start after that record, so
         * what was open ends there, not at the run's end (a thread's file
         * without its gap, 1 run in 6 of test_disk_full under ASan). A file
         * that ends in its gap is followed by the buffers given up after it */
        const struct pomp_event lost = {.time = now,
                                        .arg = t->dropped - lost_said,
                                        .kind = POMP_EV_TRACE_GAP,
                                        .phase = POMP_PHASE_EVENT,
                                        .group = POMP_EVENT_GROUP_LIBRARY};
        close_to(&s, 0, now, NULL, ops, ctx, st);
        if (ops->gap)
            ops->gap(ctx, &lost, now);
    }
    close_to(&s, 0, end_ticks > now ? end_ticks : now, NULL, ops, ctx, st);
    free(s.f);
    return 0;
}
