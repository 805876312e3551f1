/* The Chrome/Perfetto JSON trace (trace.json; docs/output.md): one track per
 * thread, B/E pairs for regions (well nested per thread), instant events for
 * single events, the event group as category, file and line in args. */
#ifndef POMP_TRACE_CHROME_H
#define POMP_TRACE_CHROME_H

#include <stdio.h>

#include "trace_model.h"

/* Writes the whole JSON document to f. Returns 0, or -1 (out of memory). */
int trace_chrome_write(const struct trace_model *m, FILE *f);

#endif
