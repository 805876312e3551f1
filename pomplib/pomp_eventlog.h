/* The per-thread event log (POMP_TRACE=events): a preallocated buffer of raw
 * records, filled on the hot path and written out as text after the run. */
#ifndef POMP_EVENTLOG_H
#define POMP_EVENTLOG_H

#include <stdint.h>

enum pomp_event_kind {
    POMP_EV_PARALLEL_ENTER, POMP_EV_PARALLEL_BEGIN, POMP_EV_PARALLEL_END, POMP_EV_PARALLEL_EXIT,
    POMP_EV_LOOP_ENTER, POMP_EV_LOOP_EXIT,
    POMP_EV_SINGLE_ENTER, POMP_EV_SINGLE_BEGIN, POMP_EV_SINGLE_END, POMP_EV_SINGLE_EXIT,
    POMP_EV_CRITICAL_ENTER, POMP_EV_CRITICAL_BEGIN, POMP_EV_CRITICAL_END, POMP_EV_CRITICAL_EXIT,
    POMP_EV_BARRIER_ENTER, POMP_EV_BARRIER_EXIT,
    POMP_EV_COUNT
};

/* "Parallel_enter", ...: the POMP routine's name without the POMP_ prefix. */
const char *pomp_event_name(enum pomp_event_kind k);

struct pomp_event {
    uint64_t time;      /* raw ticks */
    uint32_t region;    /* region id */
    uint16_t kind;      /* enum pomp_event_kind */
    uint16_t reserved;
};

struct pomp_eventlog {
    struct pomp_event *buf;   /* NULL when the log is off */
    uint32_t used, capacity;
    uint64_t dropped;         /* events that found the buffer full */
};

static inline void pomp_eventlog_put(struct pomp_eventlog *l, uint64_t time, uint32_t region,
                                     enum pomp_event_kind kind)
{
    if (__builtin_expect(l->used == l->capacity, 0)) {
        l->dropped++;
        return;
    }
    struct pomp_event *e = &l->buf[l->used++];
    e->time = time;
    e->region = region;
    e->kind = (uint16_t)kind;
    e->reserved = 0;
}

#endif
