/* The raw trace files (POMP_TRACE): each thread writes its own buffer
 * (core/pomp_eventlog.h) to OUTPUT_DIR/trace-raw/thread-<i>.bin when it is
 * full, and the finalizer writes what is left. output/pomp_trace.c converts
 * them after the run. */
#ifndef POMP_TRACE_BUFFER_H
#define POMP_TRACE_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "pomp_eventlog.h"

/* OUTPUT_DIR/trace-raw/thread-<thread>.bin (the directories are made once). */
void pomp_trace_raw_path(uint32_t thread, char *buf, size_t size);

/* At finalization: writes what is left in the buffer to the raw file.
 * Returns 0 or an errno (the events are then counted as dropped). */
int pomp_eventlog_finish(struct pomp_eventlog *l, uint32_t thread);

#endif
