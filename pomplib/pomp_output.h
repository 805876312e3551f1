/* What libpomp leaves behind at finalization: the output directory with
 * profile.json, the trace files (POMP_TRACE), and the summary on stderr.
 * Formats: docs/output.md. */
#ifndef POMP_OUTPUT_H
#define POMP_OUTPUT_H

#include "pomp_clock.h"
#include "pomp_config.h"

#include <stdio.h>

void pomp_output_write(const struct pomp_config *cfg, const struct pomp_clock *clock);


/* The output directory, created on the first call (a trace flush or the
 * finalizer); *err is the errno of a failed mkdir, else 0. */
const char *pomp_output_dir(int *err);

#endif
