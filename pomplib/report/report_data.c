#include "report_data.h"
#include "report_pop.h"
#include "report_devices.h"
#include "report_sampling.h"
#include "pomp_region_type.h"
#include "pomp_twin.h"
#include "pomp_symbols.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define SUPPORTED_VERSION 1

const char *const wait_names[WAIT_COUNT] = {"barrier", "critical", "lock", "ordered", "taskwait",
                                            "idle"};

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static double num(json_t *o, const char *key) { return json_number_value(json_object_get(o, key)); }

void rp_region_label(const struct rp_region *r, char *buf, size_t size)
{
    if (!r)
        snprintf(buf, size, "<overflow>");
    else /* a throttled region's times cover its executions before it was throttled */
        snprintf(buf, size, "%s%s%s%s", r->type, *r->name ? " " : "", r->name,
                 json_object_get(r->json, "throttled") ? " [throttled]" : "");
}

/* A call path with some of its visits counted untimed: a throttled region's,
 * or one run inside a throttled region's executions (a critical reached 8,000
 * times under a throttled user region: 7,656 untimed, read unmarked with a
 * load balance from its timed prefix; a probe). A task construct's executions
 * stay timed once it is throttled (only its creations are counted): its tree
 * of executions read "task [throttled]", without a load balance, every
 * execution timed (a probe). */
int rp_node_throttled(const struct rp_node *n)
{
    int untimed = 0;
    size_t e;
    json_t *t;
    if (!n->region)
        return 0;
    json_array_foreach(n->per_thread, e, t) untimed |= num(t, "untimed") > 0;
    return untimed;
}

/* A node's own time per thread, sorted by thread: found by a binary search
 * for each thread of another node (a scan of the node's entries for each
 * made it quadratic in the threads: a traced server's 40,000 OS threads). */
struct thread_own {
    long long thread;
    double excl_ns;
};

static int by_thread_own(const void *x, const void *y)
{
    const struct thread_own *a = x, *b = y;
    return (a->thread > b->thread) - (a->thread < b->thread);
}

/* n's entries sorted (to free), or NULL where memory ran out or n has none
 * (thread_own_of then scans) */
static struct thread_own *thread_owns(const struct rp_node *n)
{
    size_t count = json_array_size(n->per_thread), k;
    json_t *t;
    struct thread_own *owns = count ? malloc(count * sizeof *owns) : NULL;
    if (!owns)
        return NULL;
    json_array_foreach(n->per_thread, k, t)
        owns[k] = (struct thread_own){json_integer_value(json_object_get(t, "thread")),
                                      num(t, "excl_ns")};
    qsort(owns, count, sizeof *owns, by_thread_own);
    return owns;
}

/* n's own time on thread (its entries sorted in owns, or NULL) */
static double thread_own_of(const struct rp_node *n, const struct thread_own *owns, size_t count,
                            long long thread)
{
    double own = 0;
    if (owns) {
        const struct thread_own key = {thread, 0}, *at = bsearch(&key, owns, count, sizeof *owns,
                                                                 by_thread_own);
        /* (every entry of the thread, as a scan adds them: one in a profile
         * pomp wrote) */
        while (at && at > owns && at[-1].thread == thread)
            at--;
        for (; at && at < owns + count && at->thread == thread; at++)
            own += at->excl_ns;
        return own;
    }
    size_t k;
    json_t *t;
    json_array_foreach(n->per_thread, k, t)
        if (json_integer_value(json_object_get(t, "thread")) == thread)
            own += num(t, "excl_ns");
    return own;
}

static int creates(const struct rp_profile *p, size_t i, const struct rp_region *x);

/* The own time of node a on the threads where node i has untimed executions;
 * *untimed: those executions. */
static double own_where_untimed(const struct rp_profile *p, size_t a, size_t i, double *untimed)
{
    const struct rp_node *at = &p->nodes[a];
    struct thread_own *owns = thread_owns(at);
    size_t nowns = json_array_size(at->per_thread), e;
    json_t *t;
    double own = 0;
    *untimed = 0;
    json_array_foreach(p->nodes[i].per_thread, e, t) {
        double n = num(t, "untimed");
        if (n <= 0)
            continue;
        *untimed += n;
        own += thread_own_of(at, owns, nowns, json_integer_value(json_object_get(t, "thread")));
    }
    free(owns);
    return own;
}

/* Where the untimed executions of node i went (POMP_THROTTLE: "their time
 * since is their enclosing region's own"): the parent of the outermost call
 * path above i with visits counted untimed, whose own time holds their time,
 * waits included, with its own work. *own_ns: that parent's own time on the
 * threads where i has untimed executions, *untimed: those executions. 0 where
 * none (a task root's own untimed executions, included tasks, are in the
 * timed executions they ran inside: its own times hold them). A phase change
 * shows here: a critical tiny for its first 50,000 executions, throttled,
 * then holding a 2 ms refinement 200 times, read 0.000 ms for those 200 and
 * its 843 ms (with its waits) read as the enclosing loop's own work, the note
 * giving no size (a probe).
 * Below a throttled task root (a critical in a recursion of tasks counted
 * inline) the path is that root: its executions counted inline ran inside its
 * timed ones or in the regions that created them, so its own time and those
 * regions' hold them (before 2026-12-04: none, and the report read "0.0 ms
 * holds" the time of 85,064 untimed critical executions; a real-code probe). */
int rp_node_untimed_in(const struct rp_profile *p, size_t i, size_t *anchor, size_t *holder,
                       double *own_ns, double *untimed)
{
    size_t top = i, unused;
    if (!holder)
        holder = &unused;
    *anchor = *holder = NO_PARENT;
    *own_ns = *untimed = 0;
    while (p->nodes[top].parent_index != NO_PARENT && !p->nodes[top].task_root &&
           rp_node_throttled(&p->nodes[p->nodes[top].parent_index]))
        top = p->nodes[top].parent_index;
    /* none: a task root's own untimed executions, or a path without a parent */
    if (p->nodes[top].task_root ? top == i : p->nodes[top].parent_index == NO_PARENT)
        return 0;
    if (!p->nodes[top].task_root) {
        *anchor = *holder = p->nodes[top].parent_index;
        *own_ns = own_where_untimed(p, *anchor, i, untimed);
        return *untimed > 0;
    }
    /* the anchor: the first node of those, so that the two roots of a
     * recursion through two constructs (fib's), which hold each other's
     * executions, name one anchor, their own times counted once by the
     * callers (10.9 ms "held" in a run of 9.2, a probe) */
    double u;
    *anchor = *holder = top;
    *own_ns = own_where_untimed(p, top, i, untimed);
    for (size_t c = 0; c < p->nnodes; c++) { /* (one creation node per creating path) */
        size_t at = p->nodes[c].parent_index;
        if (at == NO_PARENT || at == top || !creates(p, c, p->nodes[top].region))
            continue;
        *own_ns += own_where_untimed(p, at, i, &u);
        *anchor = at < *anchor ? at : *anchor;
    }
    return *untimed > 0;
}

/* Thread `thread`'s time outside every region: its span (its OS threads'
 * lives) less the time of its paths at the top (task roots apart: a task runs
 * inside a region, or its time is its creator's). */
static double thread_outside_ns(const struct rp_profile *p, long long thread)
{
    json_t *t;
    size_t k;
    double outside = 0;
    json_array_foreach(json_object_get(p->root, "threads"), k, t) {
        if (json_integer_value(json_object_get(t, "index")) != thread)
            continue;
        json_t *lives = json_object_get(t, "os_thread_lives"), *l;
        size_t i;
        outside = json_array_size(lives) ? 0 : num(t, "end_ns") - num(t, "start_ns");
        json_array_foreach(lives, i, l) /* (OS threads one after another: not the gaps) */
            outside += json_number_value(json_array_get(l, 1)) - json_number_value(json_array_get(l, 0));
    }
    for (size_t n = 0; n < p->nnodes; n++) {
        if (p->nodes[n].parent_index != NO_PARENT || p->nodes[n].task_root)
            continue;
        json_array_foreach(p->nodes[n].per_thread, k, t)
            if (json_integer_value(json_object_get(t, "thread")) == thread)
                outside -= num(t, "incl_ns");
    }
    return outside > 0 ? outside : 0;
}

double rp_node_untimed_outside(const struct rp_profile *p, size_t i, double *outside_ns)
{
    *outside_ns = 0;
    if (p->nodes[i].parent_index != NO_PARENT || p->nodes[i].task_root)
        return 0;
    double untimed = 0;
    json_t *t;
    size_t k;
    json_array_foreach(p->nodes[i].per_thread, k, t) {
        double n = num(t, "untimed");
        if (n <= 0)
            continue;
        untimed += n;
        *outside_ns += thread_outside_ns(p, json_integer_value(json_object_get(t, "thread")));
    }
    return untimed;
}

void rp_node_label(const struct rp_node *n, char *buf, size_t size)
{
    if (!n->region)
        rp_region_label(n->region, buf, size);
    else
        snprintf(buf, size, "%s%s%s%s", n->region->type, *n->region->name ? " " : "",
                 n->region->name, rp_node_throttled(n) ? " [throttled]" : "");
}

void rp_wait_label(const struct rp_wait_row *w, char *buf, size_t size)
{
    if (!w->node) {
        snprintf(buf, size, "(outside parallel regions)");
        return;
    }
    rp_node_label(w->node, buf, size); /* marked as its call path */
    if (w->node->task_root) /* the waits inside the task's executions */
        snprintf(buf + strlen(buf), size - strlen(buf), " (executions)");
}

static void file_location(const struct rp_region *r, char *buf, size_t size)
{
    if (r->first_line > 0)
        snprintf(buf, size, "%s:%d-%d", r->file, r->first_line, r->last_line);
    else
        snprintf(buf, size, "%s", r->file);
}

/* The value of key in a region's CTC string (*len its length), or NULL: a
 * runtime region's code address (codeptr), module and offset in it. */
static const char *ctc_field(const struct rp_region *r, const char *key, size_t *len)
{
    const char *ctc = json_string_value(json_object_get(r->json, "ctc"));
    size_t k = strlen(key);
    for (const char *at = ctc ? strchr(ctc, '*') : NULL; at; at = strchr(at + 1, '*'))
        if (strncmp(at + 1, key, k) == 0 && at[1 + k] == '=') {
            *len = strcspn(at + 2 + k, "*");
            return at + 2 + k;
        }
    return NULL;
}

static int same_field(const struct rp_region *a, const struct rp_region *b, const char *key)
{
    size_t la, lb;
    const char *pa = ctc_field(a, key, &la), *pb = ctc_field(b, key, &lb);
    return pa && pb && la == lb && strncmp(pa, pb, la) == 0;
}

/* A region's twin key (pomp_twin.h). */
static struct pomp_twin_key twin_key(const struct rp_region *r)
{
    struct pomp_twin_key k = {r->type, r->name, r->function, NULL, 0};
    k.module = ctc_field(r, "module", &k.module_len);
    return k;
}

static int cmp_twin_key(const void *x, const void *y)
{
    struct pomp_twin_key a = twin_key(*(struct rp_region *const *)x),
                         b = twin_key(*(struct rp_region *const *)y);
    return pomp_twin_key_cmp(&a, &b);
}

/* Marks the twins (pomp_twin.h): sorted by their key, they are neighbours. */
static void find_twins(struct rp_profile *p)
{
    struct rp_region **v = malloc((p->nregions + 1) * sizeof *v);
    size_t n = 0;
    if (!v)
        return; /* no labels: the rows are still right */
    for (size_t i = 0; i < p->nregions; i++) {
        struct rp_region *a = &p->regions[i];
        if (!*a->file && ctc_field(a, "offset", &(size_t){0})) /* (a function, or none: a
                                                                   stripped binary's) */
            v[n++] = a;
    }
    if (n)
        qsort(v, n, sizeof *v, cmp_twin_key);
    for (size_t i = 1; i < n; i++) {
        struct pomp_twin_key a = twin_key(v[i - 1]), b = twin_key(v[i]);
        if (pomp_twins(&a, &b))
            v[i - 1]->twin = v[i]->twin = 1;
    }
    free(v);
}

/* A function's label: name(), and where a twin shares the rest (find_twins)
 * the region's offset in its module, objdump's and addr2line's address, in
 * brackets: "main() [0x1c48]" ("main()+0x1c48" read as an offset into main,
 * which it was not). A twin without a function (a stripped binary's) is its
 * module and that offset: its two top-level regions were two rows
 * "parallel -" (a probe). */
static void function_label(const struct rp_region *r, char *buf, size_t size)
{
    size_t len = 0, mlen = 0;
    const char *offset = r->twin ? ctc_field(r, "offset", &len) : NULL;
    if (!offset) {
        snprintf(buf, size, "%s%s", r->function, pomp_symbols_call_parens(r->function));
    } else if (!*r->function) {
        const char *module = ctc_field(r, "module", &mlen);
        const char *base = pomp_twin_module_base(module, &mlen);
        snprintf(buf, size, "%.*s+%.*s", (int)mlen, base, (int)len, offset);
    } else {
        snprintf(buf, size, "%s%s [%.*s]", r->function, pomp_symbols_call_parens(r->function),
                 (int)len, offset);
    }
}

/* A runtime region without a file, placed in region `at` (which has a file,
 * or at least a function): after its own function if known (a runtime region
 * without debug information). */
static void placed_location(const struct rp_region *r, const struct rp_region *at, char *buf,
                            size_t size)
{
    char where[RP_LOCATION_MAX], own[RP_LOCATION_MAX];
    if (*at->file)
        file_location(at, where, sizeof where);
    else
        function_label(at, where, sizeof where);
    function_label(r, own, sizeof own);
    if (*r->function)
        snprintf(buf, size, "%s, in %s @ %s", own, at->type, where);
    else
        snprintf(buf, size, "in %s @ %s", at->type, where);
}

void rp_region_location(const struct rp_region *r, char *buf, size_t size)
{
    if (r && *r->file) {
        file_location(r, buf, size);
    } else if (r && r->placed_in) {
        placed_location(r, r->placed_in, buf, size);
    } else if (r && (*r->function || r->twin)) {
        function_label(r, buf, size);
    } else { /* the overflow node, or a region placed nowhere */
        snprintf(buf, size, "-");
    }
}

/* A task construct whose tasks ran in several teams has a task root for each:
 * its location says which team's (the parallel region's call path). */
void rp_node_location(const struct rp_profile *p, size_t i, char *buf, size_t size)
{
    const struct rp_node *n = &p->nodes[i];
    const struct rp_region *r = n->region, *at;
    if (r && n->task_root && r->task_roots > 1 && n->binding != NO_PARENT &&
        p->nodes[n->binding].region) {
        char own[RP_LOCATION_MAX], team[RP_LOCATION_MAX];
        rp_region_location(r, own, sizeof own);
        rp_node_location(p, n->binding, team, sizeof team);
        snprintf(buf, size, "%s, run in %s @ %s", own, p->nodes[n->binding].region->type, team);
    } else if (r && !*r->file && (at = n->place) != NULL)
        placed_location(r, at, buf, size);
    else
        rp_region_location(r, buf, size);
}

/* Each region without a file: the nearest enclosing region with a place of
 * its own (rp_node.place), if all its call paths agree (rp_region.placed_in). */
static void place_regions(struct rp_profile *p)
{
    /* each node's place: the nearest enclosing region with a place of its own
     * (a file, or a function: a runtime region without debug information);
     * parents come first, so a parent's is known */
    for (size_t i = 0; i < p->nnodes; i++) {
        size_t k = p->nodes[i].parent_index;
        const struct rp_region *up = k == NO_PARENT ? NULL : p->nodes[k].region;
        p->nodes[i].place = up && (*up->file || *up->function || up->twin) ? up
                            : k == NO_PARENT                   ? NULL
                                                               : p->nodes[k].place;
    }
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_region *r = p->nodes[i].region;
        if (!r || *r->file)
            continue;
        struct rp_region *x = &p->regions[r - p->regions];
        const struct rp_region *at = p->nodes[i].place;
        if (x->places == 0 && at) {
            x->placed_in = at;
            x->places = 1;
        } else if (x->places == 1 && at != x->placed_in) {
            x->placed_in = NULL;
            x->places = 2;
        } else if (x->places == 0) {
            x->places = 2; /* a path with no placed ancestor: placed nowhere */
        }
    }
}

static int type_is(const struct rp_region *r, const char *const *types)
{
    for (; r && *types; types++)
        if (strcmp(r->type, *types) == 0)
            return 1;
    return 0;
}

/* The OMPT bridge's wait regions (type "wait", named by what was waited for),
 * and libpomp's wait of an undeferred task for its dependences. */
static int wait_kind_of(const struct rp_region *r)
{
    static const struct {
        const char *name;
        enum wait_kind kind;
    } kinds[] = {{"lock", WAIT_LOCK},         {"nest_lock", WAIT_LOCK},
                 {"critical", WAIT_CRITICAL}, {"atomic", WAIT_CRITICAL},
                 {"ordered", WAIT_ORDERED},   {"taskgroup", WAIT_TASKWAIT},
                 {"dependences", WAIT_TASKWAIT}};
    for (size_t i = 0; r && strcmp(r->type, "wait") == 0 && i < sizeof kinds / sizeof *kinds; i++)
        if (r->name && strcmp(r->name, kinds[i].name) == 0)
            return (int)kinds[i].kind;
    return -1;
}


int rp_entry_blockless(const struct rp_region *r, json_t *t)
{
    return r && r->blocks_unrecorded && num(t, "visits") > num(t, "untimed") &&
           num(t, "incl_ns") > 0 && num(t, "body_ns") <= 0;
}

/* Which critical and ordered regions had their blocks left unrecorded by the
 * levels (POMP_SYNC=EnterExit, or `#pragma pomp inst sync EnterExit` at
 * their site): no block recorded on any path, and not only executions cut
 * off while waiting to enter (one on a thread with regions open when
 * measurement ended: a signal, exit() on the thread inside the critical),
 * whose time is all a wait. Such a cut-off wait was said to be the level's,
 * never set, and read as work (a probe). */
static int find_blocks_unrecorded(struct rp_profile *p)
{
    enum { BLOCK_RECORDED = 1, BLOCKLESS_NOT_CUT_OFF = 2 };
    static const char *const blocks[] = {"critical", "ordered", NULL};
    json_t *threads = json_object_get(p->root, "threads");
    int level = p->level_sync && strcasecmp(p->level_sync, "EnterExit") == 0;
    unsigned char *seen = calloc(p->nregions ? p->nregions : 1, 1);
    if (!seen)
        return -1;
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_region *r = p->nodes[i].region;
        size_t e;
        json_t *t;
        json_array_foreach(r ? p->nodes[i].per_thread : NULL, e, t) {
            size_t thread = (size_t)json_integer_value(json_object_get(t, "thread"));
            json_t *th = json_array_get(threads, thread);
            double blockless = num(t, "visits") - num(t, "untimed") - num(t, "begins");
            if (num(t, "begins") > 0)
                seen[r - p->regions] |= BLOCK_RECORDED;
            if (blockless > 1 || (blockless == 1 && num(th, "open_at_end") <= 0))
                seen[r - p->regions] |= BLOCKLESS_NOT_CUT_OFF;
        }
    }
    for (size_t r = 0; r < p->nregions; r++)
        p->regions[r].blocks_unrecorded =
            type_is(&p->regions[r], blocks) &&
            (level || seen[r] == BLOCKLESS_NOT_CUT_OFF); /* none recorded, not only cut off */
    free(seen);
    return 0;
}

/* An atomic updated under a lock (Atomic_enter/exit: its CTC's atomicLocked,
 * or, in a profile from before that key, a time of its own): its time is a
 * wait. Any other is an event without time: no wait, and its executions
 * untimed under a trace waited for nothing (123,094 of them were said to
 * hide waits; a probe). */
static int atomic_locked(const struct rp_region *r, double incl)
{
    const char *ctc = json_string_value(json_object_get(r->json, "ctc"));
    return incl > 0 || (ctc && strstr(ctc, "*atomicLocked=1*"));
}

/* The time of libpomp's trace flushes right below node n in one thread's entry. */
static double entry_flush_ns(const struct rp_node *n, json_t *entry)
{
    json_int_t th = json_integer_value(json_object_get(entry, "thread"));
    return th >= 0 && (size_t)th < n->flush_threads ? n->flush_ns[th] : 0;
}

double rp_entry_wait(const struct rp_node *n, json_t *t, unsigned wait_children,
                     enum wait_kind *kind)
{
    const struct rp_region *r = n->region;
    static const char *const barriers[] = {"barrier", "implicit_barrier", "implicit barrier",
                                           "ibarrier", NULL};
    static const char *const critical[] = {"critical", NULL}, *const ordered[] = {"ordered", NULL};
    static const char *const taskwaits[] = {"taskwait", NULL}, *const taskgroup[] = {"taskgroup", NULL};
    static const char *const doacross[] = {"doacross", NULL}, *const atomics[] = {"atomic", NULL};
    if (!r)
        return 0;
    double self = num(t, "excl_ns"), incl = num(t, "incl_ns");
    /* (less libpomp's trace flushes there: note_flush_time) */
    double outside_body = num(t, "visits") > 0 ? incl - num(t, "body_ns") -
                                                     entry_flush_ns(n, t)
                                               : 0;
    int waited = wait_kind_of(r);
    if (waited >= 0)
        return *kind = (enum wait_kind)waited, self;
    if (type_is(r, barriers))
        return *kind = WAIT_BARRIER, self;
    if (type_is(r, taskwaits))
        return *kind = WAIT_TASKWAIT, self;
    if (type_is(r, doacross)) /* a sink's wait for the iterations it names (a source: no time) */
        return *kind = WAIT_ORDERED, self;
    enum wait_kind k;
    double w;
    if (type_is(r, critical))
        k = WAIT_CRITICAL, w = rp_entry_blockless(r, t) ? 0 : outside_body;
    else if (type_is(r, ordered))
        k = WAIT_ORDERED, w = rp_entry_blockless(r, t) ? 0 : outside_body;
    /* an instrumented taskgroup: its block is work; the runtime's "wait
     * taskgroup" inside it has the wait at its end, less the tasks run there.
     * Without the runtime's figures, the time outside the block (tasks run in
     * the wait included). */
    else if (type_is(r, taskgroup))
        k = WAIT_TASKWAIT, w = outside_body;
    else if (pomp_type_sets_lock(r->type))
        k = WAIT_LOCK, w = self;
    else if (type_is(r, atomics) && atomic_locked(r, incl))
        k = WAIT_CRITICAL, w = self;
    else
        return 0;
    if (wait_children & (1u << k)) /* the runtime's "wait" region below has it */
        return 0;
    return *kind = k, w > 0 ? w : 0;
}

static void waits_from_regions(struct rp_node *n)
{
    size_t i;
    json_t *t;
    json_array_foreach(n->per_thread, i, t) {
        enum wait_kind kind;
        double w = rp_entry_wait(n, t, n->wait_children, &kind);
        if (w > 0)
            n->waits[kind] += w;
    }
}

/* The runtime's wait figures where the profile has them (per_thread[].waits,
 * written by the OMPT bridge). Returns 1 if this node had any. */
static int waits_from_profile(struct rp_node *n)
{
    int found = 0;
    size_t i;
    json_t *t;
    json_array_foreach(n->per_thread, i, t) {
        json_t *w = json_object_get(t, "waits");
        if (!json_is_object(w))
            continue;
        found = 1;
        for (int k = 0; k < WAIT_COUNT; k++)
            n->waits[k] += num(w, wait_names[k]);
    }
    return found;
}

static void stats_of(json_t *per_thread, struct rp_stats *s)
{
    size_t i;
    json_t *t;
    double begins = 0;
    memset(s, 0, sizeof *s);
    json_array_foreach(per_thread, i, t) {
        double incl = num(t, "incl_ns");
        s->visits += num(t, "visits");
        begins += num(t, "begins");
        s->self_sum += num(t, "excl_ns");
        s->incl_sum += incl;
        s->min = s->threads == 0 || incl < s->min ? incl : s->min;
        s->max = incl > s->max ? incl : s->max;
        s->threads++;
    }
    s->visits = rp_executions(s->visits, begins);
    s->mean = s->threads ? s->incl_sum / (double)s->threads : 0.0;
    /* load imbalance: the share of the slowest thread's time the average thread did not need */
    s->imbalance = s->max > 0 && s->threads > 1 ? 100.0 * (s->max - s->mean) / s->max : 0.0;
}

static const struct rp_region *region_by_id(const struct rp_profile *p, long long id)
{
    for (size_t i = 0; i < p->nregions; i++)
        if (p->regions[i].id == id)
            return &p->regions[i];
    return NULL;
}

/* A call-path entry of the file, for ordering: its parent's id and the
 * inclusive time its threads spent in it (ns, summed). */
struct path_key {
    long long parent;
    double incl;
    size_t index; /* in the file's array */
};

/* By parent, then the most time first, then file order. */
static int by_parent_then_time(const void *a, const void *b)
{
    const struct path_key *x = a, *y = b;
    if (x->parent != y->parent)
        return (x->parent > y->parent) - (x->parent < y->parent);
    if (x->incl != y->incl)
        return (x->incl < y->incl) - (x->incl > y->incl);
    return (x->index > y->index) - (x->index < y->index);
}

/* Where the children of parent start in keys (sorted by parent), n if none. */
static size_t first_child(const struct path_key *keys, size_t n, long long parent)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (keys[mid].parent < parent)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && keys[lo].parent == parent ? lo : n;
}

/* Depth-first order of the call-path nodes, the siblings that took the most
 * time first: a program's hot paths lead the table, not its thousand short
 * regions in the order they were made. */
static int order_nodes(struct rp_profile *p, json_t *callpath)
{
    size_t n = json_array_size(callpath);
    p->nodes = calloc(n ? n : 1, sizeof *p->nodes);
    struct path_key *keys = calloc(n ? n : 1, sizeof *keys);
    /* the path from the root: node index, and the next key to look at below it */
    size_t *stack = calloc(n + 1, sizeof *stack), *next = calloc(n + 1, sizeof *next);
    if (!p->nodes || !keys || !stack || !next) {
        free(keys), free(stack), free(next);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *c = json_array_get(callpath, i), *t;
        size_t k;
        keys[i] = (struct path_key){json_integer_value(json_object_get(c, "parent")), 0, i};
        json_array_foreach(json_object_get(c, "per_thread"), k, t)
            keys[i].incl += json_number_value(json_object_get(t, "incl_ns"));
    }
    qsort(keys, n, sizeof *keys, by_parent_then_time);
    size_t depth = 0;
    next[0] = first_child(keys, n, 0);
    while (p->nnodes < n) {
        long long parent = depth ? p->nodes[stack[depth - 1]].id : 0;
        size_t k = next[depth];
        if (k >= n || keys[k].parent != parent) { /* no more children here */
            if (depth == 0)
                break; /* nodes whose parent is not in the file are left out */
            depth--;
            continue;
        }
        next[depth] = k + 1;
        json_t *c = json_array_get(callpath, keys[k].index);
        struct rp_node *node = &p->nodes[p->nnodes];
        node->id = json_integer_value(json_object_get(c, "id"));
        node->parent = parent;
        node->parent_index = depth ? stack[depth - 1] : NO_PARENT;
        node->depth = (int)depth;
        node->region = region_by_id(p, json_integer_value(json_object_get(c, "region")));
        node->task_root = json_is_true(json_object_get(c, "task_root"));
        node->binding_id = json_integer_value(json_object_get(c, "binding"));
        node->per_thread = json_object_get(c, "per_thread");
        stack[depth] = p->nnodes++;
        next[++depth] = first_child(keys, n, node->id);
    }
    free(keys), free(stack), free(next);
    return 0;
}

static int by_id(const void *a, const void *b)
{
    long long x = ((const struct path_key *)a)->parent, y = ((const struct path_key *)b)->parent;
    return (x > y) - (x < y);
}

/* Each task root's binding node (rp_node.binding), found by its id. */
static int find_bindings(struct rp_profile *p)
{
    struct path_key *ids = calloc(p->nnodes ? p->nnodes : 1, sizeof *ids); /* parent: the id */
    if (!ids)
        return -1;
    for (size_t i = 0; i < p->nnodes; i++)
        ids[i] = (struct path_key){.parent = p->nodes[i].id, .index = i};
    qsort(ids, p->nnodes, sizeof *ids, by_id);
    for (size_t i = 0; i < p->nnodes; i++) {
        struct path_key key = {.parent = p->nodes[i].binding_id}, *at = NULL;
        if (key.parent)
            at = bsearch(&key, ids, p->nnodes, sizeof *ids, by_id);
        p->nodes[i].binding = at ? at->index : NO_PARENT;
        if (p->nodes[i].task_root && p->nodes[i].region)
            p->regions[p->nodes[i].region - p->regions].task_roots++;
    }
    free(ids);
    return 0;
}

static int by_self_desc(const void *a, const void *b)
{
    const struct rp_flat *x = a, *y = b;
    return (x->s.self_sum < y->s.self_sum) - (x->s.self_sum > y->s.self_sum);
}

static int by_wait_desc(const void *a, const void *b)
{
    const struct rp_wait_row *x = a, *y = b;
    return (x->total < y->total) - (x->total > y->total);
}

/* The statistics of one value per thread (has[t]: thread t has data). */
static void stats_of_threads(const double *incl, const unsigned char *has, size_t nthreads,
                             struct rp_stats *s)
{
    for (size_t t = 0; t < nthreads; t++) {
        if (!has[t])
            continue;
        s->incl_sum += incl[t];
        s->min = s->threads == 0 || incl[t] < s->min ? incl[t] : s->min;
        s->max = incl[t] > s->max ? incl[t] : s->max;
        s->threads++;
    }
    s->mean = s->threads ? s->incl_sum / (double)s->threads : 0.0;
    s->imbalance = s->max > 0 && s->threads > 1 ? 100.0 * (s->max - s->mean) / s->max : 0.0;
}

/* Is an ancestor of node i in the same region and row part (so its time is
 * counted there)? A task created inside the tree of its own construct's
 * executions is a creation: not inside the executions' row. */
static int nested_in_itself(const struct rp_profile *p, size_t i, const struct rp_flat *f)
{
    for (size_t a = p->nodes[i].parent_index; a != NO_PARENT; a = p->nodes[a].parent_index)
        if (p->nodes[a].region == p->nodes[i].region && rp_flat_takes(p, f, a))
            return 1;
    return 0;
}

int rp_flat_takes(const struct rp_profile *p, const struct rp_flat *f, size_t i)
{
    const struct rp_node *n = &p->nodes[i];
    if (n->region != f->region)
        return 0;
    switch (f->part) {
    case RP_FLAT_CREATIONS: return !n->task_root;
    case RP_FLAT_EXECUTIONS: return n->task_root;
    case RP_FLAT_AT_PLACE: return n->place == f->place;
    case RP_FLAT_ALL: break;
    }
    return 1;
}

void rp_flat_label(const struct rp_profile *p, const struct rp_flat *f, char *buf, size_t size)
{
    /* "[throttled]" as the call paths have it: where one of the row's paths
     * holds untimed executions, not by its region (a throttled task's timed
     * executions read "task [throttled]" here and "task" in the call paths,
     * a critical counted untimed inside a throttled region "critical" here
     * and "critical [throttled]" there; a probe) */
    int throttled = 0;
    for (size_t n = 0; n < f->nnodes && !throttled; n++)
        throttled = rp_flat_takes(p, f, f->nodes[n]) && rp_node_throttled(&p->nodes[f->nodes[n]]);
    snprintf(buf, size, "%s%s%s%s%s", f->region->type, *f->region->name ? " " : "",
             f->region->name, throttled ? " [throttled]" : "",
             f->part == RP_FLAT_CREATIONS ? " (creation)" : "");
}

void rp_flat_location(const struct rp_flat *f, char *buf, size_t size)
{
    if (f->part == RP_FLAT_AT_PLACE && f->place)
        placed_location(f->region, f->place, buf, size);
    else
        rp_region_location(f->region, buf, size);
}

/* The row of region f->region over its nodes (f->nodes) of part f->part. */
static void flat_row(const struct rp_profile *p, struct rp_flat *f, double *incl,
                     unsigned char *has)
{
    size_t nt = p->nthreads;
    double begins = 0;
    memset(incl, 0, nt * sizeof *incl);
    memset(has, 0, nt);
    for (size_t n = 0; n < f->nnodes; n++) {
        size_t i = f->nodes[n];
        /* A task root's overlap is its executions' time inside an open
         * creation of the same construct on the thread (an undeferred task,
         * one run at once when the queue is full): the creations' time holds
         * it, the executions' is its own. So the executions' row keeps it and
         * the creations' row leaves it out (it read 0 ms of executions and
         * 100 ms of creation for four if(0) tasks of 25 ms). */
        if (f->part == RP_FLAT_CREATIONS && p->nodes[i].task_root) {
            size_t k;
            json_t *t;
            json_array_foreach(p->nodes[i].per_thread, k, t) {
                json_int_t th = json_integer_value(json_object_get(t, "thread"));
                if (th >= 0 && (size_t)th < nt)
                    incl[th] -= num(t, "overlap_ns");
            }
            continue;
        }
        if (!rp_flat_takes(p, f, i))
            continue;
        int nested = nested_in_itself(p, i, f);
        int overlap_counts = f->part != RP_FLAT_EXECUTIONS;
        size_t k;
        json_t *t;
        json_array_foreach(p->nodes[i].per_thread, k, t) {
            json_int_t th = json_integer_value(json_object_get(t, "thread"));
            f->s.visits += num(t, "visits");
            begins += num(t, "begins");
            f->s.self_sum += num(t, "excl_ns");
            if (nested || th < 0 || (size_t)th >= nt)
                continue;
            /* a path run inside another path of the region (by a task) is there already,
             * and so is a task run inside a run of its construct (through a team) */
            incl[th] += num(t, "incl_ns") - overlap_counts * num(t, "overlap_ns") -
                        num(t, "nested_ns");
            has[th] = 1;
        }
    }
    for (size_t th = 0; th < nt; th++)
        if (incl[th] < 0) /* the rounding of whole-ns figures */
            incl[th] = 0;
    f->s.visits = rp_executions(f->s.visits, begins);
    stats_of_threads(incl, has, nt, &f->s);
}

/* What flattening one region needs besides the profile: the per-thread
 * scratch of flat_row, the rows' capacity, and the place ordinals' scratch. */
struct flattening {
    double *incl;
    unsigned char *has;
    size_t capacity;
    struct place_key { size_t place, node; } *keys; /* nnodes */
    size_t *place_seen, *place_order;                 /* by region index, nregions + 1 */
};

/* Appends the row of this part (and place) over `nodes` if a thread has data for it. */
static int add_flat_row(struct rp_profile *p, struct flattening *w, const struct rp_region *region,
                        enum rp_flat_part part, const struct rp_region *place,
                        const size_t *nodes, size_t nnodes)
{
    struct rp_flat f = {.region = region, .part = part, .place = place, .nodes = nodes,
                        .nnodes = nnodes, .s.load_balance = -1};
    flat_row(p, &f, w->incl, w->has);
    if (!f.s.threads)
        return 0;
    if (p->nflat == w->capacity) {
        struct rp_flat *more = realloc(p->flat, 2 * w->capacity * sizeof *more);
        if (!more)
            return -1;
        p->flat = more;
        w->capacity *= 2;
    }
    p->flat[p->nflat++] = f;
    return 0;
}

static int by_place_key(const void *a, const void *b)
{
    const struct place_key *x = a, *y = b;
    if (x->place != y->place)
        return (x->place > y->place) - (x->place < y->place);
    return (x->node > y->node) - (x->node < y->node);
}

/* The rows of a region placed by its call paths in several regions: its
 * nodes (in place) reordered by place, each place first met in node order
 * first, then one row per place. */
static int flatten_by_place(struct rp_profile *p, struct flattening *w,
                            const struct rp_region *region, size_t *nodes, size_t n)
{
    size_t stamp = (size_t)(region - p->regions) + 1, places = 0;
    for (size_t k = 0; k < n; k++) {
        const struct rp_region *at = p->nodes[nodes[k]].place;
        size_t slot = at ? (size_t)(at - p->regions) : p->nregions;
        if (w->place_seen[slot] != stamp) {
            w->place_seen[slot] = stamp;
            w->place_order[slot] = places++;
        }
        w->keys[k] = (struct place_key){w->place_order[slot], nodes[k]};
    }
    qsort(w->keys, n, sizeof *w->keys, by_place_key);
    for (size_t k = 0; k < n; k++)
        nodes[k] = w->keys[k].node;
    int rc = 0;
    for (size_t k = 0, end; k < n && rc == 0; k = end) {
        for (end = k + 1; end < n && w->keys[end].place == w->keys[k].place;)
            end++;
        rc = add_flat_row(p, w, region, RP_FLAT_AT_PLACE, p->nodes[nodes[k]].place, nodes + k,
                          end - k);
    }
    return rc;
}

/* The rows of one region over its nodes (rp_flat_part): all its call paths
 * together; its creations and its executions, for a task construct met as
 * both; one per place, for a region placed by its call paths in several. */
static int flatten_region(struct rp_profile *p, struct flattening *w,
                          const struct rp_region *region, size_t *nodes, size_t n)
{
    if (!*region->file && region->places == 2)
        return flatten_by_place(p, w, region, nodes, n);
    int roots = 0, others = 0;
    for (size_t k = 0; k < n; k++) {
        roots |= p->nodes[nodes[k]].task_root != 0;
        others |= !p->nodes[nodes[k]].task_root;
    }
    /* a task construct none of whose tasks ran (every one discarded by a
     * cancellation; POMP_TASK=EnterExit): its creations, so labelled (its
     * visits read as executions) and noted (find_unrun) */
    if (others && !roots && strcmp(region->type, "task") == 0)
        return add_flat_row(p, w, region, RP_FLAT_CREATIONS, NULL, nodes, n);
    if (!(roots && others))
        return add_flat_row(p, w, region, RP_FLAT_ALL, NULL, nodes, n);
    int rc = add_flat_row(p, w, region, RP_FLAT_CREATIONS, NULL, nodes, n);
    return rc ? rc : add_flat_row(p, w, region, RP_FLAT_EXECUTIONS, NULL, nodes, n);
}

/* The flat profile: each region's rows (flatten_region), each over the
 * region's own nodes, gathered first by region (a counting sort): a row
 * looked at every node of the profile (0.75 s at 5,000 parallel regions). */
static int flatten(struct rp_profile *p)
{
    size_t nt = p->nthreads, nr = p->nregions;
    struct flattening w = {.capacity = nr ? nr : 1};
    size_t *start = calloc(nr + 2, sizeof *start);
    p->flat = calloc(w.capacity, sizeof *p->flat);
    p->flat_nodes = malloc((p->nnodes ? p->nnodes : 1) * sizeof *p->flat_nodes);
    w.incl = calloc(nt ? nt : 1, sizeof *w.incl);
    w.has = calloc(nt ? nt : 1, 1);
    w.keys = malloc((p->nnodes ? p->nnodes : 1) * sizeof *w.keys);
    w.place_seen = calloc(nr + 1, sizeof *w.place_seen);
    w.place_order = calloc(nr + 1, sizeof *w.place_order);
    int rc = start && p->flat && p->flat_nodes && w.incl && w.has && w.keys && w.place_seen &&
                     w.place_order
                 ? 0
                 : -1;
    for (size_t i = 0; i < p->nnodes && rc == 0; i++) /* start[r + 2]: region r's count */
        if (p->nodes[i].region)
            start[(size_t)(p->nodes[i].region - p->regions) + 2]++;
    for (size_t r = 2; r < nr + 2 && rc == 0; r++) /* start[r + 1]: region r's first slot */
        start[r] += start[r - 1];
    for (size_t i = 0; i < p->nnodes && rc == 0; i++)
        if (p->nodes[i].region)
            p->flat_nodes[start[(size_t)(p->nodes[i].region - p->regions) + 1]++] = i;
    for (size_t r = 0; r < nr && rc == 0; r++) /* start[r]..start[r + 1]: region r's nodes */
        if (start[r + 1] > start[r])
            rc = flatten_region(p, &w, &p->regions[r], p->flat_nodes + start[r],
                                start[r + 1] - start[r]);
    free(start), free(w.incl), free(w.has), free(w.keys), free(w.place_seen), free(w.place_order);
    if (rc != 0)
        return -1;
    qsort(p->flat, p->nflat, sizeof *p->flat, by_self_desc);
    return 0;
}

/* Whether task region x is the one whose tasks the runtime's task_create
 * region c counts the creations of: the same place in the program, or, where
 * no file names them, the same code address. */
static int creates_tasks_of(const struct rp_region *c, const struct rp_region *x)
{
    if (*c->file || *x->file)
        return strcmp(c->file, x->file) == 0 && c->first_line == x->first_line &&
               c->last_line == x->last_line;
    return same_field(c, x, "codeptr");
}

/* Whether node i counts creations of the tasks of task region x: POMP's task
 * construct's creation, or the runtime's task_create for x. */
static int creates(const struct rp_profile *p, size_t i, const struct rp_region *x)
{
    const struct rp_node *n = &p->nodes[i];
    return n->region && !n->task_root &&
           (n->region == x ||
            (strcmp(n->region->type, "task_create") == 0 && creates_tasks_of(n->region, x)));
}

/* The taskgroup node node i is in, within its own task (NO_PARENT: none). */
static size_t taskgroup_of(const struct rp_profile *p, size_t i)
{
    for (size_t k = p->nodes[i].parent_index; k != NO_PARENT && !p->nodes[k].task_root;
         k = p->nodes[k].parent_index)
        if (p->nodes[k].region && strcmp(p->nodes[k].region->type, "taskgroup") == 0)
            return k;
    return NO_PARENT;
}

static int cmp_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Whether tasks of regions x and y were created in one taskgroup (a node):
 * x's taskgroups sorted, then each of y's looked up (a pair of loops over
 * the nodes took minutes on a profile of many call paths). */
static int one_taskgroup(const struct rp_profile *p, const struct rp_region *x,
                         const struct rp_region *y)
{
    size_t *groups = NULL, n = 0, cap = 0;
    int found = 0;
    for (size_t a = 0; a < p->nnodes; a++) {
        size_t g = creates(p, a, x) ? taskgroup_of(p, a) : NO_PARENT;
        if (g == NO_PARENT)
            continue;
        if (n == cap) {
            size_t *more = realloc(groups, (cap = cap ? 2 * cap : 16) * sizeof *groups);
            if (!more) { /* no memory: said to share one, so that no cancel reads as none */
                free(groups);
                return 1;
            }
            groups = more;
        }
        groups[n++] = g;
    }
    if (n)
        qsort(groups, n, sizeof *groups, cmp_index);
    for (size_t b = 0; n && !found && b < p->nnodes; b++) {
        size_t g = creates(p, b, y) ? taskgroup_of(p, b) : NO_PARENT;
        found = g != NO_PARENT && bsearch(&g, groups, n, sizeof *groups, cmp_index) != NULL;
    }
    free(groups);
    return found;
}

/* Whether a cancel construct that ran can have discarded tasks of task region
 * r: one outside any task (cancel parallel, or a taskgroup's from the implicit
 * task), or one in the tasks of a construct whose tasks were created in a
 * taskgroup with r's (r's own: a task that cancels its taskgroup). exit()
 * inside r's tasks, after another construct's tasks had cancelled their own
 * taskgroup, was said to be a cancellation (a probe). */
static int cancel_reaches(const struct rp_profile *p, const struct rp_region *r)
{
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_node *n = &p->nodes[i];
        /* (the construct: POMP's, or the runtime's "activated"; not where the
         * runtime detected it or discarded a task, which is outside any task) */
        if (!n->region || strcmp(n->region->type, "cancel") != 0 || n->s.visits <= 0 ||
            strcmp(n->region->name, "discarded_task") == 0 || strcmp(n->region->name, "detected") == 0)
            continue;
        size_t k = i;
        while (k != NO_PARENT && !p->nodes[k].task_root)
            k = p->nodes[k].parent_index;
        if (k == NO_PARENT || p->nodes[k].region == r || one_taskgroup(p, r, p->nodes[k].region))
            return 1;
    }
    return 0;
}

/* Task constructs whose tasks did not all run: each one's creations against
 * its executions, rows of the flat table: POMP's task construct has both; the
 * runtime's tasks (pomprun, the tasks of a taskloop) have their creations in
 * a task_create region beside the task region (they went unnoted). Tasks a
 * cancellation discards never run (OpenMP 5.2, 11.3.3), nor do those left
 * queued when measurement ended; the report says which, so that the two
 * counts do not read as a loss. */
static int find_unrun(struct rp_profile *p)
{
    /* (POMP_TASK=EnterExit records no execution: nothing to say) */
    if (p->level_task && strcasecmp(p->level_task, "EnterExit") == 0)
        return 0;
    /* each task region's executions: its task roots' (visits, begins, the
     * runtime's helper tasks among its creations: a taskloop on libomp) */
    double *ran = calloc(3 * p->nregions + 1, sizeof *ran); /* visits, begins, helpers */
    size_t n = 0;
    if (!ran)
        return -1;
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_node *node = &p->nodes[i];
        size_t k;
        json_t *e;
        if (node->task_root && node->region)
            json_array_foreach(node->per_thread, k, e) {
                double *r = &ran[3 * (size_t)(node->region - p->regions)];
                r[0] += num(e, "visits");
                r[1] += num(e, "begins");
                r[2] += num(e, "helpers");
            }
    }
    for (size_t i = 0; i < p->nflat; i++) {
        const struct rp_flat *f = &p->flat[i];
        if ((f->part == RP_FLAT_CREATIONS && strcmp(f->region->type, "task") == 0) ||
            strcmp(f->region->type, "task_create") == 0)
            n++;
    }
    /* (the libgomp bridge's tasks it could not wrap: their runs are not in the
     * profile, so the counts differ without a task left unrun) */
    p->runs_unmeasured = json_array_size(json_object_get(p->root, "unmeasured")) > 0;
    size_t th;
    json_t *t;
    json_array_foreach(json_object_get(p->root, "threads"), th, t) {
        p->runs_too_deep |= num(t, "deep_events") > 0;
        p->runs_overflowed |= num(t, "dropped_paths") > 0;
        p->open_at_end |= num(t, "open_at_end") > 0;
    }
    p->unrun = n ? calloc(n, sizeof *p->unrun) : NULL;
    for (size_t i = 0; i < p->nflat && p->unrun; i++) {
        const struct rp_flat *f = &p->flat[i];
        const struct rp_region *tasks = NULL;
        if (f->part == RP_FLAT_CREATIONS && strcmp(f->region->type, "task") == 0)
            tasks = f->region;
        else if (strcmp(f->region->type, "task_create") == 0)
            for (size_t k = 0; k < p->nregions && !tasks; k++)
                if (strcmp(p->regions[k].type, "task") == 0 &&
                    creates_tasks_of(f->region, &p->regions[k]))
                    tasks = &p->regions[k];
        const double *r = tasks ? &ran[3 * (size_t)(tasks - p->regions)] : NULL;
        double done = r ? rp_executions(r[0], r[1]) : 0, made = r ? f->s.visits - r[2] : 0;
        if (r && made > done)
            p->unrun[p->nunrun++] = (struct rp_unrun){f->region, made, done, cancel_reaches(p, tasks)};
    }
    free(ran);
    return n && !p->unrun ? -1 : 0;
}

/* libpomp's own trace-buffer flushes ("pomp flush" nodes) under a node, each
 * thread's added up in the parent's flush_ns: a flush made by a critical's
 * enter event is outside the critical's block, and was read as waiting to
 * enter it (a single thread with a 4 KiB trace buffer: 53 % of its time in
 * critical waits, 10 times the real ones; a probe). The loaded profile is
 * left as it was (--json prints it). Returns -1 if out of memory. */
static int note_flush_time(struct rp_profile *p)
{
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_node *n = &p->nodes[i];
        if (!n->region || strcmp(n->region->type, "pomp") != 0 || !n->region->name ||
            strcmp(n->region->name, "flush") != 0 || n->parent_index == NO_PARENT)
            continue;
        struct rp_node *up = &p->nodes[n->parent_index];
        if (!up->flush_ns) {
            up->flush_ns = calloc(p->nthreads + 1, sizeof *up->flush_ns);
            if (!up->flush_ns)
                return -1;
            up->flush_threads = p->nthreads;
        }
        size_t k;
        json_t *t;
        json_array_foreach(n->per_thread, k, t) {
            json_int_t th = json_integer_value(json_object_get(t, "thread"));
            if (th >= 0 && (size_t)th < up->flush_threads)
                up->flush_ns[th] += num(t, "incl_ns");
        }
    }
    return 0;
}

/* The waits of every node, gathered under its nearest enclosing parallel
 * region or task root (the tree of a task construct's executions), or the row
 * for time outside both. */
static int gather_waits(struct rp_profile *p)
{
    p->waits = calloc(p->nnodes + 1, sizeof *p->waits);
    if (!p->waits)
        return -1;
    if (note_flush_time(p) != 0)
        return -1;
    int from_profile = 0;
    for (size_t i = 0; i < p->nnodes; i++)
        from_profile |= waits_from_profile(&p->nodes[i]);
    for (size_t i = 0; i < p->nnodes; i++) {
        int kind = wait_kind_of(p->nodes[i].region);
        size_t up = p->nodes[i].parent_index;
        if (kind >= 0 && up != NO_PARENT)
            p->nodes[up].wait_children |= 1u << kind;
    }
    if (!from_profile)
        for (size_t i = 0; i < p->nnodes; i++)
            waits_from_regions(&p->nodes[i]);
    p->wait_source = from_profile ? "profile" : "regions";

    struct rp_wait_row outside = {0};
    size_t *row_of = calloc(p->nnodes ? p->nnodes : 1, sizeof *row_of); /* 0: none, else row + 1 */
    if (!row_of)
        return -1;
    /* parents come before their children, so a node finds its parent's row */
    for (size_t i = 0; i < p->nnodes; i++) {
        struct rp_node *n = &p->nodes[i];
        size_t row = 0;
        if (n->region && (strcmp(n->region->type, "parallel") == 0 || n->task_root)) {
            struct rp_wait_row *w = &p->waits[p->nwaits++];
            w->node = n;
            w->thread_time = n->s.incl_sum;
            row = p->nwaits;
        } else if (n->parent_index != NO_PARENT) {
            row = row_of[n->parent_index];
        }
        row_of[i] = row;
        struct rp_wait_row *w = row ? &p->waits[row - 1] : &outside;
        for (int k = 0; k < WAIT_COUNT; k++)
            w->waits[k] += n->waits[k];
    }
    free(row_of);
    double outside_total = 0;
    for (int k = 0; k < WAIT_COUNT; k++)
        outside_total += outside.waits[k];
    if (outside_total > 0)
        p->waits[p->nwaits++] = outside;
    for (size_t i = 0; i < p->nwaits; i++) {
        p->waits[i].total = 0;
        for (int k = 0; k < WAIT_COUNT; k++)
            p->waits[i].total += p->waits[i].waits[k];
    }
    qsort(p->waits, p->nwaits, sizeof *p->waits, by_wait_desc);
    return 0;
}

/* Whether the file's first byte could start JSON text (any printable ASCII or
 * blank: the parser then says what is wrong, and where). */
static int starts_as_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    int c = f ? fgetc(f) : EOF;
    if (f)
        fclose(f);
    return c == EOF || (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
}

json_t *rp_load_json(const char *path)
{
    /* a file that is not there or not a plain file (a directory, a FIFO that
     * would block the read forever) is said as such, not as a JSON error */
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "pomp-report: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "pomp-report: %s: not a regular file\n", path);
        return NULL;
    }
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root && !starts_as_text(path)) /* a program, an archive: "'[' or '{' expected near ''" */
        fprintf(stderr, "pomp-report: %s: not a pomp profile: byte offset 0 is not JSON text (a "
                        "program or other binary file?); give the output directory or its "
                        "profile.json\n", path);
    else if (!root) { /* (jansson names its own flag for a NUL: not the user's to set) */
        /* jansson's position counts the bytes read, the bad one included: the
         * offset of that byte is one less (as its column says, and as the
         * offsets of the value checks are; a probe), except where the text
         * ended too soon: its end */
        int ended = json_error_code(&err) == json_error_premature_end_of_input;
        long at = ended ? (long)st.st_size : err.position < 1 ? 0 : (long)err.position - 1;
        fprintf(stderr, "pomp-report: %s: line %d, column %d (byte offset %ld%s): %s\n", path,
                err.line, err.column, at, ended ? ", the end of the file" : "",
                strstr(err.text, "JSON_ALLOW_NUL")
                    ? "a string holds \\u0000, which no pomp file has"
                    : err.text);
    }
    return root;
}

/* The walk of a JSON file's text beside its parsed tree, to the value
 * `target`, or to the value of `key` in the object `parent` (jansson keeps no
 * places). The whole text is walked and the last match taken: of a key given
 * twice jansson keeps the last value, whose node the first one's text matched
 * too. true, false and null are one node each, wherever they stand: they are
 * found by their parent and key (a review: a damaged field's "true" was
 * placed at the file's first true). */
struct offset_walk {
    const char *start, *at, *end;
    const json_t *target, *parent;
    const char *key;
    long found;
};

static void skip_blank(struct offset_walk *w)
{
    while (w->at < w->end && (*w->at == ' ' || *w->at == '\t' || *w->at == '\n' || *w->at == '\r'))
        w->at++;
}

/* Past the string that starts at w->at (its quote). */
static void skip_string(struct offset_walk *w)
{
    for (w->at++; w->at < w->end && *w->at != '"'; w->at++)
        if (*w->at == '\\')
            w->at++;
    if (w->at < w->end)
        w->at++;
}

/* The member whose key starts at w->at: its value's node (NULL: none), and
 * whether its key is w->key. */
static json_t *member_at(struct offset_walk *w, json_t *object, int *is_key)
{
    const char *key = w->at;
    skip_string(w);
    size_t len = (size_t)(w->at - key);
    json_t *child, *name = NULL;
    const char *text = key + 1;
    size_t text_len = len >= 2 ? len - 2 : 0;
    if (len < 2 || memchr(key, '\\', len)) { /* an escaped key: as jansson read it */
        name = json_loadb(key, len, JSON_DECODE_ANY, NULL);
        text = json_is_string(name) ? json_string_value(name) : NULL;
        text_len = json_is_string(name) ? json_string_length(name) : 0;
    }
    child = text ? json_object_getn(object, text, text_len) : NULL;
    *is_key = text && w->key && strlen(w->key) == text_len && memcmp(w->key, text, text_len) == 0;
    json_decref(name);
    skip_blank(w);
    if (w->at < w->end && *w->at == ':')
        w->at++;
    return child;
}

static void walk_value(struct offset_walk *w, json_t *v)
{
    skip_blank(w);
    if (w->at >= w->end)
        return;
    if (v && v == w->target)
        w->found = (long)(w->at - w->start);
    char open = *w->at;
    if (open == '"') {
        skip_string(w);
        return;
    }
    if (open != '{' && open != '[') { /* a number, true, false, null */
        while (w->at < w->end && !strchr(",]} \t\r\n", *w->at))
            w->at++;
        return;
    }
    w->at++;
    for (size_t i = 0;; i++) {
        skip_blank(w);
        if (w->at < w->end && *w->at == ',') {
            w->at++;
            skip_blank(w);
        }
        if (w->at >= w->end || *w->at == '}' || *w->at == ']') {
            w->at += w->at < w->end;
            return;
        }
        if (open == '[') {
            walk_value(w, json_array_get(v, i));
            continue;
        }
        int is_key = 0;
        json_t *child = member_at(w, v, &is_key);
        if (is_key && v && v == w->parent) {
            skip_blank(w);
            w->found = (long)(w->at - w->start);
        }
        walk_value(w, child);
    }
}

static long find_offset(const char *path, json_t *root, struct offset_walk *w)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long size = -1;
    w->found = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)size + 1)) != NULL && fread(text, 1, (size_t)size, f) == (size_t)size) {
        w->start = w->at = text;
        w->end = text + size;
        walk_value(w, root);
    }
    if (f)
        fclose(f);
    free(text);
    return w->found;
}

long rp_json_offset(const char *path, json_t *root, const json_t *value)
{
    if (json_is_true(value) || json_is_false(value) || json_is_null(value))
        return -1; /* (one node wherever it stands: rp_json_member_offset) */
    struct offset_walk w = {.target = value};
    return find_offset(path, root, &w);
}

long rp_json_member_offset(const char *path, json_t *root, const json_t *parent, const char *key)
{
    struct offset_walk w = {.parent = parent, .key = key};
    return find_offset(path, root, &w);
}

/* "pomp-report: PATH: byte offset N: " (without the offset where it is not
 * known), then the message. */
static void say_at_offset(const char *path, long offset, const char *fmt, va_list ap)
{
    if (offset >= 0)
        fprintf(stderr, "pomp-report: %s: byte offset %ld: ", path, offset);
    else
        fprintf(stderr, "pomp-report: %s: ", path);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void rp_say_at(const char *path, json_t *root, const json_t *value, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_at_offset(path, rp_json_offset(path, root, value), fmt, ap);
    va_end(ap);
}

void rp_say_at_member(const char *path, json_t *root, const json_t *parent, const char *key,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_at_offset(path, rp_json_member_offset(path, root, parent, key), fmt, ap);
    va_end(ap);
}

int rp_bad_count(const char *path, json_t *root, json_t *o, const char *key, int required,
                 const char *name_fmt, ...)
{
    json_t *v = json_object_get(o, key);
    json_int_t x = json_integer_value(v);
    if (v ? json_is_integer(v) && x >= 0 && x <= (json_int_t)RP_EXACT_MAX : !required)
        return 0;
    char name[256], real[32], *text = json_is_real(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY);
    snprintf(real, sizeof real, "%.16g", json_real_value(v)); /* 1e+300, not 1.0000000000000001e300 */
    va_list ap;
    va_start(ap, name_fmt);
    vsnprintf(name, sizeof name, name_fmt, ap);
    va_end(ap);
    if (v)
        rp_say_at_member(path, root, o, key, "%s%s%s is %.40s, not a whole number from 0 to 2^53 (the file is "
                                 "damaged)", name, *name ? "." : "", key, text ? text : real);
    else
        rp_say_at(path, root, o, "%s has no \"%s\" (a whole number; the file is damaged)",
                  *name ? name : "the profile", key);
    free(text);
    return 1;
}

/* Each node's per_thread names each thread at most once: a node with five
 * entries of thread 0 in a two-thread run overran the POP arrays (a crash),
 * one duplicate read "3 threads" (a probe's damaged files). A thread that is
 * none of the profile's is --check's to say (the figures skip it). Says the
 * first and returns -1. */
static int check_threads_once(const char *path, const struct rp_profile *p)
{
    unsigned char *seen = calloc(p->nthreads + 1, 1);
    if (!seen)
        return -1;
    int bad = 0;
    for (size_t i = 0; i < p->nnodes && !bad; i++) {
        memset(seen, 0, p->nthreads + 1);
        size_t k;
        json_t *t;
        json_array_foreach(p->nodes[i].per_thread, k, t) {
            json_t *thread = json_object_get(t, "thread");
            if (!json_is_integer(thread)) /* --check's to say (read as 0, it was said to
                                             be "thread 0 appears twice"; a probe) */
                continue;
            json_int_t v = json_integer_value(thread);
            if (v < 0 || (size_t)v >= p->nthreads)
                continue;
            if (seen[v]) {
                rp_say_at(path, p->root, t, "call-path node %lld, per_thread[%zu]: thread %lld "
                                            "appears twice (a node has each thread at most once)",
                          p->nodes[i].id, k, (long long)v);
                bad = 1;
                break;
            }
            seen[v] = 1;
        }
    }
    free(seen);
    return bad ? -1 : 0;
}

/* The run's figures outside the call paths (whose figures are --check's):
 * a negative count of pauses read as 18446744073709551611 times, a duration
 * past 2^53 as a time no double holds (a probe's damaged files). */
static int check_run_figures(const char *path, json_t *root)
{
    size_t i;
    json_t *t, *paused = json_object_get(root, "paused");
    int bad = rp_bad_count(path, root, root, "duration_ns", 0, "%s", "") ||
              rp_bad_count(path, root, paused, "times", 0, "paused") ||
              rp_bad_count(path, root, paused, "ns", 0, "paused");
    json_array_foreach(json_object_get(root, "threads"), i, t)
        bad = bad || rp_bad_count(path, root, t, "os_threads", 0, "threads[%zu]", i);
    return bad ? -1 : 0;
}

int rp_load(const char *path, struct rp_profile *p)
{
    memset(p, 0, sizeof *p);
    json_t *root = rp_load_json(path);
    if (!root)
        return -1;
    p->root = root;
    if (strcmp(str(root, "format"), "pomp-profile") != 0) {
        fprintf(stderr, "pomp-report: %s: not a pomp profile (\"format\" is not \"pomp-profile\")\n",
                path);
        return -1;
    }
    json_t *version_value = json_object_get(root, "version");
    json_int_t version = json_integer_value(version_value);
    if (!json_is_integer(version_value)) {
        rp_say_at(path, root, version_value ? version_value : root,
                  "\"version\" is missing or not an integer (this is version %d)",
                  SUPPORTED_VERSION);
        return -1;
    }
    if (version < 1 || version > SUPPORTED_VERSION) {
        rp_say_at(path, root, version_value,
                  "profile version %lld is not supported (this is version %d)", (long long)version,
                  SUPPORTED_VERSION);
        return -1;
    }
    json_t *regions = json_object_get(root, "regions");
    json_t *callpath = json_object_get(root, "callpath");
    json_t *threads = json_object_get(root, "threads");
    const char *missing = !json_is_array(regions)    ? "regions"
                          : !json_is_array(callpath) ? "callpath"
                          : !json_is_array(threads)  ? "threads"
                                                     : NULL;
    if (missing) {
        json_t *v = json_object_get(root, missing);
        rp_say_at(path, root, v ? v : root, "\"%s\" is missing or not an array", missing);
        return -1;
    }
    if (check_run_figures(path, root) != 0)
        return -1;
    p->program = str(root, "program");
    p->pid = json_integer_value(json_object_get(root, "pid"));
    p->duration_ns = num(root, "duration_ns");
    json_t *levels = json_object_get(root, "levels");
    p->level_sync = json_string_value(json_object_get(levels, "sync"));
    p->level_task = json_string_value(json_object_get(levels, "task"));
    p->level_parallel = json_string_value(json_object_get(levels, "parallel"));
    p->level_runtime = json_string_value(json_object_get(levels, "runtime"));
    p->runtime_events_off_by = json_string_value(json_object_get(root, "runtime_events_off_by"));
    json_t *paused = json_object_get(root, "paused");
    p->paused_times = (size_t)json_integer_value(json_object_get(paused, "times"));
    p->paused_ns = json_number_value(json_object_get(paused, "ns"));
    p->nthreads = json_array_size(threads);
    p->initial_thread = json_is_integer(json_object_get(root, "pid")) ? RP_NO_THREAD : 0;
    for (size_t k = 0; k < p->nthreads && p->initial_thread == RP_NO_THREAD; k++) {
        json_t *t = json_array_get(threads, k);
        if (!json_object_get(t, "device") &&
            json_integer_value(json_object_get(t, "os_tid")) == p->pid)
            p->initial_thread = k;
    }
    p->nregions = json_array_size(regions);
    p->regions = calloc(p->nregions ? p->nregions : 1, sizeof *p->regions);
    if (!p->regions)
        goto oom;
    size_t i;
    json_t *r;
    json_array_foreach(regions, i, r) {
        struct rp_region *x = &p->regions[i];
        x->id = json_integer_value(json_object_get(r, "id"));
        x->json = r;
        x->type = str(r, "type");
        x->name = str(r, "name");
        x->file = str(r, "file");
        x->function = str(r, "function");
        x->first_line = (int)json_integer_value(json_object_get(r, "first_line"));
        x->last_line = (int)json_integer_value(json_object_get(r, "last_line"));
    }
    find_twins(p);
    if (order_nodes(p, callpath) != 0 || find_bindings(p) != 0 || find_blocks_unrecorded(p) != 0)
        goto oom;
    if (json_array_size(callpath) != p->nnodes) /* said, not lost without a word */
        fprintf(stderr,
                "pomp-report: warning: %s: %zu of %zu call-path nodes hang from no node of the "
                "profile (a parent that is missing, or a cycle): left out of every table\n",
                path, json_array_size(callpath) - p->nnodes, json_array_size(callpath));
    if (check_threads_once(path, p) != 0 || rp_sampling_check(path, root) != 0 ||
        rp_devices_check(path, root) != 0)
        return -1;
    place_regions(p);
    for (i = 0; i < p->nnodes; i++)
        stats_of(p->nodes[i].per_thread, &p->nodes[i].s);
    if (flatten(p) != 0 || find_unrun(p) != 0 || gather_waits(p) != 0 || rp_pop_compute(p) != 0)
        goto oom;
    return 0;
oom:
    fprintf(stderr, "pomp-report: out of memory\n");
    return -1;
}

void rp_free(struct rp_profile *p)
{
    free(p->regions);
    for (size_t i = 0; p->nodes && i < p->nnodes; i++)
        free(p->nodes[i].flush_ns);
    free(p->nodes);
    free(p->flat);
    free(p->flat_nodes);
    free(p->waits);
    free(p->pop_regions);
    free(p->unrun);
    json_decref(p->root);
    memset(p, 0, sizeof *p);
}

size_t rp_regions_counted(const struct rp_profile *p)
{
    /* the exit summary's count (pomp_summary.c): not a runtime's region that
     * no call path holds, unless filtered: a masked block the
     * instrumentation's took over, one made while measurement was paused (the
     * summary said 14 where the report said 15; a probe) */
    unsigned char *held = calloc(p->nregions + 1, 1);
    if (!held)
        return p->nregions;
    for (size_t i = 0; i < p->nnodes; i++)
        if (p->nodes[i].region)
            held[p->nodes[i].region - p->regions] = 1;
    size_t n = 0;
    for (size_t i = 0; i < p->nregions; i++) {
        const char *init = json_string_value(json_object_get(p->regions[i].json, "init"));
        n += held[i] || !init || strcmp(init, "ompt") != 0 ||
             json_object_get(p->regions[i].json, "filtered") != NULL;
    }
    free(held);
    return n;
}

int rp_instrumented_without(const struct rp_profile *p, const char *const *types)
{
    int instrumented = 0;
    for (size_t i = 0; i < p->nregions; i++) {
        const struct rp_region *r = &p->regions[i];
        const char *init = json_string_value(json_object_get(r->json, "init"));
        instrumented |= init && strcmp(init, "ompt") != 0;
        for (const char *const *t = types; r->type && *t; t++)
            if (strcmp(r->type, *t) == 0)
                return 0;
    }
    return instrumented;
}

const char *rp_barrier_waits_unrecorded(const struct rp_profile *p)
{
    static const char *const no_type[] = {NULL};
    /* (without the runtime's reports only instrumented regions are measured) */
    return p->runtime_events_off_by && rp_instrumented_without(p, no_type) ? p->runtime_events_off_by
                                                                           : NULL;
}

size_t rp_worksharing_barriers_unrecorded(const struct rp_profile *p)
{
    static const char *const worksharing[] = {"for", "for simd", "loop", "sections", "single",
                                              "workshare", "scope", NULL};
    if (!rp_barrier_waits_unrecorded(p))
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < p->nregions; i++) {
        const struct rp_region *r = &p->regions[i];
        const char *ctc = json_string_value(json_object_get(r->json, "ctc"));
        const char *init = json_string_value(json_object_get(r->json, "init"));
        if (!type_is(r, worksharing) || !ctc || strstr(ctc, "hasNowait=1") ||
            (init && strcmp(init, "ompt") == 0))
            continue;
        int leaf = 0; /* of a combined construct: the parallel region's barrier ends it */
        for (size_t k = 0; k < p->nregions && !leaf; k++)
            leaf = p->regions[k].type && strcmp(p->regions[k].type, "parallel") == 0 &&
                   p->regions[k].first_line == r->first_line && p->regions[k].file && r->file &&
                   strcmp(p->regions[k].file, r->file) == 0;
        n += !leaf;
    }
    return n;
}

double rp_cpu_wait_share(const struct rp_profile *p)
{
    return p->cpu_wait_ns > 0 && p->cpu_wait_life_ns > 0 ? p->cpu_wait_ns / p->cpu_wait_life_ns
                                                          : 0;
}

const char *rp_lock_waits_unrecorded(const struct rp_profile *p)
{
    static const char *const locks[] = {"omp_set_lock", "omp_set_nest_lock", NULL};
    const char *l = p->level_runtime;
    /* (a pompcc build without a lock call: nothing to say) */
    return l && (strcasecmp(l, "none") == 0 || strcasecmp(l, "Event") == 0) &&
                   !rp_instrumented_without(p, locks)
               ? l
               : NULL;
}
