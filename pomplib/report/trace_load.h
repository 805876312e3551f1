/* pomp-report's view of a run's trace: DIR/trace-raw/defs.json and the raw
 * per-thread files, as a struct trace_model (pomplib/trace_model.h). */
#ifndef POMP_TRACE_LOAD_H
#define POMP_TRACE_LOAD_H

#include "trace_model.h"

/* Returns 1 with the model filled, 0 when DIR has no trace, -1 after printing
 * what is wrong with it. */
int trace_load(const char *dir, struct trace_model *m);

#endif
