/* A finished trace, as the converters see it: the definitions (clock, regions,
 * threads) and each thread's raw records, mapped from its raw file. libpomp
 * fills it from its live state at finalization (pomp_trace.c); pomp-report
 * from trace-raw/defs.json (report/trace_load.c). The writers (trace_otf2.c,
 * trace_chrome.c, trace_text.c) and the HTML timeline only read it.
 * The raw file format is in docs/output.md ("The raw trace"). */
#ifndef POMP_TRACE_MODEL_H
#define POMP_TRACE_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pomp_event.h"

#define TRACE_RAW_DIR "trace-raw"
/* Room kept on the disk for profile.json while a trace is written during the
 * run (TRACE_RAW_DIR/this file, made with the directory, removed at exit just
 * before the profile is written): a raw trace that filled the disk left none. */
#define TRACE_PROFILE_RESERVE "profile.reserve"
#define TRACE_PROFILE_RESERVE_MAX (8u << 20)
#define TRACE_RAW_MAGIC "POMPRAW"  /* 8 bytes with the NUL */
#define TRACE_RAW_VERSION 1
#define TRACE_RAW_ENDIAN 0x01020304u
/* A thread's error (defs.json's threads[].error) other than an errno: its raw
 * file, opened again by its path at a flush, was no longer the file the run
 * made (removed or replaced since: another run writing the same directory, a
 * program that cleans the directory up) */
#define TRACE_RAW_REPLACED (-1)
/* The words for a thread's error: strerror's, or TRACE_RAW_REPLACED's. */
const char *trace_raw_error_text(int err);

/* The first 64 bytes of every raw file; the records follow. */
struct trace_raw_header {
    char magic[8];
    uint32_t version;
    uint32_t record_size;  /* sizeof(struct pomp_event) */
    uint32_t thread;       /* thread index */
    uint32_t endian;       /* TRACE_RAW_ENDIAN as the writer stored it */
    uint32_t pid;          /* the writing process (0: not said, an older file): another run
                              writing the same directory at once replaces the file */
    uint8_t reserved[36];
};
_Static_assert(sizeof(struct trace_raw_header) == 64, "the raw header is 64 bytes");

struct trace_region {
    uint32_t id;
    char *type, *name, *file;   /* never NULL ("" when missing) */
    int first_line, last_line;
};

struct trace_thread {
    uint32_t index;
    int32_t omp_thread_num;
    int32_t os_tid;
    uint8_t stream;             /* 0: an OS thread; 1: a device stream (pomp_thread.h) */
    int32_t device;             /* a device stream: its device */
    uint32_t host_thread;       /* a device stream: the thread that issued its work
                                   (UINT32_MAX: the device's own trace) */
    uint64_t dropped;           /* events lost while recording */
    int64_t written;            /* events defs.json says the raw file holds (-1: not said) */
    char *error;                /* why events were lost (NULL if none) */
    const struct pomp_event *events;
    uint64_t count;
    void *map;                  /* the mapped raw file */
    size_t map_size;
    size_t cut;                 /* bytes of a record the file ends inside (a write cut short,
                                   a full disk): left out, the whole records before it kept */
};

struct trace_model {
    char *program, *hostname;
    int pid;
    char *clock_source;         /* "tsc" or "clock_gettime" */
    double ticks_per_ns;
    uint64_t start_ticks, end_ticks;
    uint64_t realtime_start_ns; /* CLOCK_REALTIME at start_ticks, 0 if unknown */
    struct trace_region *regions; /* regions[i].id == i + 1 */
    uint32_t nregions;
    struct trace_thread *threads;
    uint32_t nthreads;
    char **groups;              /* event group names by the record's group byte ("PARALLEL") */
    uint32_t ngroups;
};

/* The name of a location: "thread 1 (omp 0, tid 4242)", "device 0 from thread 0",
 * "device 0 trace". */
void trace_thread_label(const struct trace_thread *t, char *buf, size_t size);

/* The group of a record in lower case ("parallel"), "pomp" for the library's own. */
const char *trace_group_name(const struct trace_model *m, unsigned group, char *buf, size_t size);

/* The region of a record, NULL for an id that names none. */
static inline const struct trace_region *trace_region(const struct trace_model *m, uint32_t id)
{
    return id >= 1 && id <= m->nregions ? &m->regions[id - 1] : NULL;
}

/* Nanoseconds since the start of measurement. */
static inline double trace_ns(const struct trace_model *m, uint64_t ticks)
{
    return ticks < m->start_ticks ? 0.0 : (double)(ticks - m->start_ticks) / m->ticks_per_ns;
}

/* What a stretch of a thread's time in a region is. */
enum trace_span {
    TRACE_SPAN_ENTERED, /* enter..exit: the construct as the encountering thread sees it */
    TRACE_SPAN_BODY,    /* begin..end inside the thread's own enter..exit */
    TRACE_SPAN_BLOCK,   /* begin..end of a thread that did not enter (a worker, master, user region) */
};

/* The label of a span: "critical accumulate @ work.c:14", "critical
 * accumulate body @ work.c:14", "pomp flush". A parallel region's body is labelled
 * like the region itself (the master's share of the team's work, as on the
 * workers), and the master's enter..exit around it "parallel fork/join". A
 * task's enter..exit is its creation ("task create"), its begin..end its run. */
void trace_span_label(const struct trace_region *r, enum trace_span span, char *buf, size_t size);
int trace_region_is(const struct trace_region *r, const char *type);

/* Maps dir/trace-raw/thread-<index>.bin into t and checks its header and every
 * record. Returns 0, or -1 with a message (file, byte offset, what) in err. */
int trace_thread_map(struct trace_thread *t, const char *dir, const struct trace_model *m,
                     char *err, size_t errsize);

/* Releases the mappings and every string and array of m. */
void trace_model_free(struct trace_model *m);

#endif
