/* Regions: what a POMP handle points to. One record per handle, created by
 * POMP_Get_handle (pre-initialized, from POMP_Init_Handles) or lazily by the
 * first event that arrives with a zero handle and a CTC string. */
#ifndef POMP_REGION_H
#define POMP_REGION_H

#include <pomplib.h>
#include <stddef.h>
#include <stdint.h>

#include "ctc.h"

enum pomp_region_init {
    POMP_INIT_HANDLE = 0, /* POMP_Get_handle (pre-initialized) */
    POMP_INIT_LAZY = 1,   /* the construct's first event */
    POMP_INIT_OMPT = 2,   /* the OMPT bridge: a construct the runtime reported (ompt-bridge/) */
};

struct POMP_Region_s {
    uint32_t id;                  /* 1..n in creation order */
    uint8_t init_kind;            /* enum pomp_region_init */
    uint8_t filtered_out;         /* POMP_FILTER_*: events of this region are not recorded */
    uint8_t filtered_frame;       /* filtered, a construct the runtime reports too: its events
                                     keep a frame that records nothing (pomp_region.c) */
    uint8_t filtered_ran;         /* filtered, and an event of it came (atomic, set once: a load
                                     per filtered event after that), so that the report can
                                     tell a filtered construct that never ran from one that did */
    uint8_t task_root;            /* an explicit task's execution: its begin opens a tree of
                                     its own at the thread's root (core/pomp_profile.c) */
    uint8_t throttled;            /* very frequent and very short: its executions are counted,
                                     no longer timed (atomic; core/pomp_profile.c) */
    uint8_t a_wait;               /* barrier, taskwait, taskgroup, a runtime wait (not one
                                     for a lock or an atomic: pomp_region.c): never throttled
                                     (its time is the synchronization reported) */
    uint8_t traced_lock;          /* a lock call site (omp_set_lock, omp_unset_lock,
                                     omp_test_lock, nest forms) while a trace is written: never
                                     throttled, so that the trace's acquisitions and releases
                                     of a lock pair up */
    uint8_t team_region;          /* a parallel region: its frame bounds the team that the
                                     tasks opened inside run in (core/pomp_profile.c) */
    uint8_t block_setup;          /* a parallel region whose threads make private copies before
                                     its block (firstprivate, private or reduction on its own
                                     directive: a copy constructor, an array copied): the
                                     master's block starts at its implicit task's begin, as a
                                     worker's share does, where a bridge knows it */
    uint8_t has_depend;           /* a task construct with a depend clause (its CTC's hasDepend):
                                     an execution inside its creation waited for them first */
    POMP_Handle_t dependences_wait; /* that wait's region, made at its first (atomic) */
    uint8_t keep_entering;        /* never throttled either: a bridge tells the runtime's reports
                                     of it from others by its every enter, or its begin takes the
                                     runtime's frame over (a masked block under POMP_OMPT=full;
                                     atomic) */
    uint8_t bridge_class;         /* the OMPT bridge's class of its construct, 0 until it first
                                     asked (ompt-bridge/bridge_regions.c; atomic) */
    uint16_t bridge_counter;      /* a lock wait the OMPT bridge made: 1 + the slot of its inline
                                     counter among the bridge's, 0 before it was throttled,
                                     UINT16_MAX where none was left (ompt-bridge/bridge_mutex.c;
                                     atomic) */
    uint64_t kind_bit;            /* two bits of its type, name and lines: the regions the
                                     output may fold into one share them
                                     (pomp_profile.outside_kinds, a Bloom filter of them) */
    int ctc_error;                /* enum ctc_error of the CTC string */
    size_t ctc_error_offset;
    uintptr_t object;             /* the runtime object a bridge first met it with, 0: none: a
                                     critical's lock, whose symbol names an unnamed runtime
                                     region after the run (ompt-bridge/bridge_symbols.c; atomic) */
    uint64_t throttled_ns;        /* when it was throttled, ns since the start (atomic) */
    uint64_t throttled_after;     /* the executions on the path that decided it */
    char *ctc_text;               /* copy of the CTC string */
    struct ctc ctc;               /* parsed (empty when ctc_error != 0) */
    struct POMP_Region_s *next;   /* registry list, newest first */
};

/* Resolves the handle, initializing it from ctc under the registry lock if it is
 * still zero. Returns the region or NULL (*rc says why). */
struct POMP_Region_s *pomp_region_lazy_init(POMP_Handle_t *handle, const char *ctc, int32_t *rc);

static inline struct POMP_Region_s *pomp_region_resolve(POMP_Handle_t *handle, const char *ctc,
                                                        int32_t *rc)
{
    if (handle) {
        struct POMP_Region_s *r = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
        if (__builtin_expect(r != NULL, 1))
            return r;
    }
    return pomp_region_lazy_init(handle, ctc, rc);
}

/* Creates (or returns the existing) region for a handle; POMP_Get_handle. */
int32_t pomp_region_get_handle(POMP_Handle_t *handle, const char *ctc, enum pomp_region_init kind);

/* All regions, newest first; stable once recording has stopped. */
struct POMP_Region_s *pomp_region_list(void);
uint32_t pomp_region_count(void);

/* Whether a and b are two regions of one type, name and lines (where known;
 * the output folds such regions into one where they are at one place,
 * pomp_merge.c): the two
 * copies of an inline function's construct that the runtime reports from
 * each code address, the same construct instrumented in two translation
 * units. */
int pomp_region_maybe_twins(const struct POMP_Region_s *a, const struct POMP_Region_s *b);

/* Human-readable type and location of a region, for messages. */
const char *pomp_region_type(const struct POMP_Region_s *r);
/* The region of the wait of task region task's undeferred executions for
 * their dependences ("wait" named dependences, at the task's place), made at
 * the first call; NULL if memory ran out. */
struct POMP_Region_s *pomp_region_dependences_wait(struct POMP_Region_s *task);
/* Replaces the region's CTC string (a region the OMPT bridge named after the
 * run, by its code address). Only once recording has stopped. Returns 0, or -1
 * (region unchanged) for a malformed string or no memory. */
int pomp_region_relabel(struct POMP_Region_s *r, const char *ctc);

/* After the run: each instrumented region's file as the program, where it
 * ran, names it (ctc_file_seen_from: below its working directory relative to
 * it, else absolute), as the runtime's regions are named: one name per file
 * when the program runs elsewhere than where it was compiled. */
void pomp_regions_place_files(void);
/* Says each POMP_FILTER_* rule of type or name that no region matched (at
 * the end of measurement, on stderr). */
void pomp_regions_note_unmatched_filters(void);
/* Whether two regions stand for the same kind of construct (their CTC types;
 * master and masked are one). */
int pomp_region_same_construct(const struct POMP_Region_s *a, const struct POMP_Region_s *b);
/* How the region was created: "handle", "lazy" or "ompt" (profile.json). */
const char *pomp_region_init_name(const struct POMP_Region_s *r);

#endif
