/* pomp-report --check: the invariants every profile.json must hold. A profile
 * that breaks one says something impossible, which is a bug of pomp's (or a
 * damaged file), never a finding about the program (docs/output.md, "--check"). */
#include "report_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Times are written rounded to the nanosecond: a sum of n rounded figures may
 * be off by n ns, and a ratio of clocks by a relative 1e-9. */
#define SLACK_NS(n, of) ((double)(n) + 1e-9 * fabs(of) + 1.0)

struct checker {
    const struct rp_profile *p;
    const char *path;
    size_t failures;
    int quiet;         /* keep the first failure in `first` instead of printing each */
    char first[512];
};

static void failed(struct checker *c, const json_t *at, const char *invariant, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Says a broken invariant: with the byte offset of the value `at` where one
 * is named (NULL: a figure of several). */
static void failed(struct checker *c, const json_t *at, const char *invariant, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char where[48] = "";
    long offset = at && (!c->quiet || !c->first[0]) ? rp_json_offset(c->path, c->p->root, at) : -1;
    if (offset >= 0)
        snprintf(where, sizeof where, "byte offset %ld: ", offset);
    if (!c->quiet) {
        fprintf(stderr, "pomp-report: check: %s: %s: %s", c->path, invariant, where);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    } else if (!c->first[0]) {
        int n = snprintf(c->first, sizeof c->first, "%s: %s", invariant, where);
        if (n > 0 && (size_t)n < sizeof c->first)
            vsnprintf(c->first + n, sizeof c->first - (size_t)n, fmt, ap);
    }
    va_end(ap);
    c->failures++;
}

static double field(json_t *o, const char *key, int *present)
{
    json_t *v = json_object_get(o, key);
    if (present)
        *present = json_is_number(v);
    return json_is_number(v) ? json_number_value(v) : 0.0;
}

/* The runtime's waits of one thread in one node (per_thread[].waits, ns):
 * whole, not negative, and each within the run (9e18 ns of barrier read as a
 * wait share of 7,460,306,877,734 %, and one outside any parallel region was
 * compared with nothing; a probe). */
static void check_entry_waits(struct checker *c, const struct rp_node *n, json_t *t, long long th)
{
    json_t *waits = json_object_get(t, "waits"), *v;
    const char *kind;
    if (waits && !json_is_object(waits))
        failed(c, waits, "structure", "node %lld thread %lld: waits is not an object", n->id, th);
    json_object_foreach(waits, kind, v) {
        double w = json_number_value(v);
        if (!json_is_integer(v))
            failed(c, v, "whole numbers", "node %lld thread %lld: waits.%s is not a whole number",
                   n->id, th, kind);
        else if (w < 0)
            failed(c, v, "no negative figure", "node %lld thread %lld: waits.%s is %g", n->id, th,
                   kind, w);
        else if (w > RP_EXACT_MAX || (c->p->duration_ns > 0 && w > c->p->duration_ns * 1.01 + 1e6))
            failed(c, v, "no impossible figure", "node %lld thread %lld: waits.%s is %.16g ns, "
                                                 "more than the run's %.16g ns",
                   n->id, th, kind, w, c->p->duration_ns);
    }
}

/* The figures of one thread in one node: none negative, none past the others. */
static void check_entry(struct checker *c, const struct rp_node *n, json_t *t)
{
    static const char *const keys[] = {"visits", "begins", "incl_ns", "excl_ns", "min_ns",
                                       "max_ns", "body_ns", "samples_work", "samples_wait",
                                       "overlap_ns", "share_ns", "helpers", "nested_ns"};
    /* the figures pomp writes for every thread of a node (pomp_output.c) */
    enum { ALWAYS_WRITTEN = 7 };
    if (!json_is_object(t)) {
        failed(c, t, "structure", "node %lld: a per_thread entry is no object", n->id);
        return;
    }
    long long th = json_integer_value(json_object_get(t, "thread"));
    if (!json_is_integer(json_object_get(t, "thread")))
        failed(c, t, "structure", "node %lld: a per_thread entry has no \"thread\"", n->id);
    else if (th < 0 || (size_t)th >= c->p->nthreads)
        failed(c, json_object_get(t, "thread"), "structure", "node %lld names thread %lld of %zu", n->id, th, c->p->nthreads);
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        int present;
        json_t *raw = json_object_get(t, keys[k]);
        if (!raw && k < ALWAYS_WRITTEN) /* read as 0, it would pass every other check */
            failed(c, t, "whole numbers", "node %lld thread %lld: no %s (read as 0)", n->id, th,
                   keys[k]);
        if (raw && !json_is_integer(raw)) /* read as 0, it would pass every other check */
            failed(c, raw, "whole numbers", "node %lld thread %lld: %s is not a whole number", n->id, th,
                   keys[k]);
        double v = field(t, keys[k], &present);
        if (present && (v < 0 || !isfinite(v)))
            failed(c, raw, "no negative figure", "node %lld thread %lld: %s is %g", n->id, th, keys[k], v);
        else if (present && v > RP_EXACT_MAX) /* 2^53: sums of it lose units, or overflow */
            failed(c, raw, "no impossible figure", "node %lld thread %lld: %s is %.16g (above 2^53: "
                                              "104 days in ns, no run's count)",
                   n->id, th, keys[k], v);
    }
    check_entry_waits(c, n, t, th);
    double incl = field(t, "incl_ns", NULL), excl = field(t, "excl_ns", NULL);
    double mn = field(t, "min_ns", NULL), mx = field(t, "max_ns", NULL);
    double body = field(t, "body_ns", NULL), visits = field(t, "visits", NULL);
    if (excl > incl + SLACK_NS(1, incl))
        failed(c, t, "own time within inclusive time", "node %lld thread %lld: excl %.16g ns > incl %.16g ns",
               n->id, th, excl, incl);
    double overlap = field(t, "overlap_ns", NULL), nested = field(t, "nested_ns", NULL);
    if (overlap > incl + SLACK_NS(1, incl))
        failed(c, t, "overlap within inclusive time",
               "node %lld thread %lld: overlap %.16g ns > incl %.16g ns", n->id, th, overlap, incl);
    if (nested > incl + SLACK_NS(1, incl))
        failed(c, t, "overlap within inclusive time",
               "node %lld thread %lld: nested runs %.16g ns > incl %.16g ns", n->id, th, nested, incl);
    double share = field(t, "share_ns", NULL);
    if (share > incl + SLACK_NS(1, incl))
        failed(c, t, "shares within inclusive time",
               "node %lld thread %lld: team shares %.16g ns > incl %.16g ns", n->id, th, share, incl);
    if (mn > mx + 1)
        failed(c, t, "min within max", "node %lld thread %lld: min %.16g ns > max %.16g ns", n->id, th, mn, mx);
    if (mx > incl + SLACK_NS(1, incl))
        failed(c, t, "one visit within all", "node %lld thread %lld: max %.16g ns > incl %.16g ns", n->id,
               th, mx, incl);
    if (visits > 0 && body > incl + SLACK_NS(1, incl))
        failed(c, t, "body within inclusive time", "node %lld thread %lld: body %.16g ns > incl %.16g ns",
               n->id, th, body, incl);
    /* the overflow node's executions inside a frame that fit are in that
     * frame's time too, and are its overlap: the run holds them once */
    double alone = n->region ? incl : incl - overlap;
    if (c->p->duration_ns > 0 && alone > c->p->duration_ns * 1.01 + 1e6 && n->parent_index == NO_PARENT)
        failed(c, t, "within the run", "node %lld thread %lld: %.16g ns in a run of %.16g ns", n->id, th,
               alone, c->p->duration_ns);
}

/* Whether column th is a device stream: its shares of the target constructs
 * are grafted under the host's nodes of those constructs, one per operation,
 * so they do not nest on the stream's own timeline. */
static int is_device_stream(const struct rp_profile *p, size_t th)
{
    json_t *t = json_array_get(json_object_get(p->root, "threads"), th);
    return json_is_integer(json_object_get(t, "device"));
}

/* How each thread's own times are checked: a path that did not fit went to
 * the overflow node, its time out of its parent's (OWN_LOST: not checked); a
 * task run inside a frame is a root of its own (under the thread's root), its
 * time out of that frame's own time (OWN_TASKS): there a node's own time is
 * at most its inclusive less its children, and the thread's gaps add up to
 * its task roots' inclusive times (roots[th] on return), each task's time left
 * out of the one frame it ran in; a task run inside a frame that was not timed
 * (a throttled region's: the task is timed all the same) left nothing out of
 * that frame's own time, so where the thread has such frames the gaps hold at
 * most the tasks' time (OWN_TASKS_UNTIMED). NULL when out of memory. */
enum { OWN_EXACT, OWN_TASKS, OWN_TASKS_UNTIMED, OWN_LOST };
static unsigned char *own_time_rules(const struct rp_profile *p, double *roots)
{
    size_t nt = p->nthreads;
    unsigned char *rule = calloc(nt ? nt : 1, 1);
    json_t *threads = json_object_get(p->root, "threads");
    for (size_t th = 0; rule && th < nt; th++)
        rule[th] = json_integer_value(json_object_get(json_array_get(threads, th),
                                                      "dropped_paths")) > 0
                       ? OWN_LOST
                       : OWN_EXACT;
    for (size_t i = 0; rule && i < p->nnodes; i++) {
        size_t j;
        json_t *t;
        if (p->nodes[i].task_root)
            json_array_foreach(p->nodes[i].per_thread, j, t) {
                long long th = json_integer_value(json_object_get(t, "thread"));
                if (th >= 0 && (size_t)th < nt) {
                    rule[th] = rule[th] == OWN_LOST ? OWN_LOST : OWN_TASKS;
                    roots[th] += field(t, "incl_ns", NULL);
                }
            }
    }
    /* tasks run where no recorded region was open (measurement paused,
     * filters, levels at none) left their time out of no region's own */
    for (size_t th = 0; rule && th < nt; th++)
        roots[th] -= json_number_value(json_object_get(json_array_get(threads, th), "unframed_tasks_ns"));
    for (size_t i = 0; rule && i < p->nnodes; i++) {
        size_t j;
        json_t *t;
        json_array_foreach(p->nodes[i].per_thread, j, t) {
            long long th = json_integer_value(json_object_get(t, "thread"));
            if (th >= 0 && (size_t)th < nt && field(t, "untimed", NULL) > 0 && rule[th] == OWN_TASKS)
                rule[th] = OWN_TASKS_UNTIMED;
        }
    }
    return rule;
}

/* On each thread that was in a node, its children's inclusive times add up to
 * at most the node's, less the thread's team shares grafted into a child
 * (share_ns: a share was on none of the thread's frames, so not in its time in
 * the parent, which the same thread may also have had: libomp gives a pool
 * thread to teams at several nesting levels). A thread without figures in the
 * parent was there only by such grafts; device streams are grafted share by
 * share. */
static void check_children(struct checker *c)
{
    const struct rp_profile *p = c->p;
    size_t nt = p->nthreads;
    double *sum = calloc(nt ? nt : 1, sizeof *sum);
    size_t *count = calloc(nt ? nt : 1, sizeof *count);
    /* each node's children as a list (first_child, next_sibling), made in one
     * pass: a scan of each node's subtree for its children was quadratic in
     * the depth (a 40,000-level recursion: 4 s) */
    size_t *first_child = malloc((p->nnodes ? p->nnodes : 1) * sizeof *first_child);
    size_t *next_sibling = malloc((p->nnodes ? p->nnodes : 1) * sizeof *next_sibling);
    if (!sum || !count || !first_child || !next_sibling) {
        free(sum), free(count), free(first_child), free(next_sibling);
        failed(c, NULL, "out of memory", "the children could not be checked");
        return;
    }
    for (size_t i = 0; i < p->nnodes; i++)
        first_child[i] = NO_PARENT;
    for (size_t k = p->nnodes; k-- > 0;) {
        size_t parent = p->nodes[k].parent_index;
        next_sibling[k] = NO_PARENT;
        if (parent != NO_PARENT && parent < p->nnodes) {
            next_sibling[k] = first_child[parent];
            first_child[parent] = k;
        }
    }
    double *gaps = calloc(nt ? nt : 1, sizeof *gaps), *roots = calloc(nt ? nt : 1, sizeof *roots);
    size_t *entries = calloc(nt ? nt : 1, sizeof *entries);
    unsigned char *own_rule = roots ? own_time_rules(p, roots) : NULL;
    for (size_t i = 0; i < p->nnodes; i++) {
        memset(sum, 0, nt * sizeof *sum);
        memset(count, 0, nt * sizeof *count);
        for (size_t k = first_child[i]; k != NO_PARENT; k = next_sibling[k]) {
            size_t j;
            json_t *t;
            json_array_foreach(p->nodes[k].per_thread, j, t) {
                long long th = json_integer_value(json_object_get(t, "thread"));
                if (th >= 0 && (size_t)th < nt) {
                    double own = field(t, "incl_ns", NULL) - field(t, "share_ns", NULL);
                    sum[th] += own > 0 ? own : 0;
                    count[th]++;
                }
            }
        }
        size_t j;
        json_t *t;
        json_array_foreach(p->nodes[i].per_thread, j, t) {
            long long th = json_integer_value(json_object_get(t, "thread"));
            if (th < 0 || (size_t)th >= nt ||
                field(t, "visits", NULL) + field(t, "begins", NULL) == 0 ||
                is_device_stream(p, (size_t)th))
                continue;
            double incl = field(t, "incl_ns", NULL), excl = field(t, "excl_ns", NULL);
            if (sum[th] > incl + SLACK_NS(count[th], incl))
                failed(c, NULL, "children within their parent",
                       "node %lld thread %lld: children %.16g ns > its own inclusive %.16g ns",
                       p->nodes[i].id, th, sum[th], incl);
            else if (own_rule && own_rule[th] == OWN_EXACT &&
                     fabs(excl - (incl - sum[th])) > SLACK_NS(count[th] + 1, incl))
                failed(c, NULL, "own time is inclusive less children",
                       "node %lld thread %lld: own %.16g ns, inclusive %.16g ns less children %.16g ns",
                       p->nodes[i].id, th, excl, incl, sum[th]);
            else if (own_rule &&
                     (own_rule[th] == OWN_TASKS || own_rule[th] == OWN_TASKS_UNTIMED)) {
                if (excl > incl - sum[th] + SLACK_NS(count[th] + 1, incl))
                    failed(c, NULL, "own time is inclusive less children",
                           "node %lld thread %lld (which ran tasks): own %.16g ns, more than "
                           "inclusive %.16g ns less children %.16g ns",
                           p->nodes[i].id, th, excl, incl, sum[th]);
                if (gaps && entries) {
                    gaps[th] += incl - sum[th] - excl;
                    entries[th] += (size_t)count[th] + 1;
                }
            }
        }
    }
    for (size_t th = 0; own_rule && gaps && roots && entries && th < nt; th++) {
        double slack = SLACK_NS(entries[th], roots[th]);
        if ((own_rule[th] == OWN_TASKS && fabs(gaps[th] - roots[th]) > slack) ||
            (own_rule[th] == OWN_TASKS_UNTIMED && gaps[th] > roots[th] + slack))
            failed(c, NULL, "own time is inclusive less children",
                   "thread %zu: the time its regions' own times leave out, %.16g ns, is not the "
                   "time of the tasks it ran there, %.16g ns (its task roots' inclusive time)",
                   th, gaps[th], roots[th]);
    }
    free(sum), free(count), free(first_child), free(next_sibling), free(own_rule);
    free(gaps), free(roots), free(entries);
}

static void check_waits(struct checker *c)
{
    for (size_t i = 0; i < c->p->nwaits; i++) {
        const struct rp_wait_row *w = &c->p->waits[i];
        if (w->node && w->total > w->thread_time + SLACK_NS(WAIT_COUNT, w->thread_time))
            failed(c, NULL, "waits within region time",
                   "node %lld: %.16g ns of waits in %.16g ns of thread time (%.1f %%)", w->node->id,
                   w->total, w->thread_time, 100.0 * w->total / w->thread_time);
    }
}

/* A region's time on a thread, all its call paths together, fits in the run:
 * paths that run inside each other (recursion, a task run inside a wait of
 * the same region) count once. */
static void check_flat_time(struct checker *c)
{
    const struct rp_profile *p = c->p;
    for (size_t f = 0; f < p->nflat && p->duration_ns > 0; f++)
        if (p->flat[f].s.max > p->duration_ns * 1.01 + 1e6)
            failed(c, NULL, "a region's time within the run",
                   "region %lld: %.16g ns on one thread, all its call paths together, in a run of %.16g ns",
                   p->flat[f].region->id, p->flat[f].s.max, p->duration_ns);
}

/* The POP factors of the run and of each rated parallel region are shares:
 * within 0..100 % (1 % slack for clock reads). A worker's closing barrier left
 * open to the end of a run read as fork/join of 451 %, and --check passed (a
 * probe). */
static void check_pop_one(struct checker *c, const struct rp_pop *m, long long node)
{
    const struct {
        const char *name;
        double value;
    } factors[] = {{"parallel efficiency", m->parallel_eff},
                   {"load balance", m->load_balance},
                   {"synchronisation", m->sync_eff},
                   {"fork/join", m->fork_join_eff}};
    for (size_t k = 0; k < sizeof factors / sizeof *factors; k++)
        if (!(factors[k].value >= 0 && factors[k].value <= 1.01) && node < 0)
            failed(c, NULL, "efficiency factors within 0..100 %", "the run: %s %.1f %%", factors[k].name,
                   100.0 * factors[k].value);
        else if (!(factors[k].value >= 0 && factors[k].value <= 1.01))
            failed(c, NULL, "efficiency factors within 0..100 %", "parallel region, node %lld: %s %.1f %%",
                   node, factors[k].name, 100.0 * factors[k].value);
}

static void check_pop(struct checker *c)
{
    const struct rp_profile *p = c->p;
    if (p->pop_not_rated[0])
        return;
    if (p->pop_run.elapsed_ns > 0)
        check_pop_one(c, &p->pop_run, -1);
    for (size_t i = 0; i < p->npop; i++)
        check_pop_one(c, &p->pop_regions[i], p->pop_regions[i].node->id);
}

/* The flat profile's visits of a region are the call-path rows' visits of its nodes. */
static void check_visits(struct checker *c)
{
    const struct rp_profile *p = c->p;
    for (size_t f = 0; f < p->nflat; f++) {
        double visits = 0, begins = 0;
        for (size_t n = 0; n < p->flat[f].nnodes; n++) {
            size_t i = p->flat[f].nodes[n];
            if (!rp_flat_takes(p, &p->flat[f], i))
                continue;
            size_t k;
            json_t *t;
            json_array_foreach(p->nodes[i].per_thread, k, t) {
                visits += field(t, "visits", NULL);
                begins += field(t, "begins", NULL);
            }
        }
        double expected = rp_executions(visits, begins);
        if (p->flat[f].s.visits != expected)
            failed(c, NULL, "the same visits in every table",
                   "region %lld: %.16g in the flat profile, %.16g in its call paths",
                   p->flat[f].region->id, p->flat[f].s.visits, expected);
    }
}

static int runtime_with_place(const struct rp_region *r)
{
    const char *init = json_string_value(json_object_get(r->json, "init"));
    return init && strcmp(init, "ompt") == 0 && r->file[0] && r->first_line > 0;
}

/* Orders regions by what a row shows of them: type, name, file, lines (a
 * region with a file shows no function). */
static int by_row(const void *pa, const void *pb)
{
    const struct rp_region *a = *(const struct rp_region *const *)pa;
    const struct rp_region *b = *(const struct rp_region *const *)pb;
    int d;
    if ((d = strcmp(a->type, b->type)) || (d = strcmp(a->name, b->name)) ||
        (d = strcmp(a->file, b->file)))
        return d;
    if (a->first_line != b->first_line)
        return a->first_line < b->first_line ? -1 : 1;
    return a->last_line < b->last_line ? -1 : a->last_line > b->last_line;
}

/* Two regions the runtime reported at the same place (type, name, file,
 * lines) would be two identical rows: libpomp makes them one. A
 * region without a file is told apart by where its call paths place it. */
static void check_one_row_per_place(struct checker *c)
{
    const struct rp_profile *p = c->p;
    const struct rp_region **v = calloc(p->nregions ? p->nregions : 1, sizeof *v);
    if (!v) {
        failed(c, NULL, "out of memory", "the regions' places could not be checked");
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < p->nregions; i++)
        if (runtime_with_place(&p->regions[i]))
            v[n++] = &p->regions[i];
    qsort(v, n, sizeof *v, by_row);
    for (size_t i = 1; i < n; i++)
        if (by_row(&v[i - 1], &v[i]) == 0)
            failed(c, NULL, "one region per place", "regions %lld and %lld: both %s%s%s at %s:%d",
                   v[i - 1]->id, v[i]->id, v[i]->type, v[i]->name[0] ? " " : "", v[i]->name,
                   v[i]->file[0] ? v[i]->file : "-", v[i]->first_line);
    free(v);
}

/* An id and the object holding it, in the order of the file (seq) for ties. */
struct id_at {
    long long id;
    size_t seq;
    json_t *object;
};

static int by_id(const void *a, const void *b)
{
    const struct id_at *x = a, *y = b;
    if (x->id != y->id)
        return (x->id > y->id) - (x->id < y->id);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Each value of key in the array's objects names one of them (what: what a
 * repeated one is said to name more than one of), said at the second one's
 * place in the file. */
static void check_unique(struct checker *c, json_t *array, const char *key, const char *what)
{
    size_t count = json_array_size(array), i;
    struct id_at *v = malloc((count ? count : 1) * sizeof *v);
    json_t *o;
    if (!v)
        return;
    json_array_foreach(array, i, o) {
        json_t *id = json_object_get(o, key);
        if (!json_is_integer(id)) { /* (read as 0, which then "names more than one") */
            failed(c, id ? id : o, "structure", "%s[%zu].%s is %s", what, i, key,
                   id ? "not a whole number" : "missing");
            free(v);
            return;
        }
        v[i] = (struct id_at){json_integer_value(id), i, o};
    }
    qsort(v, count, sizeof *v, by_id);
    for (i = 1; i < count; i++)
        if (v[i].id == v[i - 1].id && (i == 1 || v[i - 1].id != v[i - 2].id))
            failed(c, v[i].object, "structure", "%s %lld names more than one %s", key, v[i].id, what);
    free(v);
}

/* The lives of the OS threads a record stood for one after another (since
 * 2026-12-06): os_threads of them, each [first event, end of its work],
 * in time order, within the record's life (the run's places count them). */
static void check_os_lives(struct checker *c, size_t i, json_t *t)
{
    json_t *lives = json_object_get(t, "os_thread_lives"), *l;
    if (!lives)
        return;
    double start = json_number_value(json_object_get(t, "start_ns")),
           end = json_number_value(json_object_get(t, "end_ns")), before = start;
    if (!json_is_array(lives) ||
        json_array_size(lives) != (size_t)json_integer_value(json_object_get(t, "os_threads"))) {
        failed(c, lives, "structure", "threads[%zu].os_thread_lives is not an array of os_threads lives", i);
        return;
    }
    size_t k;
    json_array_foreach(lives, k, l) {
        json_t *s = json_array_get(l, 0), *e = json_array_get(l, 1);
        if (!json_is_array(l) || json_array_size(l) != 2 || !json_is_number(s) || !json_is_number(e)) {
            failed(c, l, "structure", "threads[%zu].os_thread_lives[%zu] is not [start, end] in ns", i, k);
            return;
        }
        if (json_number_value(s) < before || json_number_value(e) < json_number_value(s) ||
            json_number_value(e) > end) {
            failed(c, l, "no impossible figure",
                   "threads[%zu].os_thread_lives[%zu] is %s", i, k,
                   json_number_value(e) < json_number_value(s) ? "a life that ends before it starts"
                   : json_number_value(s) < before ? "a life before the record's start or the one before it"
                                                   : "a life past the record's end (end_ns)");
            return;
        }
        before = json_number_value(e);
    }
}

/* Ids that name one thing each; the threads' loss counters and the clock,
 * which pomp-report reads as 0 (or divides by) when they are not numbers. */
static void check_ids_and_threads(struct checker *c)
{
    const struct rp_profile *p = c->p;
    static const char *const counters[] = {"nesting_errors", "dropped_paths", "dropped_events",
                                           "dropped_values", "deep_events",   "untimed_events",
                                           "open_at_end"};
    json_t *t, *threads = json_object_get(p->root, "threads");
    size_t i;
    check_unique(c, json_object_get(p->root, "regions"), "id", "region");
    check_unique(c, json_object_get(p->root, "callpath"), "id", "call-path node");
    check_unique(c, threads, "index", "thread");
    json_array_foreach(threads, i, t) {
        /* a thread's index is its place: the figures read a node's thread
         * by the one, some names and spans by the other (an index 7 for 1
         * passed; a probe) */
        json_t *index = json_object_get(t, "index");
        if (json_is_integer(index) && json_integer_value(index) != (json_int_t)i)
            failed(c, index, "structure", "threads[%zu].index is %lld, not its place in threads (%zu)",
                   i, (long long)json_integer_value(index), i);
        for (size_t k = 0; k < sizeof counters / sizeof *counters; k++) {
            json_t *v = json_object_get(t, counters[k]);
            if (!json_is_integer(v) || json_integer_value(v) < 0)
                failed(c, v ? v : t, "no silent loss", "threads[%zu].%s is %s", i, counters[k],
                       !v ? "missing" : !json_is_integer(v) ? "not a whole number" : "below 0");
        }
        /* a thread's work ends within its life (both since 2026-12-06) */
        json_t *last = json_object_get(t, "last_event_ns");
        if (last && (!json_is_number(last) ||
                     json_number_value(last) < json_number_value(json_object_get(t, "start_ns")) ||
                     json_number_value(last) > json_number_value(json_object_get(t, "end_ns"))))
            failed(c, last, "no impossible figure", "threads[%zu].last_event_ns is %s", i,
                   !json_is_number(last) ? "not a number" : "outside its life (start_ns..end_ns)");
        check_os_lives(c, i, t);
        /* (since 2026-12-06: a profile of before has none) */
        json_t *interrupted = json_object_get(t, "interrupted_events");
        if (interrupted && (!json_is_integer(interrupted) || json_integer_value(interrupted) < 0))
            failed(c, interrupted, "no silent loss", "threads[%zu].interrupted_events is %s", i,
                   !json_is_integer(interrupted) ? "not a whole number" : "below 0");
        /* a thread waits for a CPU only while it lives (both from its first
         * event: the kernel's clock beside the TSC's, 1 ms apart at most) */
        json_t *w = json_object_get(t, "cpu_wait_ns");
        double life = json_number_value(json_object_get(t, "end_ns")) -
                      json_number_value(json_object_get(t, "start_ns"));
        if (i == p->initial_thread) /* the initial thread: the whole run */
            life = p->duration_ns;
        else if (json_is_number(json_object_get(t, "cpu_wait_life_ns"))) /* the lives read */
            life = json_number_value(json_object_get(t, "cpu_wait_life_ns"));
        if (w && !(json_is_number(w) && json_number_value(w) >= 0))
            failed(c, w, "no negative figure", "threads[%zu].cpu_wait_ns is not a number of 0 or more",
                   i);
        else if (w && json_number_value(w) > life + 1e6)
            failed(c, w, "no impossible figure", "threads[%zu] waited %.3f ms for a CPU in a life of %.3f ms",
                   i, json_number_value(w) / 1e6, life / 1e6);
    }
    json_t *clock = json_object_get(p->root, "clock"), *r;
    if (clock && !(json_number_value(json_object_get(clock, "ticks_per_ns")) > 0))
        failed(c, json_object_get(clock, "ticks_per_ns") ? json_object_get(clock, "ticks_per_ns") : clock,
               "no negative figure", "clock.ticks_per_ns is not above 0");
    /* the texts a region is named by: a null name passed, and every table
     * named the region by nothing (a probe) */
    static const char *const texts[] = {"name", "file", "function", "init", "ctc"};
    json_array_foreach(json_object_get(p->root, "regions"), i, r) {
        if (!json_is_string(json_object_get(r, "type")))
            failed(c, json_object_get(r, "type") ? json_object_get(r, "type") : r, "structure", "regions[%zu].type is missing or not a string", i);
        for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
            json_t *v = json_object_get(r, texts[k]);
            if (v && !json_is_string(v))
                failed(c, v, "structure", "regions[%zu].%s is not a string", i, texts[k]);
        }
        /* a region's lines: whole numbers, the last not before the first
         * (each table shows file:first-last) */
        json_t *first = json_object_get(r, "first_line"), *last = json_object_get(r, "last_line");
        if ((first && !json_is_integer(first)) || (last && !json_is_integer(last)))
            failed(c, first && !json_is_integer(first) ? first : last, "whole numbers",
                   "regions[%zu].%s is not a whole number", i,
                   first && !json_is_integer(first) ? "first_line" : "last_line");
        else if (json_integer_value(first) < 0 || json_integer_value(last) < 0)
            failed(c, json_integer_value(first) < 0 ? first : last, "no negative figure",
                   "regions[%zu] has line %lld", i,
                   json_integer_value(json_integer_value(first) < 0 ? first : last));
        else if (json_integer_value(first) > 0 && json_integer_value(last) > 0 &&
                 json_integer_value(last) < json_integer_value(first))
            failed(c, last, "no impossible figure", "regions[%zu] ends at line %lld, before its "
                   "first line %lld", i, json_integer_value(last), json_integer_value(first));
    }
}

static void check_structure(struct checker *c)
{
    const struct rp_profile *p = c->p;
    json_t *callpath = json_object_get(p->root, "callpath");
    if (json_array_size(callpath) != p->nnodes)
        failed(c, NULL, "structure", "%zu of %zu call-path nodes are not reachable from the root "
                               "(a parent that is missing, or a cycle)",
               json_array_size(callpath) - p->nnodes, json_array_size(callpath));
    size_t i;
    json_t *n;
    json_array_foreach(callpath, i, n) {
        /* read as 0: a node without an id or parent hangs from the top, or
         * takes another's children; without per_thread its figures are gone */
        if (!json_is_integer(json_object_get(n, "id")) ||
            !json_is_integer(json_object_get(n, "parent")))
            failed(c, n, "structure", "call-path node %zu (in file order) has no \"%s\" (a whole "
                                   "number)",
                   i, !json_is_integer(json_object_get(n, "id")) ? "id" : "parent");
        if (!json_is_array(json_object_get(n, "per_thread")))
            failed(c, n, "structure", "node %lld has no per_thread array (its figures would be lost)",
                   json_integer_value(json_object_get(n, "id")));
        if (!json_is_integer(json_object_get(n, "region"))) /* read as 0: <overflow> */
            failed(c, n, "structure", "node %lld has no region id (\"region\" missing or not a whole "
                                   "number)",
                   json_integer_value(json_object_get(n, "id")));
        long long region = json_integer_value(json_object_get(n, "region"));
        int known = region == 0;
        for (size_t r = 0; r < p->nregions && !known; r++)
            known = p->regions[r].id == region;
        if (!known)
            failed(c, json_object_get(n, "region"), "structure", "node %lld names region %lld, which is not in \"regions\"",
                   json_integer_value(json_object_get(n, "id")), region);
    }
    for (size_t k = 0; k < p->nnodes; k++) {
        const struct rp_node *x = &p->nodes[k];
        if (!x->binding_id)
            continue;
        const struct rp_node *b = x->binding != NO_PARENT ? &p->nodes[x->binding] : NULL;
        if (!x->task_root || !b || !b->region || strcmp(b->region->type, "parallel") != 0)
            failed(c, NULL, "structure", "node %lld: binding %lld is %s", x->id, x->binding_id,
                   !x->task_root ? "set on a node that is no task root"
                   : !b          ? "no node of the file"
                                 : "no parallel region's node");
    }
    check_ids_and_threads(c);
    json_t *duration = json_object_get(p->root, "duration_ns");
    if (!json_is_integer(duration) || json_integer_value(duration) <= 0)
        failed(c, duration ? duration : p->root, "whole numbers", "duration_ns is missing, not a whole number or not above 0 "
                                   "(the run's figures are checked against it)");
    else if (!(p->duration_ns >= 0) || !isfinite(p->duration_ns))
        failed(c, NULL, "no negative figure", "duration_ns is %g", p->duration_ns);
}

static void check_all(struct checker *c);

int report_check(const struct rp_profile *p, const char *path)
{
    struct checker c = {.p = p, .path = path};
    check_all(&c);
    if (c.failures) {
        fprintf(stderr, "pomp-report: check: %s: %zu invariant%s broken\n", path, c.failures,
                c.failures == 1 ? "" : "s");
        return 1;
    }
    printf("pomp-report: check: %s: %zu call paths, %zu regions, %zu threads: every invariant holds\n",
           path, p->nnodes, p->nregions, p->nthreads);
    return 0;
}

size_t report_check_quiet(const struct rp_profile *p, const char *path, char *first, size_t size)
{
    struct checker c = {.p = p, .path = path, .quiet = 1};
    check_all(&c);
    if (size)
        snprintf(first, size, "%s", c.first);
    return c.failures;
}

static void check_all(struct checker *c)
{
    const struct rp_profile *p = c->p;
    check_structure(c);
    for (size_t i = 0; i < p->nnodes; i++) {
        size_t k;
        json_t *t;
        json_array_foreach(p->nodes[i].per_thread, k, t)
            check_entry(c, &p->nodes[i], t);
    }
    check_children(c);
    check_waits(c);
    check_visits(c);
    check_flat_time(c);
    check_one_row_per_place(c);
    check_pop(c);
}
