#define POMP_LIBRARY_BUILD_ /* POMP_Value_events: written here (pomplib.h) */
#include "pomp_levels.h"

#include <pomplib.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "pomp_config.h"
#include "pomp_control.h"

uint8_t pomp_active_level[POMP_GROUP_COUNT] = {
    POMP_LEVEL_UNSET, POMP_LEVEL_UNSET, POMP_LEVEL_UNSET, POMP_LEVEL_UNSET,
    POMP_LEVEL_UNSET, POMP_LEVEL_UNSET, POMP_LEVEL_UNSET, POMP_LEVEL_UNSET,
};

int POMP_Value_events = 1;

/* POMP_Value_events from the runtime group's level (pomplib.h). */
static void note_value_events(void)
{
    unsigned level = __atomic_load_n(&pomp_active_level[POMP_GROUP_RUNTIME], __ATOMIC_ACQUIRE);
    __atomic_store_n(&POMP_Value_events, (level & POMP_LEVEL_EVENT) != 0, __ATOMIC_RELEASE);
}

int pomp_level_pending(enum pomp_group g, unsigned levels)
{
    /* Another thread may have set the level since the caller looked: decide on
     * the value read now, never on the caller's stale "unset". */
    unsigned level = __atomic_load_n(&pomp_active_level[g], __ATOMIC_ACQUIRE);
    if (level == POMP_LEVEL_UNSET) {
        pomp_ensure_initialized();
        level = __atomic_load_n(&pomp_active_level[g], __ATOMIC_ACQUIRE);
    }
    return (level & levels) != 0;
}

struct group_info {
    const char *name;
    enum pomp_level dflt;
    unsigned allowed;          /* level bits this group accepts */
    const char *allowed_names; /* for messages */
};

/* Allowed levels per group (seed 002 §3.8); TASK and TARGET follow Parallel. */
static const struct group_info groups[POMP_GROUP_COUNT] = {
    [POMP_GROUP_PARALLEL] = {"PARALLEL", POMP_LEVEL_BEGINEND,
                             POMP_LEVEL_ENTEREXIT | POMP_LEVEL_BEGINEND,
                             "none, EnterExit, BeginEnd"},
    [POMP_GROUP_LOOP] = {"LOOP", POMP_LEVEL_ENTEREXIT,
                         POMP_LEVEL_ENTEREXIT | POMP_LEVEL_CHUNKS | POMP_LEVEL_ITEREVENT |
                             POMP_LEVEL_ITERBEGINEND,
                         "none, EnterExit, Chunks, IterEvent, IterBeginEnd"},
    [POMP_GROUP_WORKSHARE] = {"WORKSHARE", POMP_LEVEL_BEGINEND,
                              POMP_LEVEL_ENTEREXIT | POMP_LEVEL_BEGINEND,
                              "none, EnterExit, BeginEnd"},
    [POMP_GROUP_SYNC] = {"SYNC", POMP_LEVEL_BEGINEND,
                         POMP_LEVEL_ENTEREXIT | POMP_LEVEL_BEGINEND | POMP_LEVEL_EVENT,
                         "none, Event, EnterExit, BeginEnd"},
    [POMP_GROUP_USER] = {"USER", POMP_LEVEL_BEGINEND,
                         POMP_LEVEL_ENTEREXIT | POMP_LEVEL_BEGINEND | POMP_LEVEL_EVENT,
                         "none, Event, EnterExit, BeginEnd"},
    [POMP_GROUP_RUNTIME] = {"RUNTIME", POMP_LEVEL_ENTEREXIT,
                            POMP_LEVEL_ENTEREXIT | POMP_LEVEL_EVENT, "none, Event, EnterExit"},
    [POMP_GROUP_TASK] = {"TASK", POMP_LEVEL_BEGINEND, POMP_LEVEL_ENTEREXIT | POMP_LEVEL_BEGINEND,
                         "none, EnterExit, BeginEnd"},
    [POMP_GROUP_TARGET] = {"TARGET", POMP_LEVEL_BEGINEND,
                           POMP_LEVEL_ENTEREXIT | POMP_LEVEL_BEGINEND,
                           "none, EnterExit, BeginEnd"},
};

static const struct {
    const char *name;
    enum pomp_level level;
} level_names[] = {
    {"none", POMP_LEVEL_NONE},         {"EnterExit", POMP_LEVEL_ENTEREXIT},
    {"BeginEnd", POMP_LEVEL_BEGINEND}, {"Chunks", POMP_LEVEL_CHUNKS},
    {"IterEvent", POMP_LEVEL_ITEREVENT}, {"IterBeginEnd", POMP_LEVEL_ITERBEGINEND},
    {"Event", POMP_LEVEL_EVENT},
};

const char *pomp_group_name(enum pomp_group g)
{
    return (unsigned)g < POMP_GROUP_COUNT ? groups[g].name : "?";
}

const char *pomp_level_name(enum pomp_level l)
{
    for (size_t i = 0; i < sizeof level_names / sizeof *level_names; i++)
        if (level_names[i].level == l)
            return level_names[i].name;
    return "?";
}

enum pomp_level pomp_level_default(enum pomp_group g) { return groups[g].dflt; }

int pomp_level_parse(enum pomp_group g, const char *value, enum pomp_level *out,
                     const char **allowed)
{
    if (allowed)
        *allowed = groups[g].allowed_names;
    for (size_t i = 0; i < sizeof level_names / sizeof *level_names; i++) {
        if (strcasecmp(value, level_names[i].name) != 0)
            continue;
        if (level_names[i].level != POMP_LEVEL_NONE && !(groups[g].allowed & level_names[i].level))
            return -1;
        *out = level_names[i].level;
        return 0;
    }
    return -1;
}

void pomp_levels_read_environment(void)
{
    for (int g = 0; g < POMP_GROUP_COUNT; g++) {
        char var[32];
        snprintf(var, sizeof var, "POMP_%s", groups[g].name);
        enum pomp_level level = groups[g].dflt;
        const char *v = getenv(var), *allowed;
        if (v && pomp_level_parse((enum pomp_group)g, v, &level, &allowed) != 0) {
            pomp_config_bad_value(var, v, allowed, pomp_level_name(groups[g].dflt));
            level = groups[g].dflt;
        }
        __atomic_store_n(&pomp_active_level[g], (uint8_t)level, __ATOMIC_RELEASE);
    }
    note_value_events();
}

void pomp_levels_set_none(void)
{
    for (int g = 0; g < POMP_GROUP_COUNT; g++)
        __atomic_store_n(&pomp_active_level[g], (uint8_t)POMP_LEVEL_NONE, __ATOMIC_RELEASE);
    note_value_events();
}
