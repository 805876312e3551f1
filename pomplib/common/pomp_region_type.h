/* What a region's type (its CTC type, as profile.json writes it) says about
 * its time: shared by the summary at exit and pomp-report, so that the two
 * read the same regions as waits. */
#ifndef POMP_REGION_TYPE_H
#define POMP_REGION_TYPE_H

#include <string.h>

/* A call that takes a lock (omp_set_lock, omp_set_nest_lock): its time is the
 * wait for the lock. Not omp_unset_*, whose name holds "set_lock" too. */
static inline int pomp_type_sets_lock(const char *type)
{
    return type && (strstr(type, "set_lock") || strstr(type, "set_nest_lock")) &&
           !strstr(type, "unset");
}

/* A site whose time holds a wait to enter a mutual exclusion: a critical, an
 * ordered block, a lock taken. */
static inline int pomp_type_waits_to_enter(const char *type)
{
    return type && (strcmp(type, "critical") == 0 || strcmp(type, "ordered") == 0 ||
                    pomp_type_sets_lock(type));
}

#endif
