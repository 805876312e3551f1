#include "trace_chrome.h"
#include "pomp_json.h"

#include <inttypes.h>
#include <string.h>

#include "trace_walk.h"

struct chrome {
    const struct trace_model *m;
    FILE *f;
    uint32_t tid;
};

static void event_head(struct chrome *c, const char *ph, uint64_t time)
{
    fprintf(c->f, ",\n{\"ph\":\"%s\",\"pid\":%d,\"tid\":%u,\"ts\":%.3f", ph, c->m->pid, c->tid,
            trace_ns(c->m, time) / 1000.0);
}

static void name_and_args(struct chrome *c, const struct pomp_event *e, enum trace_span span)
{
    const struct trace_region *r = trace_region(c->m, e->region);
    char label[600], cat[32];
    trace_span_label(r, span, label, sizeof label);
    fputs(",\"name\":", c->f);
    pomp_json_string(c->f, label);
    fprintf(c->f, ",\"cat\":\"%s\",\"args\":{\"event\":\"%s\"",
            trace_group_name(c->m, e->group, cat, sizeof cat), pomp_event_name(e->kind));
    if (r && *r->file) {
        char where[600];
        snprintf(where, sizeof where, "%s:%d", r->file, r->first_line);
        fputs(",\"location\":", c->f);
        pomp_json_string(c->f, where);
        fprintf(c->f, ",\"lines\":\"%d-%d\"", r->first_line, r->last_line);
    }
    if (r)
        fprintf(c->f, ",\"region\":%u", r->id);
    if (e->arg)
        fprintf(c->f, ",\"arg\":\"0x%" PRIx64 "\"", e->arg);
    fputs("}}", c->f);
}

/* A flow arrow from a task's creation to its execution, linked by the task id
 * (docs/output.md): "s" at the creation, "f" at the start of the execution,
 * each right after the event it belongs to, with its thread, time and
 * category, which is how DevTools binds them; Perfetto binds "s" and "f" with
 * bp "e" to the slice that encloses them. */
static void task_flow(struct chrome *c, const char *ph, const struct pomp_event *e, uint64_t time)
{
    char cat[32];
    event_head(c, ph, time);
    fprintf(c->f, ",\"name\":\"task\",\"cat\":\"%s\",\"id\":\"0x%" PRIx64 "\"%s}",
            trace_group_name(c->m, e->group, cat, sizeof cat), e->arg,
            strcmp(ph, "f") == 0 ? ",\"bp\":\"e\"" : "");
}

/* The flow phase of a record: "s" for a task's creation with an id (POMP's
 * enter, or the runtime's task_create event), "f" for the begin of its
 * execution; NULL for any other record. */
static const char *task_flow_phase(const struct chrome *c, const struct pomp_event *e)
{
    const struct trace_region *r = trace_region(c->m, e->region);
    if (!e->arg || !r)
        return NULL;
    if (trace_region_is(r, "task_create"))
        return "s";
    if (!trace_region_is(r, "task"))
        return NULL;
    return e->phase == POMP_PHASE_ENTER ? "s" : e->phase == POMP_PHASE_BEGIN ? "f" : NULL;
}

static void enter(void *ctx, const struct trace_frame *fr, uint32_t depth)
{
    (void)depth;
    struct chrome *c = ctx;
    event_head(c, "B", fr->start);
    name_and_args(c, fr->open, trace_frame_span(fr));
    const char *flow = task_flow_phase(c, fr->open);
    if (flow)
        task_flow(c, flow, fr->open, fr->start);
}

static void leave(void *ctx, const struct trace_frame *fr, uint64_t time,
                  const struct pomp_event *close, uint32_t depth)
{
    (void)fr;
    (void)depth;
    struct chrome *c = ctx;
    event_head(c, "E", time);
    if (!close) /* the walker closed it: say so where the viewer shows it */
        fputs(",\"args\":{\"closed_by\":\"pomp (no matching end record)\"}", c->f);
    fputc('}', c->f);
}

static void single(void *ctx, const struct pomp_event *e, uint64_t time, uint32_t depth)
{
    (void)depth;
    struct chrome *c = ctx;
    event_head(c, "i", time);
    fputs(",\"s\":\"t\"", c->f);
    name_and_args(c, e, trace_single_span(e));
    const char *flow = task_flow_phase(c, e);
    if (flow)
        task_flow(c, flow, e, time);
}

static void gap(void *ctx, const struct pomp_event *e, uint64_t time)
{
    struct chrome *c = ctx;
    event_head(c, "i", time);
    fprintf(c->f, ",\"s\":\"t\",\"name\":\"pomp: %" PRIu64 " events lost\",\"cat\":\"pomp\"}",
            e->arg);
}

int trace_chrome_write(const struct trace_model *m, FILE *f)
{
    struct chrome c = {.m = m, .f = f};
    static const struct trace_walk_ops ops = {enter, leave, single, gap};
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"tool\":\"pomp\",\"program\":", f);
    pomp_json_string(f, m->program);
    fprintf(f, ",\"clock\":\"%s\"},\n\"traceEvents\":[\n", m->clock_source);
    fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":", m->pid);
    char name[600];
    snprintf(name, sizeof name, "%s (pid %d)", m->program, m->pid);
    pomp_json_string(f, name);
    fputs("}}", f);
    for (uint32_t t = 0; t < m->nthreads; t++) {
        const struct trace_thread *th = &m->threads[t];
        trace_thread_label(th, name, sizeof name);
        fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%u,\"args\":{\"name\":",
                m->pid, th->index);
        pomp_json_string(f, name);
        fprintf(f, "}},\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%u,"
                   "\"args\":{\"sort_index\":%u}}",
                m->pid, th->index, th->index);
    }
    for (uint32_t t = 0; t < m->nthreads; t++) {
        struct trace_walk_stats st;
        c.tid = m->threads[t].index;
        if (trace_walk(&m->threads[t], m->end_ticks, &ops, &c, &st) != 0)
            return -1;
    }
    fputs("\n]}\n", f);
    return 0;
}
