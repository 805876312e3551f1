#include "pomp_config.h"

#include <ctype.h>
#include <unistd.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pomp_event.h"
#include "pomp_profile.h"

int pomp_parse_bool(const char *s, int *out)
{
    static const char *const yes[] = {"1", "on", "yes", "true"};
    static const char *const no[] = {"0", "off", "no", "false"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(s, yes[i]) == 0)
            return *out = 1, 1;
        if (strcasecmp(s, no[i]) == 0)
            return *out = 0, 1;
    }
    return 0;
}

int pomp_parse_size(const char *s, uint64_t *out)
{
    char *end;
    if (!isdigit((unsigned char)*s))
        return 0;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    int too_big = errno == ERANGE;
    uint64_t mult = 1;
    switch (tolower((unsigned char)*end)) {
    case '\0': break;
    case 'b': break; /* plain bytes: "4096B" */
    case 'k': mult = 1ull << 10; end++; break;
    case 'm': mult = 1ull << 20; end++; break;
    case 'g': mult = 1ull << 30; end++; break;
    default: return 0;
    }
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end != '\0')
        return 0;
    /* more than 64 bits hold (99999999999999999999, 17179869184G): the largest
     * value, which every caller's bound cuts or refuses as too large, said as
     * such (it was "not valid", where 1000G was cut) */
    *out = too_big || v > UINT64_MAX / mult ? UINT64_MAX : (uint64_t)v * mult;
    return 1;
}

int pomp_parse_throttle(const char *s, uint64_t *visits, uint64_t *ns)
{
    int on;
    if (pomp_parse_bool(s, &on) && !on) {
        *visits = 0;
        *ns = 0;
        return 1;
    }
    char *end;
    if (!isdigit((unsigned char)*s)) /* strtoull takes "-1000" (as 2^64 - 1000) and " 1000" */
        return 0;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end != ',' || v < 1000)
        return 0;
    const char *t = end + 1;
    double d = strtod(t, &end);
    if (strspn(t, "0123456789.") != (size_t)(end - t)) /* plain decimals only (not 0x10, 1e3) */
        return 0;
    static const struct {
        const char *unit;
        double ns;
    } units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    for (size_t i = 0; end != t && d > 0 && i < sizeof units / sizeof *units; i++)
        if (strcasecmp(end, units[i].unit) == 0 && d * units[i].ns <= 1e9 &&
            d * units[i].ns >= 1) { /* 0.5ns was taken, as 0: no region ever throttled */
            *visits = v;
            *ns = (uint64_t)(d * units[i].ns);
            return 1;
        }
    return 0;
}

int pomp_parse_trace(const char *s, unsigned *out)
{
    static const struct {
        const char *name;
        unsigned bits;
    } formats[] = {
        {"none", POMP_TRACE_NONE},   {"events", POMP_TRACE_EVENTS},
        {"otf2", POMP_TRACE_OTF2},   {"chrome", POMP_TRACE_CHROME},
        {"both", POMP_TRACE_OTF2 | POMP_TRACE_CHROME},
    };
    unsigned bits = 0;
    int none_seen = 0, items = 0;
    if (!*s)
        return 0;
    while (*s) { /* a comma-separated list of formats */
        size_t len = strcspn(s, ","), i;
        for (i = 0; i < sizeof formats / sizeof *formats; i++)
            if (strlen(formats[i].name) == len && strncasecmp(s, formats[i].name, len) == 0)
                break;
        if (i == sizeof formats / sizeof *formats)
            return 0;
        none_seen |= formats[i].bits == POMP_TRACE_NONE;
        items++;
        bits |= formats[i].bits;
        s += len;
        if (*s == ',' && *++s == '\0')
            return 0; /* a trailing comma */
    }
    /* "none" beside a format is no list: which was meant? (taken as the
     * format, silently; a probe) */
    if (none_seen && items > 1)
        return 0;
    *out = bits;
    return 1;
}

const char *pomp_config_shown(const char *value, char *buf, size_t size)
{
    enum { SHOWN = 200 };
    size_t len = strlen(value), n = 0;
    for (size_t i = 0; i < len && i < SHOWN && n + 5 < size; i++) {
        unsigned char c = (unsigned char)value[i];
        if (c < 0x20 || c >= 0x7f)
            n += (size_t)snprintf(buf + n, size - n, "\\x%02x", c);
        else
            buf[n++] = (char)c;
    }
    buf[n] = '\0';
    if (len > SHOWN && n + 24 < size)
        snprintf(buf + n, size - n, "... (%zu bytes)", len);
    return buf;
}

void pomp_config_bad_value(const char *var, const char *value, const char *allowed, const char *dflt)
{
    char shown[POMP_CONFIG_SHOWN];
    fprintf(stderr, "pomp: %s='%s' is not valid (allowed: %s); using %s\n", var,
            pomp_config_shown(value, shown, sizeof shown), allowed, dflt);
}

/* The working directory when the library was loaded (pomp_config_note_load_dir),
 * "" before or when unknown: written once, by the loading thread, before any
 * construct reads the configuration. */
static char load_dir[4096];

/* A count from the environment variable var, within [min, max] (k, M, G
 * suffixes): *field keeps its default when it is unset, or bad (said). */
static void read_count(const char *var, uint64_t min, uint64_t max, uint32_t *field,
                       const char *allowed, const char *dflt)
{
    const char *v = getenv(var);
    uint64_t n;
    if (!v)
        return;
    if (pomp_parse_size(v, &n) && n >= min && n <= max)
        *field = (uint32_t)n;
    else
        pomp_config_bad_value(var, v, allowed, dflt);
}

void pomp_config_read(struct pomp_config *cfg)
{
    enum { DEFAULT_BUFFER = 16 << 20, MIN_BUFFER = 4096, MAX_BUFFER_EVENTS = 1u << 30 };
    /* call-path nodes per thread: grown on demand (a new path only), up to this */
    enum { DEFAULT_PROFILE_NODES = 1 << 20, MIN_PROFILE_NODES = 64, MAX_PROFILE_NODES = 1u << 30 };
    /* open regions per thread: the frame stack grows on demand up to this */
    enum { MAX_PROFILE_DEPTH = 1 << 20 };
    cfg->output_dir = NULL;
    cfg->enabled = 1;
    cfg->profile = 1;
    cfg->summary = 1;
    cfg->device_tracing = 1;
    cfg->trace = POMP_TRACE_NONE;
    cfg->trace_events_per_thread = DEFAULT_BUFFER / sizeof(struct pomp_event);
    cfg->profile_nodes = DEFAULT_PROFILE_NODES;
    cfg->profile_depth = POMP_DEFAULT_DEPTH;
    cfg->throttle_visits = 100000; /* TAU's rule: 100,000 calls under 10 us each */
    cfg->throttle_ns = 10000;
    cfg->filter_include = (struct pomp_filter){0};
    cfg->filter_exclude = (struct pomp_filter){0};

    /* the master switch first: off, nothing else is read, so nothing is said
     * (docs: nothing written or printed; eleven variables' bad values were
     * said under it, four others' not; a probe) */
    const char *v = getenv("POMP_ENABLE");
    if (v && pomp_parse_bool(v, &cfg->enabled) && !cfg->enabled)
        return;
    cfg->enabled = 1;
    v = getenv("POMP_OUTPUT_DIR");
    if (v && *v)
        cfg->output_dir = v;
    if (load_dir[0]) /* (the program may have changed directory since) */
        memcpy(cfg->start_dir, load_dir, sizeof cfg->start_dir);
    else if (!getcwd(cfg->start_dir, sizeof cfg->start_dir))
        cfg->start_dir[0] = '\0';

    static const struct {
        const char *var;
        size_t field;
    } switches[] = {
        {"POMP_ENABLE", offsetof(struct pomp_config, enabled)},
        {"POMP_PROFILE", offsetof(struct pomp_config, profile)},
        {"POMP_SUMMARY", offsetof(struct pomp_config, summary)},
        {"POMP_DEVICE_TRACING", offsetof(struct pomp_config, device_tracing)},
    };
    for (size_t i = 0; i < sizeof switches / sizeof *switches; i++) {
        int *field = (int *)((char *)cfg + switches[i].field);
        v = getenv(switches[i].var);
        if (v && !pomp_parse_bool(v, field)) {
            pomp_config_bad_value(switches[i].var, v, "on, off, yes, no, true, false, 1, 0", "on");
            *field = 1;
        }
    }

    v = getenv("POMP_TRACE");
    if (v && !pomp_parse_trace(v, &cfg->trace)) {
        pomp_config_bad_value("POMP_TRACE", v, "none, otf2, chrome, both, events, or a comma-separated list",
                  "none");
        cfg->trace = POMP_TRACE_NONE;
    }

    static const struct {
        const char *var, *dflt;
        size_t field;
    } filters[] = {
        {"POMP_FILTER_INCLUDE", "every region", offsetof(struct pomp_config, filter_include)},
        {"POMP_FILTER_EXCLUDE", "no exclusion", offsetof(struct pomp_config, filter_exclude)},
    };
    for (size_t i = 0; i < sizeof filters / sizeof *filters; i++) {
        v = getenv(filters[i].var);
        if (v && pomp_filter_parse(v, (struct pomp_filter *)((char *)cfg + filters[i].field)) != 0)
            pomp_config_bad_value(filters[i].var, v,
                      "a comma-separated list of [type:|name:|file:]<glob>, e.g. type:atomic,file:*.h "
                      "(a glob's '[' needs its ']', and a ',' ends the rule)",
                      filters[i].dflt);
    }

    read_count("POMP_PROFILE_NODES", MIN_PROFILE_NODES, MAX_PROFILE_NODES, &cfg->profile_nodes,
               "a number of call-path nodes per thread from 64 to 1G, with k, M or G", "1M");
    read_count("POMP_PROFILE_DEPTH", POMP_FIRST_DEPTH, MAX_PROFILE_DEPTH, &cfg->profile_depth,
               "a number of nested regions per thread from 256 to 1M, with k or M", "16k");

    v = getenv("POMP_THROTTLE");
    if (v && !pomp_parse_throttle(v, &cfg->throttle_visits, &cfg->throttle_ns)) {
        pomp_config_bad_value("POMP_THROTTLE", v,
                              "off, or EXECUTIONS,MEAN such as 100000,10us (at least 1000 executions, "
                              "a mean of 1ns to 1s)",
                              "100000,10us");
        cfg->throttle_visits = 100000;
        cfg->throttle_ns = 10000;
    }

    v = getenv("POMP_BUFFER_SIZE");
    if (v && !cfg->trace) /* (a probe: accepted without a word) */
        fprintf(stderr, "pomp: note: POMP_BUFFER_SIZE sizes the trace buffer, and no trace is "
                        "written (POMP_TRACE): it has no effect\n");
    if (v) {
        uint64_t bytes;
        if (pomp_parse_size(v, &bytes) && bytes >= MIN_BUFFER) {
            uint64_t events = bytes / sizeof(struct pomp_event);
            if (events > MAX_BUFFER_EVENTS)
                fprintf(stderr, "pomp: POMP_BUFFER_SIZE='%s' is more than a thread's trace buffer "
                                "holds: %llu bytes (2^30 events) per thread are used\n",
                        pomp_config_shown(v, (char[POMP_CONFIG_SHOWN]){0}, POMP_CONFIG_SHOWN),
                        (unsigned long long)MAX_BUFFER_EVENTS * sizeof(struct pomp_event));
            cfg->trace_events_per_thread =
                (uint32_t)(events > MAX_BUFFER_EVENTS ? MAX_BUFFER_EVENTS : events);
        } else {
            pomp_config_bad_value("POMP_BUFFER_SIZE", v, "a byte count of at least 4096, with k, M or G", "16M");
        }
    }
}

void pomp_config_note_load_dir(void)
{
    if (!getcwd(load_dir, sizeof load_dir))
        load_dir[0] = '\0';
}

const char *pomp_config_start_dir(const struct pomp_config *cfg, char *buf, size_t size)
{
    if (cfg->start_dir[0])
        return cfg->start_dir;
    return getcwd(buf, size);
}
