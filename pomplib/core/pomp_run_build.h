/* The hand-over from the core to the writers: once recording has stopped, the
 * live records (threads, regions, devices, samples, raw trace files) become
 * the finished data of output/pomp_run.h. */
#ifndef POMP_RUN_BUILD_H
#define POMP_RUN_BUILD_H

#include "pomp_clock.h"
#include "pomp_config.h"
#include "pomp_run.h"

/* Finishes the threads' raw trace files (POMP_TRACE), merges the profiles and
 * takes the devices and samples. Returns 0, or -1 after saying on stderr what
 * failed (out of memory while merging): run must be freed either way. */
int pomp_run_build(struct pomp_run *run, const struct pomp_config *cfg,
                   const struct pomp_clock *clock);
void pomp_run_free(struct pomp_run *run);

#endif
