/* Integer values recorded with user-region and user events (POMP_*_values,
 * docs/api.md): for each value position the count, sum, minimum and maximum,
 * per call-path node and thread. A node gets a block per kind of event the
 * first time it records values; blocks come from a pool each thread allocates
 * when it registers, so recording takes no lock and no allocation. */
#ifndef POMP_VALUES_H
#define POMP_VALUES_H

#include <pomplib.h>
#include <stdint.h>

struct pomp_node;

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

/* Blocks per thread: one per (call-path node, kind) that records values. */
#define POMP_VALUE_BLOCKS 32

struct pomp_value_pool {
    struct pomp_value_block *blocks;
    uint32_t used, size;
    uint64_t dropped;   /* value lists that found the pool full */
};

int pomp_value_pool_init(struct pomp_value_pool *vp, uint32_t size);
void pomp_value_pool_destroy(struct pomp_value_pool *vp);

/* Adds n values (n <= POMP_MAX_VALUES) of a kind to node's statistics. Hot
 * path: no lock, no allocation. Returns 0, or -1 when the pool is full. */
int pomp_values_add(struct pomp_value_pool *vp, struct pomp_node *node, enum pomp_value_kind kind,
                    int32_t n, const POMP_Int64 *values);

/* After the run: adds the blocks of src into the list *dst (allocating copies).
 * Returns 0 or -1 when out of memory. */
int pomp_values_merge(struct pomp_value_block **dst, const struct pomp_value_block *src);
void pomp_values_free(struct pomp_value_block *list);

/* "begin", "end", "event": the key of a kind in profile.json and in CTC strings
 * ("beginValues", ...). */
const char *pomp_value_kind_name(enum pomp_value_kind k);

#endif
