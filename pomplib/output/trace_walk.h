/* Walks one thread's raw records and rebuilds its region nesting, the way the
 * profile does: enter/exit pairs open and close a construct, a begin inside the
 * construct the thread entered opens its body (block), a begin without enter
 * (a worker in a parallel region, master, a user region) opens the construct
 * itself. Closing events that match no open frame are skipped; frames left open
 * above a closing one, at a gap (lost events) or at the end of the stream are
 * closed by the walker. So every converter sees a well-nested stream of
 * enter/leave calls with non-decreasing times. */
#ifndef POMP_TRACE_WALK_H
#define POMP_TRACE_WALK_H

#include <stdint.h>

#include "trace_model.h"

struct trace_frame {
    const struct pomp_event *open; /* the record that opened the frame */
    uint64_t start;                /* its time (never before the previous record's) */
    uint32_t region;
    uint8_t body;                  /* the block of a construct this thread entered */
    uint8_t entered;               /* opened by an enter record (else by a begin) */
};

static inline enum trace_span trace_frame_span(const struct trace_frame *f)
{
    return f->entered ? TRACE_SPAN_ENTERED : f->body ? TRACE_SPAN_BODY : TRACE_SPAN_BLOCK;
}

/* The span a single event (one without an end) is shown in: an iteration
 * event (POMP_LOOP=IterEvent) is a begin of its loop's body, inside the
 * loop's enter..exit, as IterBeginEnd's and Chunks' are (as the loop itself,
 * the trace showed the loop run N+1 times, nested in itself, where the
 * profile has one visit; a probe); any other, its region. */
static inline enum trace_span trace_single_span(const struct pomp_event *e)
{
    return e->kind == POMP_EV_LOOP_ITER_EVENT ? TRACE_SPAN_BODY : TRACE_SPAN_ENTERED;
}

struct trace_walk_ops {
    void (*enter)(void *ctx, const struct trace_frame *f, uint32_t depth);
    /* close: the closing record, or NULL when the walker closes the frame */
    void (*leave)(void *ctx, const struct trace_frame *f, uint64_t time,
                  const struct pomp_event *close, uint32_t depth);
    void (*single)(void *ctx, const struct pomp_event *e, uint64_t time, uint32_t depth);
    void (*gap)(void *ctx, const struct pomp_event *e, uint64_t time); /* may be NULL */
};

struct trace_walk_stats {
    uint64_t unmatched;      /* end/exit records that matched no open frame (skipped) */
    uint64_t closed_by_walker;
    uint64_t time_clamped;   /* records earlier than the one before them */
    uint32_t max_depth;
};

/* Walks t's records in order. Frames still open after its last record (the
 * program called exit() or was ended by a signal inside them) close at
 * end_ticks, the end of measurement, as the profile closes them (never before
 * the last record): a worker that sat in a barrier while the master called
 * exit() waited until the end, not until its last record. Returns 0, or -1
 * when out of memory. */
int trace_walk(const struct trace_thread *t, uint64_t end_ticks, const struct trace_walk_ops *ops,
               void *ctx, struct trace_walk_stats *stats);

#endif
