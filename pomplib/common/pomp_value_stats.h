/* Statistics of integer values per call-path node (docs/api.md, user values;
 * device bytes and teams): the data type the core records into
 * (core/pomp_values.h) and the writers read, with the operations on it that
 * need no pool: adding one statistic to another, merging lists, names. */
#ifndef POMP_VALUE_STATS_H
#define POMP_VALUE_STATS_H

#include <pomplib.h>
#include <stddef.h>
#include <stdint.h>

/* Which routine recorded the values; each kind has its own statistics. */
enum pomp_value_kind {
    POMP_VALUES_BEGIN,   /* POMP_User_region_begin_values */
    POMP_VALUES_END,     /* POMP_User_region_end_values */
    POMP_VALUES_EVENT,   /* POMP_User_event_values */
    POMP_VALUES_BYTES,   /* OMPT device data operations: bytes moved or allocated */
    POMP_VALUES_TEAMS,   /* OMPT kernel launches: the number of teams requested */
    POMP_VALUES_KINDS
};

struct pomp_value_stat {
    uint64_t count;
    int64_t sum, min, max;   /* sum saturates at the int64 range (sum_saturated) */
};

struct pomp_value_block {
    struct pomp_value_block *next;  /* the node's blocks of other kinds */
    uint8_t kind;                   /* enum pomp_value_kind */
    uint8_t npos;                   /* positions recorded so far (the most any event gave) */
    uint8_t sum_saturated;          /* bit per position */
    struct pomp_value_stat stat[POMP_MAX_VALUES];
};

/* Adds add into position pos of b (sum saturates, and the block says so). */
static inline void pomp_value_stat_add(struct pomp_value_block *b, int pos,
                                       const struct pomp_value_stat *add)
{
    struct pomp_value_stat *s = &b->stat[pos];
    if (s->count == 0) {
        s->min = add->min;
        s->max = add->max;
    } else {
        if (add->min < s->min)
            s->min = add->min;
        if (add->max > s->max)
            s->max = add->max;
    }
    s->count += add->count;
    if (__builtin_add_overflow(s->sum, add->sum, &s->sum)) {
        /* saturate in the direction of the addend, and remember it */
        s->sum = add->sum > 0 ? INT64_MAX : INT64_MIN;
        b->sum_saturated |= (uint8_t)(1u << pos);
    }
}

/* The block of a kind in a node's list, or NULL. */
static inline struct pomp_value_block *pomp_value_block_find(struct pomp_value_block *list,
                                                             enum pomp_value_kind kind)
{
    for (; list; list = list->next)
        if (list->kind == kind)
            return list;
    return NULL;
}

/* After the run: adds the blocks of src into the list *dst (allocating copies).
 * Returns 0 or -1 when out of memory. */
int pomp_values_merge(struct pomp_value_block **dst, const struct pomp_value_block *src);
void pomp_values_free(struct pomp_value_block *list);

/* "begin", "end", "event": the key of a kind in profile.json and in CTC strings
 * ("beginValues", ...). */
const char *pomp_value_kind_name(enum pomp_value_kind k);

#endif
