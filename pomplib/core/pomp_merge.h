/* Merging the per-thread call-path trees into one tree whose nodes carry a
 * column per thread (struct pomp_merged, the writers' type). A worker's tree
 * starts at the parallel region it joined; it is grafted under the node where
 * a thread entered that region (docs/output.md). Runs after recording stopped. */
#ifndef POMP_MERGE_H
#define POMP_MERGE_H

#include "pomp_run.h"

/* Merges every thread's profile into m, with the descriptions of the regions
 * and threads. Returns 0, or -1 when out of memory (m is then partial: free it). */
int pomp_merge(struct pomp_merged *m);
void pomp_merged_free(struct pomp_merged *m);

#endif
