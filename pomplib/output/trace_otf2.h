/* Writes DIR/traces.otf2 (with DIR/traces.def and DIR/traces/) from a trace. */
#ifndef POMP_TRACE_OTF2_H
#define POMP_TRACE_OTF2_H

#include "trace_model.h"

/* Returns 0 (err: empty, or a note of what the trace leaves out), or -1 with
 * a message in err. */
int trace_otf2_write(const struct trace_model *m, const char *dir, char *err, size_t errsize);

#endif
