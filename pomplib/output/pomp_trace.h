/* Traces (POMP_TRACE) at finalization: the definitions of the run
 * (trace-raw/defs.json) beside the raw files the core wrote
 * (core/pomp_trace_buffer.h), and the conversion to the formats asked for:
 * events.log, traces.otf2, trace.json. docs/output.md. */
#ifndef POMP_TRACE_H
#define POMP_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "pomp_run.h"

struct pomp_trace_result {
    uint64_t events, dropped;
    uint32_t flushes, threads;
    uint32_t no_buffer;        /* threads whose buffer could not be allocated */
    int defs_written;          /* trace-raw/defs.json is there to look at */
    char files[256];           /* "traces.otf2, trace.json" */
};

/* Writes trace-raw/defs.json and the formats of run->trace into run->dir
 * (the raw files are finished); errors go to stderr. */
void pomp_trace_write(const struct pomp_run *run, struct pomp_trace_result *res);

/* The summary's trace line, and a warning about lost events (printed even
 * without the summary: nothing is lost silently). */
void pomp_trace_report(FILE *f, const struct pomp_trace_result *res, const char *dir, int summary,
                       int profile_written);

#endif
