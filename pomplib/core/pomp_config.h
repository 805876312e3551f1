/* Run-time configuration from the environment (docs/environment.md). */
#ifndef POMP_CONFIG_H
#define POMP_CONFIG_H

#include <stdint.h>

#include "pomp_event.h" /* enum pomp_trace_format */
#include "pomp_filter.h"

struct pomp_config {
    int enabled;                       /* POMP_ENABLE: off measures and writes nothing */
    int profile;                       /* POMP_PROFILE: write profile.json */
    const char *output_dir;            /* POMP_OUTPUT_DIR, NULL: pomp-<prog>-<stamp> */
    char start_dir[4096];              /* the working directory then ("": unknown), which a
                                          relative output directory is in: the program may
                                          change its own before the output is written */
    int summary;                       /* POMP_SUMMARY */
    int device_tracing;                /* POMP_DEVICE_TRACING: OMPT device tracing where offered */
    unsigned trace;                    /* POMP_TRACE: enum pomp_trace_format bits, 0: off */
    uint32_t trace_events_per_thread;  /* from POMP_BUFFER_SIZE */
    uint32_t profile_nodes;            /* call-path nodes per thread */
    uint32_t profile_depth;            /* POMP_PROFILE_DEPTH: open regions a thread records */
    uint64_t throttle_visits;          /* POMP_THROTTLE: executions before a region may be throttled
                                          (0: never throttle) */
    uint64_t throttle_ns;              /* ... when their mean time is under this */
    struct pomp_filter filter_include; /* POMP_FILTER_INCLUDE: record only matching regions */
    struct pomp_filter filter_exclude; /* POMP_FILTER_EXCLUDE: never record matching regions */
};

/* Reads the environment; each bad value is reported once on stderr, naming the
 * variable and the allowed values, and replaced by the default. */
void pomp_config_read(struct pomp_config *cfg);

/* Notes the working directory when the library is loaded (its constructor):
 * the configuration, read at the first construct, takes it as the program's
 * start directory. Under pomprun the first construct may come after the
 * program changed directory (a relative POMP_OUTPUT_DIR landed there, and
 * the summary named a directory that was not where it said). */
void pomp_config_note_load_dir(void);

/* The directory paths are shown relative to: the working directory the run
 * started in (the program may change its own before the output is written),
 * else the current one (into buf); NULL if neither is known. */
const char *pomp_config_start_dir(const struct pomp_config *cfg, char *buf, size_t size);

/* Parsers shared with the tests. Each returns 1 on success. */
int pomp_parse_bool(const char *s, int *out);
int pomp_parse_size(const char *s, uint64_t *out); /* "64M", "512k", "4096" */
/* "100000,10us", "off" -> visits (0 for off) and a mean time in ns. */
int pomp_parse_throttle(const char *s, uint64_t *visits, uint64_t *ns);
/* "otf2", "chrome,events", "both", "none" (any case) -> enum pomp_trace_format bits. */
int pomp_parse_trace(const char *s, unsigned *out);

/* One message on stderr for a bad environment value: the variable, the value,
 * what is allowed and the default used instead. */
/* value as a message shows it (into buf): a control byte or one past ASCII
 * as \xNN (an escape sequence reached the terminal), at most its first 200
 * bytes (a 100 KB value made a 100 KB line; a probe). */
#define POMP_CONFIG_SHOWN 840
const char *pomp_config_shown(const char *value, char *buf, size_t size);
void pomp_config_bad_value(const char *var, const char *value, const char *allowed,
                           const char *dflt);

#endif
