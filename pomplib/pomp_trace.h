/* Traces (POMP_TRACE): the per-thread raw files written while the program
 * runs (pomp_trace_buffer.c), and at finalization the definitions
 * (trace-raw/defs.json) and the conversion to the formats asked for:
 * events.log, traces.otf2, trace.json (pomp_trace.c). docs/output.md. */
#ifndef POMP_TRACE_H
#define POMP_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "pomp_clock.h"
#include "pomp_config.h"
#include "pomp_eventlog.h"

/* OUTPUT_DIR/trace-raw/thread-<thread>.bin (the directories are made once). */
void pomp_trace_raw_path(uint32_t thread, char *buf, size_t size);

/* At finalization: writes what is left in the buffer and closes the raw file.
 * Returns 0 or an errno (the events are then counted as dropped). */
int pomp_eventlog_finish(struct pomp_eventlog *l, uint32_t thread);

struct pomp_trace_result {
    uint64_t events, dropped;
    uint32_t flushes, threads;
    uint32_t no_buffer;        /* threads whose buffer could not be allocated */
    char files[256];           /* "traces.otf2, trace.json" */
};

/* Finishes every thread's raw file, writes trace-raw/defs.json and the formats
 * of cfg->trace into dir; errors go to stderr. */
void pomp_trace_write(const struct pomp_config *cfg, const struct pomp_clock *clock,
                      const char *dir, struct pomp_trace_result *res);

/* The summary's trace line, and a warning about lost events (printed even
 * without the summary: nothing is lost silently). */
void pomp_trace_report(FILE *f, const struct pomp_trace_result *res, const char *dir, int summary);

#endif
