#include "pomp_output.h"
#include "pomp_json.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pomp_control.h"
#include "pomp_devices.h"
#include "pomp_merge.h"
#include "pomp_region.h"
#include "pomp_sampling.h"
#include "pomp_summary.h"
#include "pomp_thread.h"
#include "pomp_values.h"
#include "pomp_trace.h"

#define PROFILE_SCHEMA_VERSION 1
/* Additions a version-1 reader can ignore: 1 = user values (docs/output.md). */
#define PROFILE_SCHEMA_MINOR_VERSION 1

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
    int first = 1;
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

static void write_regions(FILE *f)
{
    fputs("  \"regions\": [", f);
    int first = 1;
    for (const struct POMP_Region_s *r = pomp_region_list(); r; r = r->next) {
        fprintf(f, "%s\n    {\"id\": %u, \"type\": ", first ? "" : ",", r->id);
        pomp_json_string(f, pomp_region_type(r));
        fputs(", \"name\": ", f);
        pomp_json_string(f, r->ctc.name ? r->ctc.name : "");
        fputs(", \"file\": ", f);
        pomp_json_string(f, r->ctc.file ? r->ctc.file : "");
        fprintf(f, ", \"first_line\": %d, \"last_line\": %d, \"init\": \"%s\", \"ctc\": ",
                r->ctc.start_line_first, r->ctc.end_line_last,
                pomp_region_init_name(r));
        pomp_json_string(f, r->ctc_text);
        write_value_names(f, &r->ctc);
        if (r->filtered_out)
            fputs(", \"filtered\": true", f);
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

static void write_threads(FILE *f, const struct pomp_merged *m)
{
    fputs("  \"threads\": [", f);
    for (uint32_t i = 0; i < m->nthreads; i++) {
        const struct pomp_thread *t = m->threads[i];
        if (!t)
            continue;
        const struct pomp_profile *p = &t->profile;
        fprintf(f,
                "%s\n    {\"index\": %u, \"omp_thread_num\": %d, \"os_tid\": %d, "
                "\"nesting_errors\": %llu, \"dropped_paths\": %llu, \"dropped_events\": %llu, "
                "\"dropped_values\": %llu",
                i ? "," : "", t->index, t->omp_thread_num, (int)t->os_tid,
                (unsigned long long)p->nesting_errors, (unsigned long long)p->dropped_paths,
                (unsigned long long)t->log.dropped, (unsigned long long)p->values.dropped);
        if (t->device >= 0) /* a device stream (pomp_thread.h) */
            fprintf(f, ", \"device\": %d, \"host_thread\": %u", t->device, t->host_thread);
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

static void write_callpath(FILE *f, const struct pomp_merged *m, const struct pomp_clock *clk)
{
    fputs("  \"callpath\": [", f);
    for (size_t i = 1; i < m->count; i++) {
        const struct pomp_mnode *n = &m->nodes[i];
        fprintf(f, "%s\n    {\"id\": %zu, \"parent\": %zu, \"region\": %u, \"per_thread\": [",
                i > 1 ? "," : "", i, n->parent, n->region ? n->region->id : 0);
        int first = 1;
        for (uint32_t t = 0; t < m->nthreads; t++) {
            const struct pomp_stat *s = pomp_merged_stat(m, i, t);
            if (!s->visits && !s->begins)
                continue;
            fprintf(f,
                    "%s{\"thread\": %u, \"visits\": %llu, \"begins\": %llu, \"incl_ns\": %.0f, "
                    "\"excl_ns\": %.0f, \"min_ns\": %.0f, \"max_ns\": %.0f, \"body_ns\": %.0f",
                    first ? "" : ", ", t, (unsigned long long)s->visits,
                    (unsigned long long)s->begins, pomp_ticks_to_ns(clk, s->incl),
                    pomp_ticks_to_ns(clk, s->excl), pomp_ticks_to_ns(clk, s->min),
                    pomp_ticks_to_ns(clk, s->max), pomp_ticks_to_ns(clk, s->body));
            if (pomp_sampling_is_on())
                fprintf(f, ", \"samples_work\": %llu, \"samples_wait\": %llu",
                        (unsigned long long)s->samples_work, (unsigned long long)s->samples_wait);
            if (s->values)
                write_values(f, s->values);
            fputc('}', f);
            first = 0;
        }
        fputs("]}", f);
    }
    fputs("\n  ]\n", f);
}

static int write_profile(const char *dir, const struct pomp_merged *m,
                         const struct pomp_clock *clk, double duration_ns)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/profile.json", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    fprintf(f, "{\n  \"format\": \"pomp-profile\",\n  \"version\": %d,\n  \"minor_version\": %d,\n"
               "  \"program\": ",
            PROFILE_SCHEMA_VERSION, PROFILE_SCHEMA_MINOR_VERSION);
    pomp_json_string(f, program_invocation_short_name);
    fprintf(f, ",\n  \"pid\": %d,\n  \"clock\": {\"source\": \"%s\", \"ticks_per_ns\": %.6f},\n"
               "  \"duration_ns\": %.0f,\n",
            (int)getpid(), clk->source, clk->ticks_per_ns, duration_ns);
    write_regions(f);
    write_threads(f, m);
    pomp_devices_write_json(f, m, clk);
    if (pomp_sampling_is_on())
        pomp_sampling_write_json(f);
    write_callpath(f, m, clk);
    fputs("}\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* The output directory: $POMP_OUTPUT_DIR, or pomp-<program>-<date>-<pid> here.
 * Made once, by the first thread that needs it (a trace flush, or the finalizer). */
static char output_dir[4096];
static int output_dir_errno;
static pthread_once_t output_dir_once = PTHREAD_ONCE_INIT;

static void make_output_dir(void)
{
    const struct pomp_config *cfg = pomp_config();
    if (cfg->output_dir) {
        snprintf(output_dir, sizeof output_dir, "%s", cfg->output_dir);
    } else {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(output_dir, sizeof output_dir, "pomp-%s-%s-%d", program_invocation_short_name,
                 stamp, (int)getpid());
    }
    if (mkdir(output_dir, 0777) != 0 && errno != EEXIST)
        output_dir_errno = errno;
}

const char *pomp_output_dir(int *err)
{
    pthread_once(&output_dir_once, make_output_dir);
    *err = output_dir_errno;
    return output_dir;
}

void pomp_output_write(const struct pomp_config *cfg, const struct pomp_clock *clock)
{
    double duration_ns = pomp_ticks_to_ns(clock, clock->end_ticks - clock->start_ticks);
    struct pomp_merged m;
    int dir_errno;
    const char *dir = pomp_output_dir(&dir_errno);
    if (pomp_merge(&m) != 0) {
        fprintf(stderr, "pomp: error: out of memory while merging the profile\n");
        pomp_merged_free(&m);
        return;
    }
    if (dir_errno) {
        fprintf(stderr, "pomp: error: cannot create output directory '%s': %s\n", dir,
                strerror(dir_errno));
    } else {
        /* the trace first: its last writes settle the dropped counts the profile reports */
        struct pomp_trace_result trace;
        if (cfg->trace)
            pomp_trace_write(cfg, clock, dir, &trace);
        if (cfg->profile && write_profile(dir, &m, clock, duration_ns) != 0)
            fprintf(stderr, "pomp: error: cannot write %s/profile.json: %s\n", dir,
                    strerror(errno));
        if (cfg->summary)
            pomp_summary_print(stderr, &m, clock, duration_ns, dir);
        if (cfg->trace)
            pomp_trace_report(stderr, &trace, dir, cfg->summary);
    }
    pomp_merged_free(&m);
}
