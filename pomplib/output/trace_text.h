/* events.log (POMP_TRACE=events): the raw records as text, one per line. */
#ifndef POMP_TRACE_TEXT_H
#define POMP_TRACE_TEXT_H

#include <stdio.h>

#include "trace_model.h"

void trace_text_write(const struct trace_model *m, FILE *f);

#endif
