/* Merging the per-thread call-path trees into one tree whose nodes carry a
 * column per thread. A worker's tree starts at the parallel region it joined;
 * it is grafted under the node where a thread entered that region (docs/output.md). */
#ifndef POMP_MERGE_H
#define POMP_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "pomp_values.h"

struct pomp_thread;

struct pomp_stat {
    uint64_t visits, begins, incl, excl, min, max, body; /* ticks; min is 0 when unvisited */
    uint64_t samples_work, samples_wait;
    struct pomp_value_block *values; /* user values (pomp_values.h): copies owned here */
};

struct pomp_mnode {
    struct POMP_Region_s *region;   /* NULL for the root (index 0) and for "<overflow>" */
    size_t parent;
    size_t first_child, next_sibling; /* 0 means none */
    int overflow;
};

struct pomp_merged {
    uint32_t nthreads;
    struct pomp_thread **threads;   /* by thread index */
    size_t count, capacity;
    struct pomp_mnode *nodes;
    struct pomp_stat *stats;        /* count * nthreads, row-major by node */
};

int pomp_merge(struct pomp_merged *m);
void pomp_merged_free(struct pomp_merged *m);
static inline struct pomp_stat *pomp_merged_stat(const struct pomp_merged *m, size_t node,
                                                 uint32_t thread)
{
    return &m->stats[node * m->nthreads + thread];
}

#endif
