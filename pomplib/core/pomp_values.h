/* Integer values recorded with user-region and user events (POMP_*_values,
 * docs/api.md): for each value position the count, sum, minimum and maximum,
 * per call-path node and thread. A node gets a block per kind of event the
 * first time it records values; blocks come from a pool each thread allocates
 * when it registers, so recording takes no lock and no allocation. */
#ifndef POMP_VALUES_H
#define POMP_VALUES_H

#include <pomplib.h>
#include <stdint.h>

#include "pomp_value_stats.h"

struct pomp_node;

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

#endif
