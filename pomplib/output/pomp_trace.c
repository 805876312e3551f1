/* Finalization of a trace: the definitions of the run (regions, threads,
 * clock) written beside the raw files, then the conversion. The converters
 * read the raw files back from disk, as pomp-report does later, so both see
 * the same thing. */
#include "pomp_trace.h"
#include "pomp_json.h"
#include "pomp_owned.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace_chrome.h"
#include "trace_model.h"
#include "trace_otf2.h"
#include "trace_text.h"

static char *dup_or_empty(const char *s) { return strdup(s ? s : ""); }

/* The model of this run from the finished data; the events come from the raw
 * files (mapped later). Threads are in index order. */
static int model_from_run(struct trace_model *m, const struct pomp_run *run)
{
    const struct pomp_clock *clock = &run->clock;
    const struct pomp_merged *p = &run->profile;
    memset(m, 0, sizeof *m);
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    m->program = strdup(run->program);
    m->hostname = strdup(host);
    m->pid = run->pid;
    m->clock_source = strdup(clock->source);
    /* the rate as defs.json writes it (%.9f): pomp-report's converter reads that
     * value back, and both must give the same timestamps, digit for digit */
    char rate[64];
    snprintf(rate, sizeof rate, "%.9f", clock->ticks_per_ns);
    m->ticks_per_ns = strtod(rate, NULL);
    m->start_ticks = clock->start_ticks;
    m->end_ticks = clock->end_ticks;
    struct timespec real;
    clock_gettime(CLOCK_REALTIME, &real);
    uint64_t real_now = (uint64_t)real.tv_sec * 1000000000u + (uint64_t)real.tv_nsec;
    uint64_t since_start = pomp_monotonic_ns() - clock->start_ns;
    m->realtime_start_ns = real_now > since_start ? real_now - since_start : 0;

    m->nregions = p->nregions;
    m->regions = calloc(m->nregions ? m->nregions : 1, sizeof *m->regions);
    m->threads = calloc(p->nthreads ? p->nthreads : 1, sizeof *m->threads);
    m->groups = calloc(run->ngroups ? run->ngroups : 1, sizeof *m->groups);
    if (!m->program || !m->hostname || !m->clock_source || !m->regions || !m->threads || !m->groups)
        return -1;
    for (uint32_t i = 0; i < p->nregions; i++) {
        const struct pomp_run_region *r = &p->regions[i];
        if (!r->id)
            continue;
        struct trace_region *tr = &m->regions[r->id - 1];
        tr->id = r->id;
        tr->type = strdup(r->type);
        tr->name = dup_or_empty(r->ctc.name);
        tr->file = dup_or_empty(r->ctc.file);
        tr->first_line = r->ctc.start_line_first;
        tr->last_line = r->ctc.end_line_last;
        if (!tr->type || !tr->name || !tr->file)
            return -1;
    }
    for (uint32_t i = 0; i < m->nregions; i++)
        if (!m->regions[i].type) /* cannot happen: ids are dense */
            return -1;
    m->nthreads = p->nthreads;
    for (uint32_t i = 0; i < p->nthreads; i++) {
        const struct pomp_run_thread *t = &p->threads[i];
        m->threads[i] = (struct trace_thread){.index = t->index,
                                              .omp_thread_num = t->omp_thread_num,
                                              .os_tid = (int32_t)t->os_tid,
                                              .stream = t->device >= 0,
                                              .device = t->device,
                                              .host_thread = t->host_thread,
                                              .dropped = t->log_dropped};
        if (t->log_error)
            m->threads[i].error = strdup(trace_raw_error_text(t->log_error));
    }
    m->ngroups = run->ngroups;
    for (uint32_t g = 0; g < run->ngroups; g++)
        if (!(m->groups[g] = strdup(run->group_names[g])))
            return -1;
    return 0;
}

static int write_defs(const char *dir, const struct trace_model *m,
                      const struct pomp_run_thread *threads)
{
    char path[4300], tmp[4400];
    /* its directory, which the threads' raw files may not have made: where it
     * cannot be made, its reason is the error (a read-only file system was
     * said as "No such file or directory", the missing directory; a probe) */
    snprintf(path, sizeof path, "%s/" TRACE_RAW_DIR, dir);
    if (pomp_mkdir_owned(path) != 0 && errno != EEXIST)
        return -1;
    snprintf(path, sizeof path, "%s/" TRACE_RAW_DIR "/defs.json", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid()); /* one per run: two runs into one directory */
    FILE *f = pomp_fopen_owned(tmp);
    if (!f)
        return -1;
    fputs("{\n  \"format\": \"pomp-trace-defs\",\n  \"version\": 1,\n  \"program\": ", f);
    pomp_json_string(f, m->program);
    fputs(",\n  \"hostname\": ", f);
    pomp_json_string(f, m->hostname);
    fprintf(f,
            ",\n  \"pid\": %d,\n  \"record_size\": %zu,\n"
            "  \"clock\": {\"source\": \"%s\", \"ticks_per_ns\": %.9f, \"start_ticks\": %llu, "
            "\"end_ticks\": %llu, \"realtime_start_ns\": %llu},\n  \"groups\": [",
            m->pid, sizeof(struct pomp_event), m->clock_source, m->ticks_per_ns,
            (unsigned long long)m->start_ticks, (unsigned long long)m->end_ticks,
            (unsigned long long)m->realtime_start_ns);
    for (uint32_t g = 0; g < m->ngroups; g++)
        fprintf(f, "%s\"%s\"", g ? ", " : "", m->groups[g]);
    fputs("],\n  \"event_kinds\": [", f);
    for (unsigned k = 0; k < POMP_EV_COUNT; k++)
        fprintf(f, "%s\"%s\"", k ? ", " : "", pomp_event_name(k));
    fprintf(f, "],\n  \"library_kinds\": {\"%u\": \"%s\", \"%u\": \"%s\"},\n  \"regions\": [",
            (unsigned)POMP_EV_TRACE_FLUSH, pomp_event_name(POMP_EV_TRACE_FLUSH),
            (unsigned)POMP_EV_TRACE_GAP, pomp_event_name(POMP_EV_TRACE_GAP));
    for (uint32_t i = 0; i < m->nregions; i++) {
        const struct trace_region *r = &m->regions[i];
        fprintf(f, "%s\n    {\"id\": %u, \"type\": ", i ? "," : "", r->id);
        pomp_json_string(f, r->type);
        fputs(", \"name\": ", f);
        pomp_json_string(f, r->name);
        fputs(", \"file\": ", f);
        pomp_json_string(f, r->file);
        fprintf(f, ", \"first_line\": %d, \"last_line\": %d}", r->first_line, r->last_line);
    }
    fputs("\n  ],\n  \"threads\": [", f);
    for (uint32_t i = 0; i < m->nthreads; i++) {
        const struct trace_thread *t = &m->threads[i];
        const struct pomp_run_thread *l = &threads[i];
        fprintf(f,
                "%s\n    {\"index\": %u, \"omp_thread_num\": %d, \"os_tid\": %d, "
                "\"file\": \"thread-%u.bin\", \"events\": %llu, \"flushes\": %u, "
                "\"dropped\": %llu, \"error\": ",
                i ? "," : "", t->index, t->omp_thread_num, t->os_tid, t->index,
                (unsigned long long)l->log_written, l->log_flushes, (unsigned long long)l->log_dropped);
        if (t->error)
            pomp_json_string(f, t->error);
        else
            fputs("null", f);
        if (t->stream)
            fprintf(f, ", \"device\": %d, \"host_thread\": %lld", t->device,
                    t->host_thread == UINT32_MAX ? -1LL : (long long)t->host_thread);
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Writes one output file through a temporary name. */
static int write_file(const char *dir, const char *name, const struct trace_model *m,
                      int (*writer)(const struct trace_model *, FILE *))
{
    char path[4300], tmp[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid()); /* one per run: two runs into one directory */
    FILE *f = pomp_fopen_owned(tmp);
    if (!f) {
        fprintf(stderr, "pomp: error: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = writer(m, f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rc != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "pomp: error: cannot write %s: %s\n", path,
                rc ? "out of memory" : strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int text_writer(const struct trace_model *m, FILE *f)
{
    trace_text_write(m, f);
    return 0;
}

static void add_file(struct pomp_trace_result *res, const char *name)
{
    size_t n = strlen(res->files);
    snprintf(res->files + n, sizeof res->files - n, "%s%s", n ? ", " : "", name);
}

/* A trace of this many events or more is said before its files are written. */
#define TRACE_EVENTS_SAID 10000000ull

void pomp_trace_write(const struct pomp_run *run, struct pomp_trace_result *res)
{
    memset(res, 0, sizeof *res);
    const struct pomp_merged *p = &run->profile;
    const char *dir = run->dir;
    struct trace_model m = {0};
    for (uint32_t i = 0; i < p->nthreads; i++) {
        res->events += p->threads[i].log_written;
        res->dropped += p->threads[i].log_dropped;
        res->flushes += p->threads[i].log_flushes;
        res->no_buffer += !p->threads[i].has_log;
    }
    res->threads = p->nthreads;
    if (model_from_run(&m, run) != 0) {
        fprintf(stderr, "pomp: error: out of memory while writing the trace\n");
        trace_model_free(&m);
        return;
    }
    if (write_defs(dir, &m, p->threads) != 0) {
        fprintf(stderr, "pomp: error: cannot write %s/" TRACE_RAW_DIR "/defs.json: %s\n", dir,
                strerror(errno));
        trace_model_free(&m);
        return;
    }
    res->defs_written = 1;
    /* writing the formats takes seconds per ten million events (a probe: 59
     * million events, 39 s at exit without a word, read as a hang and killed
     * by a batch limit): said before, so that the wait reads as work */
    if (res->events >= TRACE_EVENTS_SAID && (run->trace & (POMP_TRACE_EVENTS | POMP_TRACE_OTF2 |
                                                           POMP_TRACE_CHROME)))
        fprintf(stderr, "pomp: note: writing the trace's %.1f million events%s%s%s in %s/ at exit: "
                        "this takes a while\n",
                res->events / 1e6, run->trace & POMP_TRACE_EVENTS ? " (events.log)" : "",
                run->trace & POMP_TRACE_OTF2 ? " (OTF2)" : "",
                run->trace & POMP_TRACE_CHROME ? " (trace.json)" : "", dir);
    char err[4600];
    for (uint32_t i = 0; i < p->nthreads; i++)
        if (trace_thread_map(&m.threads[i], dir, &m, err, sizeof err) != 0)
            fprintf(stderr, "pomp: error: %s\n", err);
        else if (m.threads[i].cut)
            fprintf(stderr, "pomp: warning: %s/" TRACE_RAW_DIR "/thread-%u.bin: byte offset %zu: "
                            "the file ends inside a record (a write cut short): its %llu whole "
                            "records are in the trace, the rest of the thread's events are not\n",
                    dir, i, m.threads[i].map_size - m.threads[i].cut,
                    (unsigned long long)m.threads[i].count);
        else if (m.threads[i].count != p->threads[i].log_written &&
                 p->threads[i].log_error == TRACE_RAW_REPLACED)
            /* (said when it was found; the file there now is not this run's) */
            fprintf(stderr, "pomp: warning: %s/" TRACE_RAW_DIR "/thread-%u.bin is not the file "
                            "this run wrote (it was removed or replaced while the program ran): "
                            "thread %u's timeline in the trace is not whole\n",
                    dir, i, i);
        else if (m.threads[i].count != p->threads[i].log_written)
            /* another run that writes the same directory at once empties the
             * raw files and writes its own (a probe: this run's events.log
             * then held the other's records and 50,000 zeroed ones, unsaid) */
            fprintf(stderr, "pomp: warning: %s/" TRACE_RAW_DIR "/thread-%u.bin holds %llu records, "
                            "this run wrote %llu: the file is not (only) this run's (another "
                            "run writing %s at the same time? POMP_OUTPUT_DIR=...%%p gives each "
                            "its own): thread %u's timeline in the trace is not whole\n",
                    dir, i, (unsigned long long)m.threads[i].count,
                    (unsigned long long)p->threads[i].log_written, dir, i);
    if ((run->trace & POMP_TRACE_EVENTS) && write_file(dir, "events.log", &m, text_writer) == 0)
        add_file(res, "events.log");
    if ((run->trace & POMP_TRACE_OTF2) && m.nthreads == 0) {
        /* an archive without a location is one OTF2's readers refuse
         * (otf2-print: "Find location definitions"; a probe) */
        fprintf(stderr, "pomp: note: no thread recorded an event: no OTF2 archive written (it "
                        "would have no location)\n");
    } else if (run->trace & POMP_TRACE_OTF2) {
        if (trace_otf2_write(&m, dir, err, sizeof err) == 0) {
            add_file(res, "traces.otf2");
            if (*err)
                fprintf(stderr, "pomp: note: %s\n", err);
        } else
            fprintf(stderr, "pomp: error: %s\n", err);
    }
    if ((run->trace & POMP_TRACE_CHROME) &&
        write_file(dir, "trace.json", &m, trace_chrome_write) == 0)
        add_file(res, "trace.json");
    trace_model_free(&m);
}

void pomp_trace_report(FILE *f, const struct pomp_trace_result *res, const char *dir, int summary,
                       int profile_written)
{
    if (summary && *res->files)
        fprintf(f, "pomp: trace: %llu events of %u thread%s, %u flush%s; %s in %s/\n",
                (unsigned long long)res->events, res->threads, res->threads == 1 ? "" : "s",
                res->flushes, res->flushes == 1 ? "" : "es", res->files, dir);
    else if (summary) /* the raw records, where written, are what is left of it */
        fprintf(f, "pomp: trace: %llu events of %u thread%s, %u flush%s; no trace files%s%s%s\n",
                (unsigned long long)res->events, res->threads, res->threads == 1 ? "" : "s",
                res->flushes, res->flushes == 1 ? "" : "es",
                res->defs_written ? " (the raw records are in " : "",
                res->defs_written ? dir : "", res->defs_written ? "/" TRACE_RAW_DIR "/)" : "");
    if (res->no_buffer)
        fprintf(f, "pomp: warning: %u thread%s had no trace buffer (out of memory): %s events are "
                   "missing from the trace\n",
                res->no_buffer, res->no_buffer == 1 ? "" : "s", res->no_buffer == 1 ? "its" : "their");
    if (res->dropped)
        fprintf(f, "pomp: warning: %llu trace events were lost%s\n", (unsigned long long)res->dropped,
                res->defs_written  ? " (see " TRACE_RAW_DIR "/defs.json, threads[].dropped and error)"
                : profile_written ? " (see profile.json, threads[].dropped_events)"
                                  : "");
}
