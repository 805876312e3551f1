/* profile.json, and the order in which the writers run (docs/output.md). */
#include <ctype.h>
#include "pomp_run.h"
#include "pomp_json.h"
#include "pomp_owned.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices_output.h"
#include "pomp_said.h"
#include "pomp_summary.h"
#include "pomp_trace.h"
#include "sampling_json.h"
#include "trace_model.h"

#define PROFILE_SCHEMA_VERSION 1
/* Additions a version-1 reader can ignore: 1 = user values (docs/output.md). */
#define PROFILE_SCHEMA_MINOR_VERSION 5

/* The names of a list of values in a CTC string ("n,f(a,b)"): split at the
 * commas outside parentheses and brackets. */
static void write_name_list(FILE *f, const char *list)
{
    fputc('[', f);
    int depth = 0, first = 1;
    const char *start = list;
    for (const char *c = list;; c++) {
        if (*c == '(' || *c == '[')
            depth++;
        else if ((*c == ')' || *c == ']') && depth > 0)
            depth--;
        if (*c == '\0' || (*c == ',' && depth == 0)) {
            const char *a = start, *b = c;
            while (a < b && *a == ' ')
                a++;
            while (b > a && b[-1] == ' ')
                b--;
            char *name = strndup(a, (size_t)(b - a));
            fputs(first ? "" : ", ", f);
            pomp_json_string(f, name ? name : "");
            free(name);
            first = 0;
            start = c + 1;
        }
        if (*c == '\0')
            break;
    }
    fputc(']', f);
}

/* "values": {"begin": [names], ...} from the CTC keys beginValues, endValues,
 * eventValues (written by the instrumenter for #pragma pomp userregion). */
static void write_value_names(FILE *f, const struct ctc *c)
{
    int first = 1, any = 0;
    for (size_t i = 0; i < c->nattrs && !any; i++) { /* most regions have none: no key made */
        size_t len = strlen(c->attrs[i].key);
        any = len > 6 && strcmp(c->attrs[i].key + len - 6, "Values") == 0;
    }
    if (!any)
        return;
    for (int k = 0; k < POMP_VALUES_KINDS; k++) {
        char key[32];
        snprintf(key, sizeof key, "%sValues", pomp_value_kind_name((enum pomp_value_kind)k));
        const char *list = ctc_get(c, key);
        if (!list)
            continue;
        fprintf(f, "%s\"%s\": ", first ? ", \"values\": {" : ", ",
                pomp_value_kind_name((enum pomp_value_kind)k));
        write_name_list(f, list);
        first = 0;
    }
    if (!first)
        fputc('}', f);
}

static void write_regions(FILE *f, const struct pomp_merged *m)
{
    fputs("  \"regions\": [", f);
    int first = 1;
    for (uint32_t i = m->nregions; i-- > 0;) { /* newest first */
        const struct pomp_run_region *r = &m->regions[i];
        if (!r->id || r->same_as) /* one with an earlier region: listed as that one */
            continue;
        fprintf(f, "%s\n    {\"id\": %u, \"type\": ", first ? "" : ",", r->id);
        pomp_json_string(f, r->type);
        fputs(", \"name\": ", f);
        pomp_json_string(f, r->ctc.name ? r->ctc.name : "");
        fputs(", \"file\": ", f);
        pomp_json_string(f, r->ctc.file ? r->ctc.file : "");
        const char *function = r->several_functions ? NULL : ctc_get(&r->ctc, "function");
        if (function) { /* a runtime region: the function its code is in */
            fputs(", \"function\": ", f);
            pomp_json_string(f, function);
        }
        fprintf(f, ", \"first_line\": %d, \"last_line\": %d, \"init\": \"%s\", \"ctc\": ",
                r->ctc.start_line_first, r->ctc.end_line_last, r->init);
        pomp_json_string(f, r->ctc_text);
        write_value_names(f, &r->ctc);
        if (r->filtered) /* (and whether it ran: the report rates a run whose filtered
                            constructs the figures need never ran) */
            fputs(r->filtered_ran ? ", \"filtered\": true" : ", \"filtered\": true, \"ran\": false", f);
        if (r->throttled_ns) /* counted, no longer timed, from then on (POMP_THROTTLE) */
            fprintf(f, ", \"throttled\": {\"since_ns\": %llu, \"after\": %llu}",
                    (unsigned long long)r->throttled_ns, (unsigned long long)r->throttled_after);
        if (r->ctc_error) {
            fprintf(f, ", \"ctc_error\": {\"offset\": %zu, \"message\": ", r->ctc_error_offset);
            pomp_json_string(f, ctc_error_string(r->ctc_error));
            fputc('}', f);
        }
        fputc('}', f);
        first = 0;
    }
    fputs("\n  ],\n", f);
}

/* An OS thread's life in the run (ns from its start): from its first event
 * to its end, or to the run's end. */
void pomp_thread_life_of(const struct pomp_run *run, const struct pomp_run_thread *t,
                         struct pomp_thread_life *life)
{
    const struct pomp_clock *clk = &run->clock;
    double start = t->first_ticks > clk->start_ticks
                       ? pomp_ticks_to_ns(clk, t->first_ticks - clk->start_ticks)
                       : 0;
    double end = t->ended_ticks > clk->start_ticks
                     ? pomp_ticks_to_ns(clk, t->ended_ticks - clk->start_ticks)
                     : run->duration_ns;
    end = end < run->duration_ns ? end : run->duration_ns;
    life->start = start < end ? start : end;
    life->end = end;
    /* the kernel's clock: ns already; a fresh thread's count from its start,
     * which a short life may not hold (pomp_thread.c) */
    life->wait_known = t->cpu_wait_ns != POMP_CPU_WAIT_UNKNOWN;
    life->apart = t->os_threads > 1 || t->cpu_wait_unread > 0;
    life->wait_life = life->apart ? (double)t->cpu_wait_life_ns : life->end - life->start;
    life->wait = life->wait_known && (double)t->cpu_wait_ns < life->wait_life
                     ? (double)t->cpu_wait_ns
                     : life->wait_known ? life->wait_life : 0;
}

/* Ticks as ns from the run's start, within it. */
static double run_ns(const struct pomp_run *run, uint64_t ticks)
{
    const struct pomp_clock *clk = &run->clock;
    double ns = ticks > clk->start_ticks ? pomp_ticks_to_ns(clk, ticks - clk->start_ticks) : 0;
    return ns < run->duration_ns ? ns : run->duration_ns;
}

/* The lives of the OS threads a record stood for, one after another: each
 * one's first event and the end of its work (the last one's: last, where its
 * work ended before its end). The run's places count them apart. */
static void write_os_lives(FILE *f, const struct pomp_run *run, const struct pomp_run_thread *t,
                           const struct pomp_thread_life *life, double last)
{
    fputs(", \"os_thread_lives\": [", f);
    for (uint32_t k = 0; k + 1 < t->os_threads; k++) {
        double first = run_ns(run, t->earlier_lives[k].first),
               end = run_ns(run, t->earlier_lives[k].last);
        fprintf(f, "%s[%.0f, %.0f]", k ? ", " : "", first, end > first ? end : first);
    }
    double first = run_ns(run, t->os_first_ticks);
    double end = last > first && last < life->end ? last : life->end;
    fprintf(f, ", [%.0f, %.0f]]", first, end > first ? end : first);
}

static void write_thread_life(FILE *f, const struct pomp_run *run, const struct pomp_run_thread *t)
{
    struct pomp_thread_life life;
    pomp_thread_life_of(run, t, &life);
    fprintf(f, ", \"start_ns\": %.0f, \"end_ns\": %.0f", life.start, life.end);
    /* where its work ended, before its OS thread's end (which waited for a
     * CPU, or for libgomp to let it go): what the run's places count */
    const struct pomp_clock *clk = &run->clock;
    double last = t->last_ticks > clk->start_ticks ? pomp_ticks_to_ns(clk, t->last_ticks - clk->start_ticks) : 0;
    if (last > life.start && last < life.end)
        fprintf(f, ", \"last_event_ns\": %.0f", last);
    if (t->os_threads > 1) /* OS threads one after another (pomp_thread.c) */
        fprintf(f, ", \"os_threads\": %u", t->os_threads);
    if (t->os_threads > 1 && t->earlier_lives)
        write_os_lives(f, run, t, &life, last);
    if (!life.wait_known)
        return;
    fprintf(f, ", \"cpu_wait_ns\": %.0f", life.wait);
    if (life.apart)
        fprintf(f, ", \"cpu_wait_life_ns\": %.0f", life.wait_life);
    if (t->cpu_wait_unread > 0)
        fprintf(f, ", \"cpu_wait_unread\": %u, \"cpu_wait_unread_ns\": %.0f", t->cpu_wait_unread,
                (double)t->cpu_wait_unread_ns);
}

static void write_threads(FILE *f, const struct pomp_run *run)
{
    const struct pomp_merged *m = &run->profile;
    fputs("  \"threads\": [", f);
    for (uint32_t i = 0; i < m->nthreads; i++) {
        const struct pomp_run_thread *t = &m->threads[i];
        fprintf(f,
                "%s\n    {\"index\": %u, \"omp_thread_num\": %d, \"os_tid\": %d, "
                "\"nesting_errors\": %llu, \"dropped_paths\": %llu, \"dropped_events\": %llu, "
                "\"dropped_values\": %llu, \"deep_events\": %llu, \"untimed_events\": %llu, "
                "\"open_at_end\": %llu, \"interrupted_events\": %llu, \"max_nodes\": %u",
                i ? "," : "", t->index, t->omp_thread_num, (int)t->os_tid,
                (unsigned long long)t->nesting_errors, (unsigned long long)t->dropped_paths,
                (unsigned long long)t->log_dropped, (unsigned long long)t->dropped_values,
                (unsigned long long)t->deep_events, (unsigned long long)t->untimed_events,
                (unsigned long long)t->open_at_end, (unsigned long long)t->interrupted_events,
                t->max_nodes);
        if (t->unframed_task_ticks)
            fprintf(f, ", \"unframed_tasks_ns\": %.0f",
                    (double)pomp_ticks_to_ns(&run->clock, t->unframed_task_ticks));
        if (t->device >= 0) /* a device stream */
            fprintf(f, ", \"device\": %d, \"host_thread\": %u", t->device, t->host_thread);
        else
            write_thread_life(f, run, t);
        fputc('}', f);
    }
    fputs("\n  ],\n", f);
}

/* , "values": {"begin": [{"count": .., "sum": .., "min": .., "max": ..}, ...], ...} */
static void write_values(FILE *f, const struct pomp_value_block *list)
{
    fputs(", \"values\": {", f);
    int first = 1;
    for (int k = 0; k < POMP_VALUES_KINDS; k++) {
        for (const struct pomp_value_block *b = list; b; b = b->next) {
            if (b->kind != k)
                continue;
            fprintf(f, "%s\"%s\": [", first ? "" : ", ", pomp_value_kind_name((enum pomp_value_kind)k));
            for (int i = 0; i < b->npos; i++) {
                const struct pomp_value_stat *s = &b->stat[i];
                fprintf(f, "%s{\"count\": %llu, \"sum\": %lld, \"min\": %lld, \"max\": %lld%s}",
                        i ? ", " : "", (unsigned long long)s->count, (long long)s->sum,
                        (long long)s->min, (long long)s->max,
                        b->sum_saturated & (1u << i) ? ", \"sum_saturated\": true" : "");
            }
            fputc(']', f);
            first = 0;
        }
    }
    fputc('}', f);
}

/* A record's member `, "key": v`, v a count, or ticks written as ns. */
/* A member ", \"key\": number": its key a literal, written with the comma
 * and colon in one write (three fputs a member were 28 M instructions at the
 * exit of a run of 4,500 call paths, 2026-12-04). */
#define MEMBER_KEY(key) ", \"" key "\": "
#define put_count(f, key, v) put_count_((f), MEMBER_KEY(key), sizeof MEMBER_KEY(key) - 1, (v))
#define put_ns(f, key, clk, ticks)                                                                 \
    put_ns_((f), MEMBER_KEY(key), sizeof MEMBER_KEY(key) - 1, (clk), (ticks))

static void put_count_(FILE *f, const char *member, size_t len, uint64_t v)
{
    fwrite_unlocked(member, 1, len, f);
    pomp_json_u64(f, v);
}

static void put_ns_(FILE *f, const char *member, size_t len, const struct pomp_clock *clk,
                    uint64_t ticks)
{
    fwrite_unlocked(member, 1, len, f);
    pomp_json_ns(f, pomp_ticks_to_ns(clk, ticks));
}

/* The call-path nodes, a line each: stdio's unlocked forms (the file is this
 * writer's alone), and the numbers without printf (pomp_json_ns), since a
 * run of thousands of regions writes tens of thousands of these records at
 * its exit. */
static void write_callpath(FILE *f, const struct pomp_run *run)
{
    const struct pomp_merged *m = &run->profile;
    const struct pomp_clock *clk = &run->clock;
    fputs_unlocked("  \"callpath\": [", f);
    for (size_t i = 1; i < m->count; i++) {
        const struct pomp_mnode *n = &m->nodes[i];
        fputs_unlocked(i > 1 ? ",\n    {\"id\": " : "\n    {\"id\": ", f);
        pomp_json_u64(f, i);
        put_count(f, "parent", n->parent);
        put_count(f, "region", n->region ? n->region->id : 0);
        if (n->task_root)
            fputs_unlocked(", \"task_root\": true", f);
        if (n->binding)
            put_count(f, "binding", n->binding);
        fputs_unlocked(", \"per_thread\": [", f);
        int first = 1;
        for (uint32_t t = 0; t < m->nthreads; t++) {
            const struct pomp_stat *s = pomp_merged_stat(m, i, t);
            if (!pomp_stat_recorded(s))
                continue;
            fputs_unlocked(first ? "{\"thread\": " : ", {\"thread\": ", f);
            pomp_json_u64(f, t);
            put_count(f, "visits", s->visits);
            put_count(f, "begins", s->begins);
            put_ns(f, "incl_ns", clk, s->incl);
            put_ns(f, "excl_ns", clk, s->excl);
            put_ns(f, "min_ns", clk, s->min);
            put_ns(f, "max_ns", clk, s->max);
            put_ns(f, "body_ns", clk, s->body);
            if (run->sampling.on) {
                put_count(f, "samples_work", s->samples_work);
                put_count(f, "samples_wait", s->samples_wait);
            }
            if (s->untimed)
                put_count(f, "untimed", s->untimed);
            if (s->overlap)
                put_ns(f, "overlap_ns", clk, s->overlap);
            if (s->nested)
                put_ns(f, "nested_ns", clk, s->nested);
            if (s->helpers)
                put_count(f, "helpers", s->helpers);
            if (s->share)
                put_ns(f, "share_ns", clk, s->share);
            if (s->values)
                write_values(f, s->values);
            fputc_unlocked('}', f);
            first = 0;
        }
        fputs_unlocked("]}", f);
    }
    fputs_unlocked("\n  ]\n", f);
}

/* The event levels of the run ("levels": {"sync": "BeginEnd", ...}): what
 * pomp-report may conclude from what is missing (no waits at POMP_SYNC=none). */
static void write_levels(FILE *f, const struct pomp_run *run)
{
    fputs("  \"levels\": {", f);
    for (uint32_t g = 0; g < run->ngroups && run->level_names; g++) {
        char name[32];
        size_t n = 0;
        for (const char *c = run->group_names[g]; *c && n + 1 < sizeof name; c++)
            name[n++] = (char)tolower((unsigned char)*c);
        name[n] = '\0';
        fprintf(f, "%s\"%s\": ", g ? ", " : "", name);
        pomp_json_string(f, run->level_names[g]);
    }
    fputs("},\n", f);
}

/* "key": ["...", ...], what a source said (only where it said something;
 * the count of sentences past the kept ones last): "unmeasured", what it
 * could not measure; "kept_together", what it could not keep apart */
static void write_said(FILE *f, const char *key, const struct pomp_run_said *said)
{
    if (!said->n)
        return;
    fprintf(f, "  \"%s\": [", key);
    for (size_t i = 0; i < said->n; i++) {
        fputs(i ? ", " : "", f);
        pomp_json_string(f, said->text[i]);
    }
    if (said->past)
        fprintf(f, ", \"and %zu more\"", said->past);
    fputs("],\n", f);
}

static int write_profile(const struct pomp_run *run)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/profile.json", run->dir);
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid()); /* one per run: two runs into one directory */
    FILE *f = pomp_fopen_owned(tmp);
    if (!f)
        return -1;
    fprintf(f, "{\n  \"format\": \"pomp-profile\",\n  \"version\": %d,\n  \"minor_version\": %d,\n"
               "  \"program\": ",
            PROFILE_SCHEMA_VERSION, PROFILE_SCHEMA_MINOR_VERSION);
    pomp_json_string(f, run->program);
    fprintf(f, ",\n  \"pid\": %d,\n  \"clock\": {\"source\": \"%s\", \"ticks_per_ns\": %.6f},\n"
               "  \"duration_ns\": %.0f,\n",
            run->pid, run->clock.source, run->clock.ticks_per_ns, run->duration_ns);
    write_levels(f, run);
    if (run->runtime_events_off_by) { /* (no implicit barrier recorded: pomp-report says so) */
        fputs("  \"runtime_events_off_by\": ", f);
        pomp_json_string(f, run->runtime_events_off_by);
        fputs(",\n", f);
    }
    if (run->paused_times) /* (minor version 5) */
        fprintf(f, "  \"paused\": {\"times\": %u, \"ns\": %llu},\n", run->paused_times,
                (unsigned long long)run->paused_ns);
    write_said(f, "unmeasured", &run->unmeasured);
    write_said(f, "kept_together", &run->kept_together);
    write_regions(f, &run->profile);
    write_threads(f, run);
    pomp_devices_write_json(f, run);
    if (run->sampling.on)
        pomp_sampling_write_json(f, &run->sampling);
    write_callpath(f, run);
    fputs("}\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Writes the run's files; its messages go to msg. */
static void output_write(const struct pomp_run *run, FILE *msg)
{
    if (run->nothing_recorded) {
        if (run->summary)
            fprintf(msg,
                    run->unrecording
                        ? "pomp: %s: nothing was recorded (%s: the constructs that ran, if any, "
                          "were not measured): nothing written\n"
                        : "pomp: %s: no OpenMP construct or POMP region ran: nothing written\n",
                    run->program, run->unrecording);
        return;
    }
    if (run->dir_errno) {
        /* a relative name in the working directory, named too: a read-only
         * one (a probe) was said as the name alone */
        char cwd[4096];
        int relative = run->dir[0] != '/' && getcwd(cwd, sizeof cwd);
        fprintf(msg, "pomp: error: cannot create output directory '%s'%s%s%s: %s (POMP_OUTPUT_DIR "
                     "names another)\n",
                run->dir, relative ? " in '" : "", relative ? cwd : "", relative ? "'" : "",
                strerror(run->dir_errno));
        /* the summary and the losses still: they are all the run leaves */
        if (run->summary)
            pomp_summary_print(msg, run, 0);
        pomp_summary_warn_losses(msg, run, 0);
        return;
    }
    /* the profile first: a trace conversion that fills the disk must not cost it (the
     * trace's dropped counts are final already: the core finished the raw files);
     * in the room the core kept for it while the raw trace was written */
    if (run->trace) {
        char reserve[4400];
        snprintf(reserve, sizeof reserve, "%s/" TRACE_RAW_DIR "/" TRACE_PROFILE_RESERVE, run->dir);
        unlink(reserve);
    }
    int profile_written = run->write_profile;
    if (run->write_profile && write_profile(run) != 0) {
        /* at once: before what the trace's conversion says */
        fprintf(stderr, "pomp: error: cannot write %s/profile.json: %s\n", run->dir,
                strerror(errno));
        profile_written = 0;
    }
    struct pomp_trace_result trace;
    if (run->trace)
        pomp_trace_write(run, &trace);
    if (run->summary)
        pomp_summary_print(msg, run, profile_written);
    /* with or without the summary: nothing is lost silently */
    pomp_summary_warn_losses(msg, run, profile_written);
    if (run->trace)
        pomp_trace_report(msg, &trace, run->dir, run->summary, profile_written);
}

void pomp_output_write(const struct pomp_run *run)
{
    struct pomp_said said;
    output_write(run, pomp_said_open(&said));
    pomp_said_close(&said);
}
