/* pomp-report: the sampling section of a profile. */
#ifndef REPORT_SAMPLING_H
#define REPORT_SAMPLING_H

#include <jansson.h>

/* Prints OpenMP Work/Wait and the max_paths most sampled call paths; nothing
 * when the profile has no "sampling" member. */
void report_sampling(json_t *root, int max_paths);

#endif
