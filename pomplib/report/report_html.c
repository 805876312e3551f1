#include "report_html.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report_json.h"
#include "report_text.h"
#include "trace_walk.h"

/* build/gen/report_template.c, made from report_template.html by embed */
extern const char report_template[];
extern const size_t report_template_size;

#define DATA_MARKER "@POMP_DATA@"

struct slice {
    double start, dur;
    uint32_t thread, depth, label;
};

struct mark {
    double time;
    uint32_t thread, label;
};

struct timeline {
    const struct trace_model *m;
    const struct rp_profile *p; /* where a region without a file is placed */
    uint32_t thread;
    struct slice *slices;
    size_t nslices, cap;
    struct mark *marks;
    size_t nmarks, marks_cap, marks_total;
    int32_t *label_of;      /* per (region, span): index into labels, -1 if none yet */
    int32_t gap_label;
    json_t *labels;
    int oom;
};

/* Where a region without a file is: the library's own (pomp flush) is
 * libpomp's; one the runtime reported (an implicit barrier, code without
 * debug information) is where the profile places it (its function, or its
 * enclosing region when all its call paths agree), as pomp-report's tables. */
static void region_place(const struct rp_profile *p, const struct trace_region *r, char *loc,
                         size_t size)
{
    if (strcmp(r->type, "pomp") == 0) {
        snprintf(loc, size, "libpomp");
        return;
    }
    snprintf(loc, size, "-");
    for (size_t i = 0; p && i < p->nregions; i++)
        if (p->regions[i].id == (long long)r->id) {
            rp_region_location(&p->regions[i], loc, size);
            break;
        }
    if (strcmp(loc, "-") == 0)
        snprintf(loc, size, "no source location (reported by the runtime)");
}

static int32_t label_index(struct timeline *tl, uint32_t region, enum trace_span span, unsigned group)
{
    const struct trace_region *r = trace_region(tl->m, region);
    int32_t *slot = r ? &tl->label_of[(size_t)(region - 1) * 3 + span] : &tl->gap_label;
    if (*slot >= 0)
        return *slot;
    char text[600], loc[RP_LOCATION_MAX], cat[32];
    if (r) {
        trace_span_label(r, span, text, sizeof text);
        if (*r->file)
            snprintf(loc, sizeof loc, "%s:%d-%d", r->file, r->first_line, r->last_line);
        else
            region_place(tl->p, r, loc, sizeof loc);
    } else {
        snprintf(text, sizeof text, "events lost");
        snprintf(loc, sizeof loc, "a trace buffer could not be written");
    }
    json_t *l = json_pack("{ss ss ss ss}", "text", text, "type", r ? r->type : "pomp", "loc", loc,
                          "group", trace_group_name(tl->m, group, cat, sizeof cat));
    if (!l || json_array_append_new(tl->labels, l) != 0) {
        tl->oom = 1;
        return 0;
    }
    return *slot = (int32_t)(json_array_size(tl->labels) - 1);
}

static void add_mark(struct timeline *tl, uint64_t time, int32_t label)
{
    tl->marks_total++;
    if (tl->nmarks == REPORT_MAX_MARKS)
        return;
    if (tl->nmarks == tl->marks_cap) {
        size_t cap = tl->marks_cap ? tl->marks_cap * 2 : 256;
        struct mark *n = realloc(tl->marks, cap * sizeof *n);
        if (!n) {
            tl->oom = 1;
            return;
        }
        tl->marks = n;
        tl->marks_cap = cap;
    }
    tl->marks[tl->nmarks++] = (struct mark){trace_ns(tl->m, time), tl->thread, (uint32_t)label};
}

static void on_enter(void *ctx, const struct trace_frame *f, uint32_t depth)
{
    (void)ctx, (void)f, (void)depth;
}

static void on_leave(void *ctx, const struct trace_frame *f, uint64_t time,
                     const struct pomp_event *close, uint32_t depth)
{
    (void)close;
    struct timeline *tl = ctx;
    if (tl->nslices == tl->cap) {
        size_t cap = tl->cap ? tl->cap * 2 : 1024;
        struct slice *n = realloc(tl->slices, cap * sizeof *n);
        if (!n) {
            tl->oom = 1;
            return;
        }
        tl->slices = n;
        tl->cap = cap;
    }
    double start = trace_ns(tl->m, f->start);
    tl->slices[tl->nslices++] = (struct slice){
        start, trace_ns(tl->m, time) - start, tl->thread, depth,
        (uint32_t)label_index(tl, f->region, trace_frame_span(f), f->open->group)};
}

static void on_single(void *ctx, const struct pomp_event *e, uint64_t time, uint32_t depth)
{
    (void)depth;
    struct timeline *tl = ctx;
    add_mark(tl, time, label_index(tl, e->region, trace_single_span(e), e->group));
}

static void on_gap(void *ctx, const struct pomp_event *e, uint64_t time)
{
    struct timeline *tl = ctx;
    add_mark(tl, time, label_index(tl, 0, TRACE_SPAN_ENTERED, e->group));
}

static int by_duration_desc(const void *a, const void *b)
{
    double x = ((const struct slice *)a)->dur, y = ((const struct slice *)b)->dur;
    return (x < y) - (x > y);
}

static int by_thread_start(const void *a, const void *b)
{
    const struct slice *x = a, *y = b;
    if (x->thread != y->thread)
        return (x->thread > y->thread) - (x->thread < y->thread);
    if (x->start != y->start)
        return (x->start > y->start) - (x->start < y->start);
    return (x->depth > y->depth) - (x->depth < y->depth);
}

/* The timeline as JSON: labels, and per thread its slices as a flat array
 * [start_ns, duration_ns, depth, label, ...] and its single events. */
static json_t *timeline_json(const struct rp_profile *p, const struct trace_model *m)
{
    struct timeline tl = {.m = m, .p = p, .gap_label = -1, .labels = json_array()};
    tl.label_of = malloc((m->nregions + 1) * 3 * sizeof *tl.label_of);
    json_t *out = NULL;
    if (!tl.label_of || !tl.labels)
        goto done;
    memset(tl.label_of, 0xff, (m->nregions + 1) * 3 * sizeof *tl.label_of);
    static const struct trace_walk_ops ops = {on_enter, on_leave, on_single, on_gap};
    for (uint32_t t = 0; t < m->nthreads && !tl.oom; t++) {
        struct trace_walk_stats st;
        tl.thread = t;
        if (trace_walk(&m->threads[t], m->end_ticks, &ops, &tl, &st) != 0)
            tl.oom = 1;
    }
    if (tl.oom)
        goto done;
    size_t total = tl.nslices;
    if (tl.nslices > REPORT_MAX_SLICES) { /* keep the longest; a parent is never shorter than its child */
        qsort(tl.slices, tl.nslices, sizeof *tl.slices, by_duration_desc);
        tl.nslices = REPORT_MAX_SLICES;
    }
    qsort(tl.slices, tl.nslices, sizeof *tl.slices, by_thread_start);
    json_t *threads = json_array();
    size_t s = 0;
    for (uint32_t t = 0; t < m->nthreads; t++) {
        const struct trace_thread *th = &m->threads[t];
        json_t *flat = json_array(), *marks = json_array();
        uint32_t depth = 0;
        for (; s < tl.nslices && tl.slices[s].thread == t; s++) {
            const struct slice *x = &tl.slices[s];
            json_array_append_new(flat, json_integer((json_int_t)(x->start + 0.5)));
            json_array_append_new(flat, json_integer((json_int_t)(x->dur + 0.5)));
            json_array_append_new(flat, json_integer(x->depth));
            json_array_append_new(flat, json_integer(x->label));
            if (x->depth + 1 > depth)
                depth = x->depth + 1;
        }
        for (size_t i = 0; i < tl.nmarks; i++)
            if (tl.marks[i].thread == t)
                json_array_append_new(marks, json_pack("[I i]", (json_int_t)(tl.marks[i].time + 0.5),
                                                       (int)tl.marks[i].label));
        char name[64];
        if (th->stream)
            trace_thread_label(th, name, sizeof name);
        else
            snprintf(name, sizeof name, "thread %u", th->index);
        json_array_append_new(threads, json_pack("{si ss si si si so so}", "index", (int)th->index,
                                                 "name", name, "omp", (int)th->omp_thread_num,
                                                 "tid", (int)th->os_tid, "depth", (int)depth,
                                                 "slices", flat, "marks", marks));
    }
    double duration = m->end_ticks > m->start_ticks ? trace_ns(m, m->end_ticks) : 0;
    for (size_t i = 0; i < tl.nslices; i++)
        if (tl.slices[i].start + tl.slices[i].dur > duration)
            duration = tl.slices[i].start + tl.slices[i].dur;
    out = json_pack("{sf sI sI sI so so}", "duration_ns", duration, "total", (json_int_t)total,
                    "shown", (json_int_t)tl.nslices, "marks_total", (json_int_t)tl.marks_total,
                    "labels", tl.labels, "threads", threads);
    tl.labels = NULL;
done:
    json_decref(tl.labels);
    free(tl.label_of);
    free(tl.slices);
    free(tl.marks);
    return out;
}

/* report_losses's lines, for the page: [{level, text}, ...] */
static void add_note(void *ctx, const char *level, const char *text)
{
    json_array_append_new(ctx, json_pack("{ss ss}", "level", level, "text", text));
}

int report_html(const struct rp_profile *p, const struct trace_model *trace, const char *path)
{
    const char *marker = strstr(report_template, DATA_MARKER);
    if (!marker) {
        fprintf(stderr, "pomp-report: the HTML template has no %s marker (a build problem)\n",
                DATA_MARKER);
        return -1;
    }
    json_t *data = report_json(p);
    json_t *timeline = trace ? timeline_json(p, trace) : json_null();
    if (!data || !timeline) {
        fprintf(stderr, "pomp-report: out of memory\n");
        json_decref(data);
        json_decref(timeline);
        return -1;
    }
    json_object_set_new(data, "timeline", timeline);
    /* what the run lost or left untimed, as the text report opens with it (the
       page showed an <overflow> row and no word of the paths it holds) */
    json_t *notes = json_array();
    report_losses(p, add_note, notes);
    json_object_set_new(data, "notes", notes);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "pomp-report: cannot write %s: %s\n", path, strerror(errno));
        json_decref(data);
        return -1;
    }
    fwrite(report_template, 1, (size_t)(marker - report_template), f);
    /* JSON_ESCAPE_SLASH: no "</script>" can end the data early */
    int rc = json_dumpf(data, f, JSON_COMPACT | JSON_ESCAPE_SLASH);
    const char *rest = marker + strlen(DATA_MARKER);
    fwrite(rest, 1, report_template_size - (size_t)(rest - report_template), f);
    json_decref(data);
    int bad = rc != 0 || ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "pomp-report: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
