/* Event groups and levels (seed 002 §3.8), chosen at run time with
 * POMP_<GROUP>=<level>. Each group has one active level; each routine is
 * recorded under a fixed set of levels (Appendix C's last column). The check on
 * every event is one load and one test: (active level bit & routine's levels). */
#ifndef POMP_LEVELS_H
#define POMP_LEVELS_H

#include <stdint.h>

enum pomp_group {
    POMP_GROUP_PARALLEL, POMP_GROUP_LOOP, POMP_GROUP_WORKSHARE, POMP_GROUP_SYNC,
    POMP_GROUP_USER, POMP_GROUP_RUNTIME, POMP_GROUP_TASK, POMP_GROUP_TARGET,
    POMP_GROUP_COUNT
};

/* One bit per level. */
enum pomp_level {
    POMP_LEVEL_NONE = 0,
    POMP_LEVEL_ENTEREXIT = 1 << 0,
    POMP_LEVEL_BEGINEND = 1 << 1,
    POMP_LEVEL_CHUNKS = 1 << 2,
    POMP_LEVEL_ITEREVENT = 1 << 3,
    POMP_LEVEL_ITERBEGINEND = 1 << 4,
    POMP_LEVEL_EVENT = 1 << 5,
    /* Not a level: the state before the environment was read. No routine records
     * under it, so the first check fails and pomp_level_pending initializes. */
    POMP_LEVEL_UNSET = 1 << 7,
};

/* The active level of each group: written once at initialization, read by every event. */
extern uint8_t pomp_active_level[POMP_GROUP_COUNT];

static inline int pomp_level_records(enum pomp_group g, unsigned levels)
{
    return (__atomic_load_n(&pomp_active_level[g], __ATOMIC_RELAXED) & levels) != 0;
}

/* For an event that pomp_level_records turned down: initializes the library if
 * the levels were not read yet, and asks again. */
int pomp_level_pending(enum pomp_group g, unsigned levels);

/* Whether an event recorded under `levels` is wanted: the check every event
 * makes. One load decides both cases of the common path (recorded, or turned
 * down by a level that is set); only the UNSET marker, before the environment
 * was read, takes the call that initializes. A level, once set, never changes,
 * so a value read without the marker is final. */
static inline int pomp_level_wants(enum pomp_group g, unsigned levels)
{
    unsigned level = __atomic_load_n(&pomp_active_level[g], __ATOMIC_RELAXED);
    if (__builtin_expect((level & levels) != 0, 1))
        return 1;
    if (__builtin_expect(!(level & POMP_LEVEL_UNSET), 1))
        return 0;
    return pomp_level_pending(g, levels);
}

/* Name of a group ("PARALLEL") and of a level ("BeginEnd"). */
const char *pomp_group_name(enum pomp_group g);
const char *pomp_level_name(enum pomp_level l);

/* Parses value (case-insensitive) as a level allowed for group g. Returns 0 and
 * the level, or -1. allowed (may be NULL) receives the list of allowed names. */
int pomp_level_parse(enum pomp_group g, const char *value, enum pomp_level *out,
                     const char **allowed);
enum pomp_level pomp_level_default(enum pomp_group g);

/* Sets every group from POMP_<GROUP>, reporting bad values once. */
/* POMP_ENABLE=off: every group at none, so that an event routine returns on
 * its first test (unset, each call asked whether the library had started:
 * a task program ran 4.5 times as long as the plain build, slower than
 * measured; a probe). */
void pomp_levels_set_none(void);
void pomp_levels_read_environment(void);

#endif
