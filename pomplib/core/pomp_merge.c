#include "pomp_merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_hash.h"
#include "pomp_region.h"
#include "pomp_thread.h"

/* The output's record of a live region (NULL for one made after the snapshot):
 * the one it is one with, if any. */
static const struct pomp_run_region *run_region(const struct pomp_merged *m,
                                                const struct POMP_Region_s *r)
{
    if (!r || r->id < 1 || r->id > m->nregions)
        return NULL;
    const struct pomp_run_region *rr = &m->regions[r->id - 1];
    return rr->same_as ? &m->regions[rr->same_as - 1] : rr;
}

/* The children index's home slot for a key. */
static size_t index_home(const struct pomp_merged *m, size_t parent, const struct pomp_run_region *r,
                         int overflow, int task_root, size_t binding)
{
    uint64_t h = (uint64_t)parent * UINT64_C(0x9E3779B97F4A7C15) ^
                 (uint64_t)(uintptr_t)r * UINT64_C(0xC2B2AE3D27D4EB4F) ^
                 (uint64_t)binding * UINT64_C(0x165667B19E3779F9) ^
                 (uint64_t)(overflow * 2 + task_root);
    return (size_t)pomp_hash_mix(h) & (m->index_slots - 1);
}

static void index_put(struct pomp_merged *m, size_t i)
{
    const struct pomp_mnode *n = &m->nodes[i];
    size_t k = index_home(m, n->parent, n->region, n->overflow, n->task_root, n->binding);
    while (m->child_index[k])
        k = (k + 1) & (m->index_slots - 1);
    m->child_index[k] = i;
}

/* Room for one more node in the index: twice the slots once it would be
 * more than half full, every node put again. */
static int index_make_room(struct pomp_merged *m)
{
    if (m->count + 1 <= m->index_slots / 2)
        return 0;
    size_t slots = m->index_slots ? m->index_slots * 2 : 1024;
    size_t *bigger = calloc(slots, sizeof *bigger);
    if (!bigger)
        return -1;
    free(m->child_index);
    m->child_index = bigger;
    m->index_slots = slots;
    for (size_t i = 1; i < m->count; i++)
        index_put(m, i);
    return 0;
}

static size_t add_node(struct pomp_merged *m, size_t parent, const struct pomp_run_region *r,
                       int overflow, int task_root, size_t binding)
{
    if (m->count == m->capacity) {
        size_t cap = m->capacity ? m->capacity * 2 : 64;
        struct pomp_mnode *n = realloc(m->nodes, cap * sizeof *n);
        if (!n)
            return (size_t)-1;
        m->nodes = n;
        struct pomp_stat *s = realloc(m->stats, cap * m->nthreads * sizeof *s);
        if (!s)
            return (size_t)-1;
        m->stats = s;
        m->capacity = cap;
    }
    if (index_make_room(m) != 0)
        return (size_t)-1;
    size_t i = m->count++;
    m->nodes[i] = (struct pomp_mnode){
        .region = r, .parent = parent, .overflow = overflow, .task_root = task_root,
        .binding = binding};
    memset(&m->stats[i * m->nthreads], 0, m->nthreads * sizeof *m->stats);
    if (i != 0) {
        m->nodes[i].next_sibling = m->nodes[parent].first_child;
        m->nodes[parent].first_child = i;
        index_put(m, i);
    }
    return i;
}

/* The merged child of parent for the thread's node n: found in the index
 * (a parent of thousands of children, each merged from every thread, costs
 * no walk of its list), else new. A task root's key includes the merged
 * node of its team's fork point, if merged (task_root_waits). */
static size_t find_child(struct pomp_merged *m, size_t parent, const struct pomp_node *n)
{
    int overflow = n->region == NULL;
    const struct pomp_run_region *r = run_region(m, n->region);
    /* (a team forked on a path that did not fit, at the overflow node: not known) */
    size_t binding = n->task_root && n->fork && n->fork->region ? n->fork->merged : 0;
    if (m->index_slots)
        for (size_t k = index_home(m, parent, r, overflow, n->task_root, binding), c;
             (c = m->child_index[k]) != 0; k = (k + 1) & (m->index_slots - 1))
            if (m->nodes[c].parent == parent && m->nodes[c].region == r &&
                m->nodes[c].overflow == overflow && m->nodes[c].task_root == n->task_root &&
                m->nodes[c].binding == binding)
                return c;
    return add_node(m, parent, r, overflow, n->task_root, binding);
}

/* The merged node where some thread entered region r (the fork point of a team). */
static size_t find_entered(const struct pomp_merged *m, const struct POMP_Region_s *live)
{
    const struct pomp_run_region *r = run_region(m, live);
    for (size_t i = 1; i < m->count; i++) {
        if (m->nodes[i].region != r)
            continue;
        for (uint32_t t = 0; t < m->nthreads; t++)
            if (pomp_merged_stat(m, i, t)->visits)
                return i;
    }
    return 0;
}

static int add_stats(struct pomp_stat *s, const struct pomp_node *n)
{
    s->visits += n->visits;
    s->begins += n->begins;
    s->incl += n->incl;
    s->excl += n->excl;
    s->body += n->body;
    s->untimed += n->untimed;
    s->helpers += n->helpers;
    s->overlap += n->overlap;
    s->nested += n->nested;
    s->samples_work += n->samples_work;
    s->samples_wait += n->samples_wait;
    if (n->visits + n->begins) {
        uint64_t nmin = n->min == UINT64_MAX ? 0 : n->min;
        if (s->min == 0 || nmin < s->min)
            s->min = nmin;
        if (n->max > s->max)
            s->max = n->max;
    }
    return n->values ? pomp_values_merge(&s->values, n->values) : 0;
}

/* Adds n's figures to merged node i, and n's children below it. */
static int merge_into(struct pomp_merged *m, uint32_t thread, size_t i, struct pomp_node *n)
{
    n->merged = i;
    struct pomp_stat *s = pomp_merged_stat(m, i, thread);
    if (add_stats(s, n) != 0)
        return -1;
    /* time inside a twin open outside the tasks: overlap where the two are
     * one region now (fold_same_place) */
    const struct pomp_run_region *one = n->twin_overlap ? run_region(m, n->region) : NULL;
    if (one && one == run_region(m, n->twin))
        s->overlap += n->twin_overlap;
    for (struct pomp_node *c = n->first_child; c; c = c->next_sibling) {
        size_t ci = find_child(m, i, c);
        if (ci == (size_t)-1 || merge_into(m, thread, ci, c) != 0)
            return -1;
    }
    return 0;
}

/* A top-level node that the thread began without entering: a team member's
 * share of a region some other thread entered. With OMPT it knows the node
 * where the team was forked. Only a parallel or teams region is shared so: a
 * function or user region also has begins without enters, and taken for a
 * share, the master's own path under it (a fork inside a function) was merged
 * late, and its workers' shares went under another path of the region. */
static int is_team_share(const struct pomp_node *n)
{
    if (n->task_root)
        return 0;
    if (n->fork != NULL)
        return 1;
    if (n->visits != 0 || n->begins == 0 || !n->region)
        return 0;
    const char *type = pomp_region_type(n->region);
    return strcmp(type, "parallel") == 0 || strcmp(type, "teams") == 0;
}

/* A task root of the tasks run in a known team: merged once the team's
 * fork point is, keyed by it. */
static int task_root_waits(const struct pomp_node *n)
{
    return n->task_root && n->fork != NULL;
}

enum merge_pass {
    PASS_OWN,      /* what the thread entered itself, and its overflow node */
    PASS_FORKED,   /* team shares and task roots whose fork point is merged already */
    PASS_REST,     /* the other team shares: under the first node where the region was
                      entered; the other task roots: without their team */
};

/* Merges the thread's top-level nodes that belong to this pass; *progress
 * counts the ones merged. */
static int merge_thread(struct pomp_merged *m, struct pomp_thread *t, enum merge_pass pass,
                        size_t *progress)
{
    struct pomp_profile *p = &t->profile;
    for (struct pomp_node *n = p->root.first_child; n; n = n->next_sibling) {
        int share = is_team_share(n);
        if (n->merged || (share || task_root_waits(n)) != (pass != PASS_OWN))
            continue;
        size_t target = 0;
        if (pass == PASS_FORKED && (!n->fork || !n->fork->merged))
            continue;
        if (pass == PASS_FORKED && share)
            target = n->fork->merged; /* the master's node of the same region */
        else if (pass == PASS_REST && share)
            target = find_entered(m, n->region);
        int grafted = target != 0;
        if (target == 0)
            target = find_child(m, 0, n);
        if (target == (size_t)-1 || merge_into(m, t->index, target, n) != 0)
            return -1;
        /* a share was on none of this thread's frames: what it adds to the
         * thread's column here is not inside the thread's time in the parent
         * node, where the thread may have been too (a pool thread of libomp
         * is a worker at several nesting levels in turn) */
        if (grafted)
            pomp_merged_stat(m, target, t->index)->share += n->incl;
        (*progress)++;
    }
    if (pass == PASS_OWN && (p->overflow.visits || p->overflow.begins)) {
        size_t target = find_child(m, 0, &p->overflow);
        return target == (size_t)-1 ? -1 : merge_into(m, t->index, target, &p->overflow);
    }
    return 0;
}

static void clear_node(struct pomp_node *n) { n->merged = 0; }

/* Forgets the merged indices of an earlier merge. */
static void clear_merged(struct pomp_thread *t)
{
    struct pomp_profile *p = &t->profile;
    p->root.merged = p->overflow.merged = 0;
    pomp_profile_for_each_node(p, clear_node);
}

/* Whether a runtime region has a source place (debug information gave its
 * code address a file and a line). One without is told apart from the others
 * of its function by where its call paths place it (pomp-report), so it stays
 * its own. */
static int from_runtime(const struct pomp_run_region *r) { return strcmp(r->init, "ompt") == 0; }

/* Where a region is, for telling two regions at one place: for a runtime
 * region made in an instrumented construct (construct_file and
 * construct_lines: a worksharing construct's closing barrier, a taskgroup's
 * wait), that construct, whose region it is whatever its code address: GCC
 * -O2 may put a single's GOMP_barrier on two code paths, whose lines the
 * debug information gives as 10 and 11, or one outside the construct, not
 * taken (bridge_symbols.c): two rows of one barrier, each on one thread,
 * where a build without -g had one (a probe). Otherwise its own file and
 * lines (the instrumentation's, or the runtime's named by debug
 * information). */
struct fold_place {
    int own; /* 1: the region's own file and lines; 0: its construct's; 2: its code's
                library and offset */
    const char *file;
    long long first, last;
};

static int fold_place(const struct pomp_run_region *r, struct fold_place *p)
{
    if (!r->id || !r->init || r->ctc_error)
        return 0;
    const char *file = ctc_get(&r->ctc, "construct_file");
    const char *lines = ctc_get(&r->ctc, "construct_lines");
    int first, last;
    if (from_runtime(r) && file && lines && sscanf(lines, "%d,%d", &first, &last) == 2) {
        *p = (struct fold_place){0, file, first, last};
        return 1;
    }
    if (r->ctc.file && r->ctc.file[0] && r->ctc.start_line_first > 0) {
        *p = (struct fold_place){1, r->ctc.file, r->ctc.start_line_first, r->ctc.end_line_last};
        return 1;
    }
    /* no line known: the same code of the same library is the same construct
     * (a plain plugin loaded by dlopen again after dlclose: its call sites
     * were let go at the dlclose, bridge_regions_forget, and each load made
     * regions of its own, three rows of one visit for one region of three).
     * Not one the bridge placed at another region's address (place_of: a
     * tail-called nested fork at its enclosing region's), whose code it is
     * not: without a line to name them, two regions at one address (with
     * one, one row of the place, the rule above) */
    const char *module = ctc_get(&r->ctc, "module"), *offset = ctc_get(&r->ctc, "offset");
    unsigned long long at;
    if (from_runtime(r) && module && offset && !ctc_get(&r->ctc, "place_of") &&
        sscanf(offset, "%llx", &at) == 1) {
        *p = (struct fold_place){2, module, (long long)at, (long long)at};
        return 1;
    }
    return 0;
}

static int placed(const struct pomp_run_region *r)
{
    struct fold_place p;
    return fold_place(r, &p);
}

static int compare_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int compare_int(long long a, long long b) { return (a > b) - (a < b); }

/* Orders regions with a place by their label: type, name, place, lines.
 * Not by function: a template's instantiations (or an inline function's
 * copies) are functions of their own at one place, which the report showed
 * as identical rows; the instrumentation makes one region of a construct
 * there too. */
static int compare_labels(const struct pomp_run_region *a, const struct pomp_run_region *b)
{
    struct fold_place x, y;
    int c;
    fold_place(a, &x);
    fold_place(b, &y);
    if (from_runtime(a) != from_runtime(b)) /* never one of each: a construct counted once */
        return from_runtime(a) - from_runtime(b);
    if ((c = compare_str(a->type, b->type)) || (c = compare_str(a->ctc.name, b->ctc.name)) ||
        (c = compare_int(x.own, y.own)) || (c = compare_str(x.file, y.file)) ||
        (c = compare_int(x.first, y.first)) || (c = compare_int(x.last, y.last)))
        return c;
    return 0;
}

/* qsort's order: by label, then id. */
static int by_label(const void *pa, const void *pb)
{
    const struct pomp_run_region *a = *(const struct pomp_run_region *const *)pa;
    const struct pomp_run_region *b = *(const struct pomp_run_region *const *)pb;
    int c = compare_labels(a, b);
    return c ? c : a->id < b->id ? -1 : a->id > b->id;
}

/* Regions that the profile could only show as two identical rows are one:
 * the same construct at the same place, reported by the runtime from two code
 * addresses (an inline function's loop barrier, inlined into two outlined
 * functions), or instrumented in translation units compiled in two
 * directories that named its header each their own way ("../k.h" from sub/,
 * "k.h" from the top: one name once the run names every file,
 * pomp_regions_place_files).
 * Each later one is the first one's (same_as), which keeps its own code
 * address in the trace; the first is throttled from the earliest time any of
 * them was. Returns -1 if memory ran out (nothing is folded then). */
static int fold_same_place(struct pomp_merged *m)
{
    size_t n = 0;
    for (uint32_t i = 0; i < m->nregions; i++)
        n += placed(&m->regions[i]);
    if (n < 2)
        return 0;
    struct pomp_run_region **v = malloc(n * sizeof *v);
    if (!v)
        return -1;
    n = 0;
    for (uint32_t i = 0; i < m->nregions; i++)
        if (placed(&m->regions[i]))
            v[n++] = &m->regions[i];
    qsort(v, n, sizeof *v, by_label);
    for (size_t i = 1, first = 0; i < n; i++) {
        struct pomp_run_region *one = v[first], *r = v[i];
        if (compare_labels(one, r) != 0) {
            first = i;
            continue;
        }
        r->same_as = one->id;
        if (compare_str(ctc_get(&one->ctc, "function"), ctc_get(&r->ctc, "function")) != 0)
            one->several_functions = 1;
        if (r->throttled_ns && (!one->throttled_ns || r->throttled_ns < one->throttled_ns)) {
            one->throttled_ns = r->throttled_ns;
            one->throttled_after = r->throttled_after;
        }
    }
    free(v);
    return 0;
}

/* The output's description of every region, by id. */
static int describe_regions(struct pomp_merged *m)
{
    m->nregions = pomp_region_count();
    m->regions = calloc(m->nregions ? m->nregions : 1, sizeof *m->regions);
    if (!m->regions)
        return -1;
    for (const struct POMP_Region_s *r = pomp_region_list(); r; r = r->next) {
        if (r->id < 1 || r->id > m->nregions)
            continue; /* made after the count was taken (a late event) */
        m->regions[r->id - 1] = (struct pomp_run_region){
            .id = r->id,
            .type = pomp_region_type(r),
            .init = pomp_region_init_name(r),
            .ctc_text = r->ctc_text,
            .ctc = r->ctc,
            .filtered = r->filtered_out,
            /* (a region the runtime reported exists because it ran) */
            .filtered_ran = r->init_kind == POMP_INIT_OMPT ||
                            __atomic_load_n(&r->filtered_ran, __ATOMIC_ACQUIRE),
            .throttled_ns = __atomic_load_n(&r->throttled, __ATOMIC_ACQUIRE) ? r->throttled_ns : 0,
            .throttled_after = r->throttled_after,
            .ctc_error = r->ctc_error,
            .ctc_error_offset = r->ctc_error_offset,
        };
    }
    return fold_same_place(m);
}

/* The output's description of a thread (or device stream) and what it lost. */
static struct pomp_run_thread describe_thread(const struct pomp_thread *t)
{
    return (struct pomp_run_thread){
        .index = t->index,
        .omp_thread_num = t->omp_thread_num,
        .os_tid = t->os_tid,
        .os_threads = t->os_threads,
        .earlier_lives = t->earlier_lives_lost ? NULL : t->earlier_lives,
        .os_first_ticks = t->os_first_ticks,
        .device = t->device,
        .host_thread = t->host_thread,
        .nesting_errors = t->profile.nesting_errors,
        .first_unmatched = t->profile.first_unmatched ? t->profile.first_unmatched->id : 0,
        .first_unended = t->profile.first_unended ? t->profile.first_unended->id : 0,
        .open_at_end = t->profile.open_at_end,
        .first_open = t->profile.first_open ? t->profile.first_open->id : 0,
        .unframed_task_ticks = t->profile.unframed_task_ticks,
        .dropped_paths = t->profile.dropped_paths,
        .deep_events = t->profile.deep_events,
        .interrupted_events = __atomic_load_n(&t->interrupted_events, __ATOMIC_RELAXED) +
                              (t->index == 0 ? pomp_threads_interrupted_registering() : 0),
        .untimed_events = t->profile.untimed_events,
        .max_nodes = t->profile.nodes_max,
        .dropped_values = t->profile.values.dropped,
        .first_ticks = t->profile.frames[0].start,
        .last_ticks = t->profile.last_closed,
        .ended_ticks = __atomic_load_n(&t->ended_at, __ATOMIC_ACQUIRE),
        .cpu_wait_ns = pomp_thread_cpu_wait_in_run(t),
        .cpu_wait_life_ns = __atomic_load_n(&t->cpu_wait_life_ns, __ATOMIC_RELAXED),
        .cpu_wait_unread = __atomic_load_n(&t->cpu_wait_unread, __ATOMIC_RELAXED),
        .cpu_wait_unread_ns = __atomic_load_n(&t->cpu_wait_unread_ns, __ATOMIC_RELAXED),
        .has_log = t->log.buf != NULL,
        .log_written = t->log.written,
        .log_dropped = t->log.dropped,
        .log_flushes = t->log.flushes,
        .log_error = t->log.error,
    };
}

static int merge_threads(struct pomp_merged *m, struct pomp_thread **live)
{
    if (add_node(m, 0, NULL, 0, 0, 0) == (size_t)-1)
        return -1;
    for (uint32_t i = 0; i < m->nthreads; i++)
        if (live[i])
            clear_merged(live[i]);
    /* First what threads entered themselves; then the team shares under their
     * fork points and the task roots of their teams, round after round (an
     * inner team's fork point is inside an outer team's share, or a task's);
     * then the shares and task roots whose fork point is unknown. */
    size_t progress = 0;
    for (uint32_t i = 0; i < m->nthreads; i++)
        if (live[i] && merge_thread(m, live[i], PASS_OWN, &progress) != 0)
            return -1;
    do {
        progress = 0;
        for (uint32_t i = 0; i < m->nthreads; i++)
            if (live[i] && merge_thread(m, live[i], PASS_FORKED, &progress) != 0)
                return -1;
    } while (progress);
    for (uint32_t i = 0; i < m->nthreads; i++)
        if (live[i] && merge_thread(m, live[i], PASS_REST, &progress) != 0)
            return -1;
    return 0;
}

int pomp_merge(struct pomp_merged *m)
{
    memset(m, 0, sizeof *m);
    struct pomp_thread *list = pomp_thread_list(&m->nthreads);
    struct pomp_thread **live = calloc(m->nthreads ? m->nthreads : 1, sizeof *live);
    m->threads = calloc(m->nthreads ? m->nthreads : 1, sizeof *m->threads);
    if (!live || !m->threads || describe_regions(m) != 0) {
        free(live);
        return -1;
    }
    for (struct pomp_thread *t = list; t; t = t->next)
        if (t->index < m->nthreads)
            live[t->index] = t;
    for (uint32_t i = 0; i < m->nthreads; i++)
        m->threads[i] = live[i] ? describe_thread(live[i])
                                : (struct pomp_run_thread){.index = i, .omp_thread_num = -1,
                                                           .device = -1};
    int rc = merge_threads(m, live);
    free(live);
    free(m->child_index);
    m->child_index = NULL;
    m->index_slots = 0;
    return rc;
}

void pomp_merged_free(struct pomp_merged *m)
{
    for (size_t i = 0; m->stats && i < m->count * m->nthreads; i++)
        pomp_values_free(m->stats[i].values);
    free(m->threads);
    free(m->regions);
    free(m->nodes);
    free(m->stats);
    free(m->child_index);
    memset(m, 0, sizeof *m);
}
