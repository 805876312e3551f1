/* The per-thread trace buffer (POMP_TRACE=events|otf2|chrome|both): a
 * preallocated buffer of raw records (pomp_event.h), filled on the hot path,
 * written to a per-thread raw file when full and at the end, and converted
 * after the run. */
#ifndef POMP_EVENTLOG_H
#define POMP_EVENTLOG_H

#include <stdint.h>

#include "pomp_event.h"

/* A thread's trace buffer. Only its own thread touches it while the program
 * runs; the finalizer reads it after measurement stopped. */
struct pomp_eventlog {
    struct pomp_event *buf;   /* NULL when tracing is off (or the buffer could not be allocated) */
    uint32_t used, capacity;
    uint64_t dropped;         /* events lost: a flush failed, or no buffer */
    uint64_t written;         /* events written to the thread's raw file so far */
    uint32_t flushes;         /* buffers written out while the program ran */
    uint64_t flushed_at;      /* when the last flush ended: a record made after it (an event
                                 that takes an earlier time, as a barrier its block's end)
                                 starts no earlier, so the log stays in time order */
    int made;                 /* the raw trace file was made (its header written); no
                                 descriptor of it is kept between flushes (docs/output.md) */
    int error;                /* errno of the first failed open or write (TRACE_RAW_REPLACED:
                                 the file is no longer the one made); 0 if none */
    uint64_t file_dev, file_ino; /* the raw file's identity, saved when it was made */
};

/* Allocates the buffer: capacity events, or fewer if memory is short (the
 * buffer is then flushed more often); buf stays NULL if not even the smallest
 * fits, and error says so. */
void pomp_eventlog_alloc(struct pomp_eventlog *l, uint32_t capacity);

/* Writes the full buffer to the thread's raw file and records the flush as a
 * region; on failure counts the buffer's events as dropped and leaves a gap
 * record. Called by the buffer's own thread only (pomp_trace_buffer.c). */
void pomp_eventlog_flush(struct pomp_eventlog *l) __attribute__((noinline, cold));

/* The one entry point for trace records, for every event source (POMP routines,
 * the OMPT bridge): three stores and a compare; a full buffer is flushed by
 * its own thread. */
static inline void pomp_eventlog_put(struct pomp_eventlog *l, uint64_t time, uint32_t region,
                                     unsigned kind, enum pomp_phase phase, unsigned group,
                                     uint64_t arg)
{
    struct pomp_event *e = &l->buf[l->used];
    e->time = time;
    e->arg = arg;
    e->region = region;
    e->kind = (uint16_t)kind;
    e->phase = (uint8_t)phase;
    e->group = (uint8_t)group;
    if (__builtin_expect(++l->used == l->capacity, 0))
        pomp_eventlog_flush(l);
}

#endif
