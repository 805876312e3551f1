#include "trace_load.h"
#include "report_data.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *dup_str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return strdup(s ? s : "");
}

static uint64_t u64(json_t *o, const char *key)
{
    json_int_t v = json_integer_value(json_object_get(o, key));
    return v > 0 ? (uint64_t)v : 0;
}

static void warn_outside_run(const char *dir, const struct trace_model *m,
                             const struct trace_thread *th);
static void warn_out_of_order(const char *dir, const struct trace_thread *th);
static void warn_extra_files(const char *dir, uint32_t nthreads);

/* The clock of defs.json: its ticks a whole number of 0 or more each (a
 * negative one read as 0), ticks_per_ns a rate a clock can have (1e-300
 * put a 6 ms trace 10^300 years long; a probe): from 1 tick a microsecond
 * to 1000 a nanosecond (a TSC ticks 0.5 to 6 times a ns, CLOCK_MONOTONIC
 * once). Says the first that is not so and its byte offset. */
static int bad_clock(const char *path, json_t *root, json_t *clock)
{
    static const char *const ticks[] = {"start_ticks", "end_ticks", "realtime_start_ns"};
    for (size_t i = 0; i < sizeof ticks / sizeof *ticks; i++) {
        json_t *v = json_object_get(clock, ticks[i]);
        if (v && !(json_is_integer(v) && json_integer_value(v) >= 0)) {
            rp_say_at(path, root, v, "clock.%s is not a whole number of 0 or more", ticks[i]);
            return 1;
        }
    }
    json_t *rate = json_object_get(clock, "ticks_per_ns");
    double r = json_number_value(rate);
    if (!(r >= 1e-3 && r <= 1e3)) {
        rp_say_at(path, root, rate ? rate : clock, "clock.ticks_per_ns is %.6g%s, not a clock's "
                  "rate (0.001 to 1000 ticks a ns)", r, json_is_number(rate) ? "" : " (missing or "
                  "not a number)");
        return 1;
    }
    return 0;
}

int trace_load(const char *dir, struct trace_model *m)
{
    char path[4300];
    memset(m, 0, sizeof *m);
    snprintf(path, sizeof path, "%s/" TRACE_RAW_DIR "/defs.json", dir);
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    json_t *root = rp_load_json(path);
    if (!root)
        return -1;
    int rc = -1;
    const char *format = json_string_value(json_object_get(root, "format"));
    json_t *clock = json_object_get(root, "clock"), *regions = json_object_get(root, "regions"),
           *threads = json_object_get(root, "threads"), *groups = json_object_get(root, "groups");
    if (!format || strcmp(format, "pomp-trace-defs") != 0 ||
        json_integer_value(json_object_get(root, "version")) != 1) {
        fprintf(stderr, "pomp-report: %s: not a pomp trace definition file of version 1\n", path);
        goto out;
    }
    if (!json_is_object(clock) || !json_is_array(regions) || !json_is_array(threads) ||
        !json_is_array(groups) ||
        json_integer_value(json_object_get(root, "record_size")) != (json_int_t)sizeof(struct pomp_event)) {
        rp_say_at(path, root, root, "\"clock\", \"regions\", \"threads\", \"groups\" or "
                                    "\"record_size\" (24) is missing or wrong");
        goto out;
    }
    if (bad_clock(path, root, clock))
        goto out;
    m->program = dup_str(root, "program");
    m->hostname = dup_str(root, "hostname");
    m->pid = (int)json_integer_value(json_object_get(root, "pid"));
    m->clock_source = dup_str(clock, "source");
    m->ticks_per_ns = json_number_value(json_object_get(clock, "ticks_per_ns"));
    m->start_ticks = u64(clock, "start_ticks");
    m->end_ticks = u64(clock, "end_ticks");
    m->realtime_start_ns = u64(clock, "realtime_start_ns");
    m->nregions = (uint32_t)json_array_size(regions);
    m->regions = calloc(m->nregions ? m->nregions : 1, sizeof *m->regions);
    m->nthreads = (uint32_t)json_array_size(threads);
    m->threads = calloc(m->nthreads ? m->nthreads : 1, sizeof *m->threads);
    m->ngroups = (uint32_t)json_array_size(groups);
    m->groups = calloc(m->ngroups ? m->ngroups : 1, sizeof *m->groups);
    if (!m->regions || !m->threads || !m->groups)
        goto oom;
    size_t i;
    json_t *v;
    json_array_foreach(groups, i, v)
        if (!(m->groups[i] = strdup(json_string_value(v) ? json_string_value(v) : "")))
            goto oom;
    json_array_foreach(regions, i, v) {
        struct trace_region *r = &m->regions[i];
        r->id = (uint32_t)u64(v, "id");
        if (r->id != i + 1) {
            rp_say_at(path, root, json_object_get(v, "id") ? json_object_get(v, "id") : v,
                      "regions[%zu] has id %u (ids must be 1, 2, ... in order)", i, r->id);
            goto out;
        }
        r->type = dup_str(v, "type");
        r->name = dup_str(v, "name");
        r->file = dup_str(v, "file");
        r->first_line = (int)json_integer_value(json_object_get(v, "first_line"));
        r->last_line = (int)json_integer_value(json_object_get(v, "last_line"));
        if (!r->type || !r->name || !r->file)
            goto oom;
    }
    json_array_foreach(threads, i, v) {
        struct trace_thread *t = &m->threads[i];
        t->index = (uint32_t)u64(v, "index");
        t->omp_thread_num = (int32_t)json_integer_value(json_object_get(v, "omp_thread_num"));
        t->os_tid = (int32_t)json_integer_value(json_object_get(v, "os_tid"));
        json_t *device = json_object_get(v, "device"); /* a device stream (absent: a thread) */
        t->stream = json_is_integer(device);
        t->device = (int32_t)json_integer_value(device);
        json_int_t host = json_integer_value(json_object_get(v, "host_thread"));
        t->host_thread = host < 0 ? UINT32_MAX : (uint32_t)host;
        t->dropped = u64(v, "dropped");
        json_t *written = json_object_get(v, "events");
        t->written = json_is_integer(written) ? (int64_t)json_integer_value(written) : -1;
        const char *e = json_string_value(json_object_get(v, "error"));
        t->error = e ? strdup(e) : NULL;
    }
    /* a clock span that ends before it starts puts every event at 0 */
    if (m->end_ticks && m->end_ticks <= m->start_ticks) {
        rp_say_at(path, root, json_object_get(clock, "end_ticks"),
                  "clock.end_ticks (%llu) is not after start_ticks (%llu): no time of the trace "
                  "can be placed",
                  (unsigned long long)m->end_ticks, (unsigned long long)m->start_ticks);
        goto out;
    }
    char msg[4600];
    for (uint32_t t = 0; t < m->nthreads; t++) {
        struct trace_thread *th = &m->threads[t];
        if (trace_thread_map(th, dir, m, msg, sizeof msg) != 0) {
            fprintf(stderr, "pomp-report: %s\n", msg);
            goto out;
        }
        warn_outside_run(dir, m, th);
        warn_out_of_order(dir, th);
        if (th->cut) /* a write cut short: its whole records are read */
            fprintf(stderr, "pomp-report: warning: %s/" TRACE_RAW_DIR "/thread-%u.bin: byte offset "
                            "%zu: the file ends inside a record: its %llu whole records are read\n",
                    dir, th->index, th->map_size - th->cut, (unsigned long long)th->count);
        /* a raw file missing, cut at a record's end or written twice reads as a
         * trace, but not as the one recorded: said, never shown as whole */
        if (th->written >= 0 && (uint64_t)th->written != th->count)
            fprintf(stderr, "pomp-report: warning: %s/" TRACE_RAW_DIR "/thread-%u.bin holds %llu "
                            "events, defs.json says %lld were written (the file is missing, cut or "
                            "not this run's): thread %u's timeline is not whole\n",
                    dir, th->index, (unsigned long long)th->count, (long long)th->written, th->index);
    }
    warn_extra_files(dir, m->nthreads);
    rc = 1;
    goto out;
oom:
    fprintf(stderr, "pomp-report: out of memory\n");
out:
    json_decref(root);
    if (rc != 1)
        trace_model_free(m);
    return rc;
}

/* Says n of a thread's records (from record `first`, whose byte offset is
 * named), as one or as many. */
static void warn_records(const char *dir, const struct trace_thread *th, uint64_t first,
                         uint64_t n, const char *one, const char *many)
{
    if (n)
        fprintf(stderr, "pomp-report: warning: %s/" TRACE_RAW_DIR "/thread-%u.bin: byte offset "
                        "%llu: %llu %s\n",
                dir, th->index,
                (unsigned long long)((const char *)&th->events[first] - (const char *)th->map),
                (unsigned long long)n, n == 1 ? one : many);
}

/* A thread's records whose time lies outside the run's clock span by more
 * than the span itself (a damaged record: one at 2^64 - 1 drew an event 280
 * years into a 6 ms trace, without a word); the first one's byte offset. A
 * device stream's clock is the device's, not compared. Said, not dropped. */
static void warn_outside_run(const char *dir, const struct trace_model *m,
                             const struct trace_thread *th)
{
    if (th->stream || !m->end_ticks || m->end_ticks <= m->start_ticks)
        return;
    uint64_t span = m->end_ticks - m->start_ticks;
    uint64_t lo = m->start_ticks > span ? m->start_ticks - span : 0;
    uint64_t hi = m->end_ticks + span < m->end_ticks ? UINT64_MAX : m->end_ticks + span;
    uint64_t outside = 0, first = 0;
    for (uint64_t k = 0; k < th->count; k++)
        if (th->events[k].time < lo || th->events[k].time > hi)
            if (outside++ == 0)
                first = k;
    warn_records(dir, th, first, outside,
                 "record with a time far outside the run's (the file is damaged or not this "
                 "run's): the timeline shows it at its time",
                 "records with a time far outside the run's (the file is damaged or not this "
                 "run's): the timeline shows them at their time");
}


/* A thread's records earlier than one before them: the timelines draw each at
 * the latest time before it (trace_walk), which was done without a word (a
 * probe's swapped records); said once a file, with the first one's offset. */
static void warn_out_of_order(const char *dir, const struct trace_thread *th)
{
    uint64_t latest = 0, early = 0, first = 0;
    for (uint64_t k = 0; k < th->count; k++) {
        if (th->events[k].time < latest && early++ == 0)
            first = k;
        latest = th->events[k].time > latest ? th->events[k].time : latest;
    }
    warn_records(dir, th, first, early,
                 "record earlier than a record before it (out of time order: the file is "
                 "damaged): the timeline draws it at the latest time before",
                 "records earlier than a record before them (out of time order: the file is "
                 "damaged): the timeline draws them at the latest time before");
}

/* Raw files beyond the threads defs.json names: their events are in no
 * timeline (a thread dropped without a word, a probe's damaged defs); each
 * said, none read. */
static void warn_extra_files(const char *dir, uint32_t nthreads)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/" TRACE_RAW_DIR, dir);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        unsigned index;
        int end = 0;
        if (sscanf(e->d_name, "thread-%u.bin%n", &index, &end) == 1 && end > 0 &&
            !e->d_name[end] && index >= nthreads)
            fprintf(stderr, "pomp-report: warning: %s/%s is not in defs.json, which names %u "
                            "thread%s: skipped, its events are in no timeline (a file another run "
                            "left here, or a defs.json that is not this run's)\n",
                    path, e->d_name, nthreads, nthreads == 1 ? "" : "s");
    }
    if (d)
        closedir(d);
}
