#include "pomp_profile.h"

#include "pomp_control.h"
#include "pomp_hash.h"
#include "pomp_region.h"

#include <pomplib.h>
#include <stdlib.h>
#include <string.h>

enum { FIRST_CHUNK_NODES = 1024, MAX_CHUNK_NODES = 1 << 16 };

static struct pomp_node_chunk *chunk_alloc(uint32_t size)
{
    struct pomp_node_chunk *c = calloc(1, sizeof *c + (size_t)size * sizeof c->nodes[0]);
    if (c)
        c->size = size;
    return c;
}

int pomp_profile_init(struct pomp_profile *p, uint32_t max_nodes, uint64_t now)
{
    memset(p, 0, sizeof *p);
    p->nodes_max = max_nodes;
    p->chunks = chunk_alloc(max_nodes < FIRST_CHUNK_NODES ? max_nodes : FIRST_CHUNK_NODES);
    p->child_index = calloc(POMP_INDEX_FIRST_SLOTS, sizeof *p->child_index);
    if (!p->chunks || !p->child_index || pomp_value_pool_init(&p->values, POMP_VALUE_BLOCKS) != 0) {
        free(p->chunks);
        free(p->child_index);
        p->chunks = NULL;
        p->child_index = NULL;
        return -1;
    }
    p->index_slots = POMP_INDEX_FIRST_SLOTS;
    p->overflow.parent = &p->root;
    p->overflow.min = UINT64_MAX;
    p->frames = p->frames_first;
    p->frames_cap = POMP_INLINE_FRAMES;
    p->max_depth = POMP_DEFAULT_DEPTH;
    p->frames[0].node = &p->root;
    p->frames[0].start = now;
    p->depth = 1;
    p->top_slot = &p->top_unread;
    return 0;
}

void pomp_profile_destroy(struct pomp_profile *p)
{
    for (struct pomp_node_chunk *c = p->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    p->chunks = NULL;
    p->nodes_used = 0;
    free(p->child_index);
    p->child_index = NULL;
    p->index_slots = 0;
    if (p->frames != p->frames_first)
        free(p->frames);
    p->frames = p->frames_first;
    p->frames_cap = POMP_INLINE_FRAMES;
    pomp_value_pool_destroy(&p->values);
}

void pomp_profile_set_throttle(struct pomp_profile *p, uint64_t visits, uint64_t ns)
{
    p->throttle_visits = visits;
    p->throttle_ns = ns;
    p->throttle_early_visits = visits / POMP_THROTTLE_EARLY;
}

void pomp_profile_set_max_depth(struct pomp_profile *p, uint32_t depth)
{
    p->max_depth = depth < POMP_FIRST_DEPTH ? POMP_FIRST_DEPTH : depth;
}

/* A frame stack twice as deep (growth: a nesting deeper than any before on
 * this thread), up to max_depth; 0 when there or out of memory. */
static __attribute__((noinline, cold)) int grow_frames(struct pomp_profile *p)
{
    if (p->frames_cap >= p->max_depth)
        return 0;
    uint32_t cap = p->frames_cap > p->max_depth / 2 ? p->max_depth : 2 * p->frames_cap;
    struct pomp_frame *bigger = malloc((size_t)cap * sizeof *bigger), *old = p->frames;
    if (!bigger)
        return 0;
    memcpy(bigger, old, (size_t)p->depth * sizeof *bigger);
    __atomic_signal_fence(__ATOMIC_RELEASE); /* complete before the signal handler sees it */
    __atomic_store_n(&p->frames, bigger, __ATOMIC_RELAXED);
    p->frames_cap = cap;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (old != p->frames_first)
        free(old);
    return 1;
}

/* Whether region w is a synchronization wait: a barrier, taskwait or
 * taskgroup wait, not the runtime's mutex waits (wait critical, lock,
 * ordered: pomprun's hot critical), whose region is throttled as the
 * instrumented critical is, whose wait to enter is its own time (pomp-report
 * says that such waits went unmeasured). */
static int is_sync_wait(const struct POMP_Region_s *w)
{
    static const char *const mutexes[] = {"critical", "lock", "nest_lock", "ordered", "atomic"};
    if (!w || !__atomic_load_n(&w->a_wait, __ATOMIC_RELAXED))
        return 0;
    for (size_t k = 0; w->ctc.type && strcmp(w->ctc.type, "wait") == 0 && w->ctc.name &&
                       k < sizeof mutexes / sizeof *mutexes;
         k++)
        if (strcmp(w->ctc.name, mutexes[k]) == 0)
            return 0;
    return 1;
}

/* Whether n's executions hold a synchronization wait: one anywhere below it
 * (a loop's or a single's implicit barrier, in the loop itself or in a user
 * region around it). Such a region is never throttled: untimed, its wait
 * would be untimed too, and count as the enclosing region's work (a
 * throttled loop of 2 us iterations read 90 % load balance for 52 %; a user
 * region around a loop, 97 % for 50 %, when only its children were looked
 * at: a probe). The wait costs its clock reads anyway; its construct adds two
 * events. Walked only where the region would be throttled: its executions
 * are short, so its subtree is small. */
static int holds_wait(const struct pomp_node *n)
{
    for (const struct pomp_node *c = n->first_child; c;) {
        if (is_sync_wait(c->region))
            return 1;
        if (c->first_child) {
            c = c->first_child;
            continue;
        }
        while (!c->next_sibling && c->parent != n)
            c = c->parent;
        c = c->next_sibling;
    }
    return 0;
}

/* Throttles r when the executions counted on node n so far took less than the
 * throttle's mean each (a tenth of it before the throttle's executions are
 * reached: the early rule, pomp_profile.h). Called every 1024 executions past
 * the early threshold: the clock's rate is estimated here, from the start of
 * measurement to now. Never a task construct with a depend clause: any of its
 * creations may wait for its dependences (if(0), final, or one libgomp runs
 * at once past 64 queued tasks a thread), a wait that an untimed creation
 * does not record, and holds_wait cannot see it coming (120,000 deferred
 * creations throttled the construct; the 20 undeferred ones after, 107 ms of
 * waits, read as the creating region's work; a probe). */
static __attribute__((noinline, cold)) void throttle_check(struct pomp_profile *p,
                                                           struct pomp_node *n,
                                                           struct POMP_Region_s *r, uint64_t now)
{
    const struct pomp_clock *c = pomp_clock();
    uint64_t ns = pomp_monotonic_ns() - c->start_ns, ticks = now - c->start_ticks;
    uint64_t runs = n->visits ? n->visits : n->begins;
    /* the flags beside r->throttled, which other threads write, are read one
     * by one: a load the compiler widened over it was a data race (TSan) */
    if (ns == 0 || ticks == 0 || runs <= n->untimed ||
        __atomic_load_n(&r->a_wait, __ATOMIC_RELAXED) ||
        __atomic_load_n(&r->traced_lock, __ATOMIC_RELAXED) ||
        __atomic_load_n(&r->keep_entering, __ATOMIC_RELAXED) || r->has_depend)
        return;
    double ticks_per_ns = (double)ticks / (double)ns;
    double mean_ns = (double)n->incl / ticks_per_ns / (double)(runs - n->untimed);
    double limit_ns = runs >= p->throttle_visits ? (double)p->throttle_ns
                                                 : (double)p->throttle_ns / POMP_THROTTLE_EARLY;
    if (mean_ns >= limit_ns || __atomic_load_n(&r->throttled, __ATOMIC_RELAXED) || holds_wait(n))
        return;
    uint64_t none = 0;
    if (__atomic_compare_exchange_n(&r->throttled_ns, &none, ns, 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
        __atomic_store_n(&r->throttled_after, runs, __ATOMIC_RELAXED);
    __atomic_store_n(&r->throttled, 1, __ATOMIC_RELEASE);
}

static inline void maybe_throttle(struct pomp_profile *p, struct pomp_node *n,
                                  struct POMP_Region_s *r, uint64_t now)
{
    uint64_t runs = n->visits ? n->visits : n->begins;
    if (__builtin_expect(p->throttle_visits != 0 && runs >= p->throttle_early_visits &&
                             (runs & (POMP_THROTTLE_CHECK_EVERY - 1)) == 0 &&
                             n != &p->overflow && now != POMP_UNTIMED,
                         0))
        throttle_check(p, n, r, now);
}

void pomp_profile_for_each_node(struct pomp_profile *p, void (*fn)(struct pomp_node *))
{
    for (struct pomp_node_chunk *c = p->chunks; c; c = c->next)
        for (uint32_t i = 0; i < c->used; i++)
            fn(&c->nodes[i]);
}

/* A hash of (parent, r, fork, task root): its low bits pick the home slot in the children index. */
static inline uint32_t child_slot(const struct pomp_node *parent, const struct POMP_Region_s *r,
                                  const struct pomp_node *fork, int task_root)
{
    /* the products spread the addresses (nodes and regions are spaced by
     * their sizes); the finalizer of MurmurHash3 then mixes every bit into
     * the low ones, which pick the slot (runs of probes stay short) */
    uint64_t h = (uint64_t)(uintptr_t)parent * UINT64_C(0x9E3779B97F4A7C15) ^
                 (uint64_t)(uintptr_t)r * UINT64_C(0xC2B2AE3D27D4EB4F) ^
                 (uint64_t)(uintptr_t)fork * UINT64_C(0x165667B19E3779F9) ^ (uint64_t)task_root;
    return (uint32_t)pomp_hash_mix(h);
}

static inline int child_is(const struct pomp_node *c, const struct POMP_Region_s *r,
                           const struct pomp_node *fork, int task_root)
{
    return c->region == r && c->fork == fork && c->task_root == task_root;
}

/* The children index: every node of the store, found by (parent, region,
 * fork, task root) with linear probing in a table at most half full. It is
 * exact (a miss means a new path), so a parent of thousands of children,
 * each forked in turn (generated kernels, a code's hundreds of loops), finds
 * each child without a walk of its siblings, the first time too. */
static inline uint32_t index_home(const struct pomp_profile *p, const struct pomp_node *n)
{
    return child_slot(n->parent, n->region, n->fork, n->task_root) & (p->index_slots - 1);
}

static void index_put(struct pomp_profile *p, struct pomp_node *n)
{
    uint32_t mask = p->index_slots - 1, i = index_home(p, n);
    while (p->child_index[i])
        i = (i + 1) & mask;
    p->child_index[i] = n;
}

static struct pomp_node *index_find(const struct pomp_profile *p, const struct pomp_node *parent,
                                    const struct POMP_Region_s *r, const struct pomp_node *fork,
                                    int task_root)
{
    uint32_t mask = p->index_slots - 1, i = child_slot(parent, r, fork, task_root) & mask;
    for (struct pomp_node *n; (n = p->child_index[i]) != NULL; i = (i + 1) & mask)
        if (n->parent == parent && child_is(n, r, fork, task_root))
            return n;
    return NULL;
}

/* Takes n out of the index: the entries after it in its run move back
 * where their probe would find them (deletion in linear probing). */
static void index_remove(struct pomp_profile *p, const struct pomp_node *n)
{
    uint32_t mask = p->index_slots - 1, i = index_home(p, n);
    while (p->child_index[i] && p->child_index[i] != n)
        i = (i + 1) & mask;
    if (!p->child_index[i])
        return;
    for (uint32_t j = (i + 1) & mask; p->child_index[j]; j = (j + 1) & mask) {
        uint32_t home = index_home(p, p->child_index[j]);
        /* the entry at j may fill the hole at i unless its home lies in (i, j] */
        int stays = i < j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            p->child_index[i] = p->child_index[j];
            i = j;
        }
    }
    p->child_index[i] = NULL;
}

/* Room in the index for one more node: twice the slots, every node put
 * again, once it would be more than half full (growth, with the nodes).
 * Out of memory, the old one takes nodes while it keeps an empty slot. */
static __attribute__((noinline, cold)) int index_grow(struct pomp_profile *p)
{
    struct pomp_node **old = p->child_index;
    uint32_t old_slots = p->index_slots;
    struct pomp_node **bigger = old_slots < (1u << 31) ? calloc((size_t)old_slots * 2, sizeof *bigger)
                                                        : NULL;
    if (!bigger)
        return p->nodes_used + 2 < old_slots ? 0 : -1;
    p->child_index = bigger;
    p->index_slots = old_slots * 2;
    for (uint32_t i = 0; i < old_slots; i++)
        if (old[i])
            index_put(p, old[i]);
    free(old);
    return 0;
}

/* A fresh node for a new path: from the current chunk, or a new chunk twice
 * the size of the last (growth: the one allocation an event may make, and
 * only for a path the thread never took before). NULL once POMP_PROFILE_NODES
 * are used or memory is out: the path goes to the overflow node, counted. */
static struct pomp_node *new_node(struct pomp_profile *p, struct pomp_node *parent,
                                  struct POMP_Region_s *r)
{
    struct pomp_node_chunk *c = p->chunks;
    if (__builtin_expect(p->nodes_used == p->nodes_max, 0)) {
        p->dropped_paths++;
        return NULL;
    }
    if (__builtin_expect(p->nodes_used + 1 > p->index_slots / 2, 0) && index_grow(p) != 0) {
        p->dropped_paths++;
        return NULL;
    }
    if (__builtin_expect(c->used == c->size, 0)) {
        uint32_t size = c->size < MAX_CHUNK_NODES / 2 ? 2 * c->size : MAX_CHUNK_NODES;
        if (size > p->nodes_max - p->nodes_used)
            size = p->nodes_max - p->nodes_used;
        struct pomp_node_chunk *fresh = chunk_alloc(size);
        if (!fresh) {
            p->dropped_paths++;
            return NULL;
        }
        fresh->next = c;
        /* the sampling handler never walks the chunks: publishing needs no fence */
        p->chunks = c = fresh;
    }
    struct pomp_node *n = &c->nodes[c->used++];
    p->nodes_used++;
    n->region = r;
    n->parent = parent;
    n->min = UINT64_MAX;
    n->next_sibling = parent->first_child;
    parent->first_child = n;
    return n;
}

/* Gives back the newest node (a begin the runtime made that POMP took over). */
static int give_back(struct pomp_profile *p, struct pomp_node *n)
{
    struct pomp_node_chunk *c = p->chunks;
    if (!c->used || n != &c->nodes[c->used - 1])
        return 0;
    if (p->share_hit == n)
        p->share_hit = NULL;
    for (int k = 0; k < 2; k++)
        if (p->task_hit[k] == n)
            p->task_hit[k] = NULL;
    index_remove(p, n);
    memset(n, 0, sizeof *n);
    c->used--;
    p->nodes_used--;
    return 1;
}

/* The child of parent for (r, fork, task root): among its first four
 * children, else from the children index, else a new node (at the head).
 * NULL when the store is full. */
static struct pomp_node *find_child(struct pomp_profile *p, struct pomp_node *parent,
                                    struct POMP_Region_s *r, const struct pomp_node *fork,
                                    int task_root)
{
    /* a parent of a few children: a short walk costs less than the hash */
    struct pomp_node *c = parent->first_child;
    for (int k = 0; c && k < 4; c = c->next_sibling, k++)
        if (child_is(c, r, fork, task_root))
            return c;
    if (c && (c = index_find(p, parent, r, fork, task_root)) != NULL)
        return c;
    c = new_node(p, parent, r);
    if (!c)
        return NULL;
    c->fork = fork;
    c->task_root = (uint8_t)task_root;
    index_put(p, c);
    return c;
}

/* child_of when neither the last child found nor the one found after it
 * last time is r's: the walk, out of line, so that the common cases stay
 * inline in every event. last: the parent's last found, or NULL. */
static __attribute__((noinline)) struct pomp_node *
child_of_other(struct pomp_profile *p, struct pomp_node *parent, struct pomp_node *last,
               struct POMP_Region_s *r)
{
    /* a team share or a task root is not a plain child */
    struct pomp_node *c = find_child(p, parent, r, NULL, 0);
    if (!c)
        return &p->overflow;
    if (last)
        last->next_hit = c;
    parent->last_hit = c;
    return c;
}

/* The plain child of parent for r: the one found last, else the one found
 * after it last time, else child_of_other. */
static inline struct pomp_node *child_of(struct pomp_profile *p, struct pomp_node *parent,
                                         struct POMP_Region_s *r)
{
    struct pomp_node *last = parent->last_hit, *next;
    if (__builtin_expect(last != NULL && last->region == r, 1))
        return last;
    if (last && (next = last->next_hit) != NULL && next->region == r) {
        parent->last_hit = next;
        return next;
    }
    return child_of_other(p, parent, last, r);
}

/* The fork point of the team the thread runs a task in (pomp_node.fork):
 * the innermost frame that tells it, a task's (its root's), a team share's,
 * or the parallel region the thread forked. NULL if none does (a parallel
 * frame the bridge did not mark: no team the workers know). */
static const struct pomp_node *task_team_fork(const struct pomp_profile *p)
{
    for (uint32_t d = p->depth - 1; d >= 1; d--) {
        const struct pomp_frame *f = &p->frames[d];
        if (f->task || f->team)
            return f->node->fork;
        if (f->region->team_region)
            return f->forked ? f->node : NULL;
    }
    return NULL;
}

/* The tree of a task construct's executions on this thread in the team
 * forked at fork: a child of the root. It never becomes root.last_hit or
 * a node's next_hit, so child_of's fast path only sees plain children. */
static struct pomp_node *task_root_of(struct pomp_profile *p, struct POMP_Region_s *r,
                                      const struct pomp_node *fork)
{
    /* the two found last first: a recursion of one or two task constructs */
    for (int k = 0; k < 2; k++)
        if (p->task_hit[k] && p->task_hit[k]->region == r && p->task_hit[k]->fork == fork)
            return p->task_hit[k];
    struct pomp_node *c = find_child(p, &p->root, r, fork, 1);
    if (!c)
        return &p->overflow;
    p->task_hit[1] = p->task_hit[0];
    p->task_hit[0] = c;
    return c;
}

/* The child of parent for a team share of r forked at fork. It never becomes
 * parent->last_hit or a node's next_hit, so child_of's fast path only sees
 * plain children. */
static struct pomp_node *team_child_of(struct pomp_profile *p, struct pomp_node *parent,
                                       struct POMP_Region_s *r, const struct pomp_node *fork)
{
    struct pomp_node *c = p->share_hit; /* the same region forked again */
    if (c && c->region == r && c->fork == fork && c->parent == parent)
        return c;
    c = find_child(p, parent, r, fork, 0);
    if (!c)
        return &p->overflow;
    p->share_hit = c;
    return c;
}

/* ---- sites counted inline (POMP_Fast_count) ---- */

static void fast_fold_one(struct pomp_profile *p, struct pomp_fast_site *s, int owner)
{
    uint64_t v = s->count ? __atomic_load_n(&s->count->visits[s->slot], __ATOMIC_RELAXED) : s->saved;
    s->saved = 0;
    if (owner && s->count) {
        __atomic_store_n(&s->count->visits[s->slot], 0, __ATOMIC_RELAXED);
        s->count->parent[s->slot] = NULL;
    }
    struct pomp_node *n = s->node;
    /* a visit counted inline and not untimed took no time (a taskwait in a
     * final task): the shortest visit is 0, not that of the timed ones */
    if (v && !s->untimed)
        n->min = 0;
    if (s->what != POMP_FAST_EXECUTION && s->what != POMP_FAST_EXECUTION_IN_PLACE &&
        s->what != POMP_FAST_BEGIN)
        n->visits += v;
    if (s->what != POMP_FAST_VISIT)
        n->begins += v;
    if (s->untimed) {
        n->untimed += v;
        p->untimed_events += v * s->events;
    }
}

void pomp_profile_fast_fold(struct pomp_profile *p, int owner)
{
    for (uint32_t i = 0; i < p->nfast; i++)
        fast_fold_one(p, &p->fast[i], owner);
    p->nfast = 0;
}

void pomp_profile_fast_save(struct pomp_profile *p)
{
    for (uint32_t i = 0; i < p->nfast; i++) {
        struct pomp_fast_site *s = &p->fast[i];
        if (s->count) {
            s->saved += __atomic_load_n(&s->count->visits[s->slot], __ATOMIC_RELAXED);
            s->count = NULL;
        }
    }
}

/* What POMP_Fast_top holds for frame f on top: its node, with its lowest bit
 * set where f is a task's execution (POMP_Fast_task_counted: an included
 * task's execution counts inline inside it, whatever the construct). */
static inline const void *frame_published(const struct pomp_profile *p, const struct pomp_frame *f)
{
    uintptr_t in_task = f->task && !f->skipped && f->node != &p->overflow;
    /* (bit 1: the rest of an execution counted inline, a frame since a region
     * opened in it: its body's inserted code tells it from its own root's
     * value, POMP_Fast_task_done) */
    return (const void *)((uintptr_t)f->node | in_task | (uintptr_t)f->inline_task << 1);
}

/* What a site counted inline under frame f registers under: f's value as
 * published, but for the rest of an execution counted inline, the value its
 * body published (the root's), so that the site counts in the bodies of the
 * executions counted inline later (registered under the frame's own value it
 * counted in none: each registered again, a frame made again, at every one). */
static inline const void *frame_registered(const struct pomp_profile *p, const struct pomp_frame *f)
{
    return (const void *)((uintptr_t)frame_published(p, f) & ~(uintptr_t)2);
}

/* Writes what POMP_Fast_top holds now (the owner thread's, once attached). */
static inline void publish(struct pomp_profile *p, const void *top)
{
    *p->top_slot = p->published = top;
}

/* What POMP_Fast_top holds: the top frame's (frame_published), or no node
 * while a leaf is open on it. */
static inline const void *top_published(const struct pomp_profile *p)
{
    if (__builtin_expect(p->leaf.depth == p->depth, 0))
        return &p->leaf;
    return frame_published(p, &p->frames[p->depth - 1]);
}

void pomp_profile_fast_attach(struct pomp_profile *p, const void **slot)
{
    *slot = p->published = top_published(p);
    __atomic_store_n(&p->top_slot, slot, __ATOMIC_RELAXED);
}

void pomp_profile_fast_detach(struct pomp_profile *p)
{
    p->top_unread = p->published;
    __atomic_store_n(&p->top_slot, &p->top_unread, __ATOMIC_RELAXED);
}

/* Where the execution of task construct r just begun (its task root the
 * node counted last, its frame on top) counts inline from now on
 * (POMP_FAST_EXECUTION_IN_PLACE): the frame below it, where no leaf (a wait,
 * a timed creation) was open and the creations of r count inline
 * (pomp_profile_begun_in_place), so that a task run at once in its creation
 * (undeferred: if(0), or the runtime's choice) adds its time to that frame's,
 * as its creation's does; NULL where it is not so. A task run there later,
 * at a scheduling point that waits for nothing, takes the same place: its
 * time is that frame's too. */
static const void *in_place_under(const struct pomp_profile *p, const struct POMP_Region_s *r)
{
    const struct pomp_frame *below = pomp_profile_begun_in_place(p);
    if (!below)
        return NULL;
    const void *under = frame_registered(p, below);
    for (uint32_t i = 0; i < p->nfast; i++) {
        const struct pomp_fast_site *s = &p->fast[i];
        if (s->what == POMP_FAST_VISIT && s->count && s->node->region == r &&
            s->count->parent[s->slot] == under)
            return under;
    }
    return NULL;
}

/* What the site of r counts inline under (its counter's parent, compared with
 * POMP_Fast_top) on node n, the node its event just counted on (the top
 * frame then), or NULL where it cannot. */
static const void *fast_site_under(const struct pomp_profile *p, const struct pomp_node *n,
                                   const struct POMP_Region_s *r, enum pomp_fast_what what)
{
    const struct pomp_frame *top = &p->frames[p->depth - 1];
    if (p->too_deep || !n || n == &p->overflow || n->region != r || top->skipped ||
        (n->fork && !n->task_root)) /* a team share */
        return NULL;
    if (what == POMP_FAST_EXECUTION) {
        /* the begin just opened the task's frame on its root: the next
         * executions count inline directly inside an execution of any task
         * (POMP_Fast_top marked so: POMP_Fast_task_counted), whose frame
         * holds their time as it holds a function's; not inside a wait (a
         * leaf open there). The parent says the counter is registered, and
         * what its executions publish for their bodies (POMP_Fast_task_counted):
         * the root's value, once. */
        return n->task_root && top->task && top->node == n ? frame_published(p, top) : NULL;
    }
    if (what == POMP_FAST_EXECUTION_IN_PLACE)
        return in_place_under(p, r); /* n: p->counted, as there */
    /* the event just recorded counted on a plain child of the open frame; a
     * critical (a master, a masked) whose block held a region (a task's
     * creation, an atomic, a function region) keeps its frame: counted
     * inline, it opens none, and those regions would count on the path
     * around it */
    if (n->parent != top->node || n->task_root ||
        ((what == POMP_FAST_VISIT_BEGIN || what == POMP_FAST_BEGIN) && n->first_child))
        return NULL;
    return frame_registered(p, top);
}

/* The site entry of count's slot k, or NULL. */
static struct pomp_fast_site *fast_site_of(struct pomp_profile *p, const struct POMP_Fast_count *count,
                                           unsigned k)
{
    for (uint32_t i = 0; i < p->nfast; i++)
        if (p->fast[i].count == count && p->fast[i].slot == k)
            return &p->fast[i];
    return NULL;
}

void pomp_profile_fast_register(struct pomp_profile *p, struct POMP_Fast_count *count,
                                struct POMP_Region_s *r, unsigned events, enum pomp_fast_what what)
{
    struct pomp_node *n = p->counted;
    /* an execution in place publishes for its body the root its first slot
     * holds (POMP_Fast_task_counted): not before it does */
    if (what == POMP_FAST_EXECUTION_IN_PLACE && !count->parent[0])
        return;
    const void *under = fast_site_under(p, n, r, what);
    if (!under)
        return;
    if (count->parent[0] == under || count->parent[1] == under)
        return; /* counting there already (a visit made its calls while paused) */
    /* the counter's slot: a free one, else the older registration's, whose
     * counts go to its node first (a site reached from a third path), after
     * POMP_FAST_MISSES visits on other paths: a site reached from seven
     * (strassen's tasks created inside each other's seven) registered at
     * nearly every visit, ~190 instructions each, for no more visits counted */
    struct pomp_fast_site *s0 = fast_site_of(p, count, 0), *s1 = fast_site_of(p, count, 1);
    unsigned k;
    if (what == POMP_FAST_EXECUTION_IN_PLACE) {
        /* slot 1, its own (slot 0 counts the executions inside any task):
         * moved to another place after POMP_FAST_MISSES runs made there */
        if (s1 && ++s1->misses < POMP_FAST_MISSES)
            return;
        k = 1;
    } else {
        if (s0 && s1 && ++s0->misses < POMP_FAST_MISSES)
            return;
        if (s0)
            s0->misses = 0;
        k = !s0 ? 0 : !s1 ? 1 : s0->registered - s1->registered > UINT32_MAX / 2 ? 0 : 1;
    }
    struct pomp_fast_site *s = k ? s1 : s0;
    if (s) {
        fast_fold_one(p, s, 1);
    } else if (p->nfast == POMP_FAST_SITES) {
        /* an entry whose site does not count under this frame (in turn, so
         * that no one site keeps losing it): its counts go to its node first.
         * With all of them counting here, this site keeps its calls. */
        uint32_t i, j;
        for (j = 0; j < POMP_FAST_SITES; j++) {
            i = (p->fast_evict + j) % POMP_FAST_SITES;
            const struct pomp_fast_site *e = &p->fast[i];
            if (!e->count || e->count->parent[e->slot] != under)
                break;
        }
        if (j == POMP_FAST_SITES)
            return;
        p->fast_evict = i + 1;
        s = &p->fast[i];
        fast_fold_one(p, s, 1);
    } else {
        s = &p->fast[p->nfast++];
    }
    *s = (struct pomp_fast_site){.count = count, .node = n, .slot = (uint8_t)k,
                                 .registered = p->fast_registrations++,
                                 .events = (uint8_t)events, .what = (uint8_t)what,
                                 .untimed = __atomic_load_n(&r->throttled, __ATOMIC_RELAXED)};
    count->parent[k] = under;
}

/* A team begins or ends on this thread: its executions counted inline stop,
 * their counts folded. Slot 0 of an execution's counter counts inside any
 * task's frame, whatever its team, on the root of the team it registered in:
 * a construct run in two parallel regions counted the second team's
 * executions, and what their bodies count inline, on the first team's roots
 * (54,178 and 3,134 executions for 28,656 in each; a probe). They register
 * again on the next team's roots at their next timed execution. */
static __attribute__((noinline, cold)) void fast_fold_executions(struct pomp_profile *p)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < p->nfast; i++) {
        struct pomp_fast_site *s = &p->fast[i];
        if (s->what == POMP_FAST_EXECUTION || s->what == POMP_FAST_EXECUTION_IN_PLACE)
            fast_fold_one(p, s, 1);
        else
            p->fast[kept++] = *s;
    }
    p->nfast = kept;
}

/* PUSH_TASK_NODE: a task root's frame on the node given (as fork): the rest of
 * an execution counted inline (pomp_profile_inline_task_open). */
enum push_place { PUSH_CHILD, PUSH_TEAM_SHARE, PUSH_TASK_ROOT, PUSH_TASK_NODE };

/* A region's bit in pomp_profile.outside_regions. */
static inline uint64_t region_bit(const struct POMP_Region_s *r)
{
    uintptr_t a = (uintptr_t)r;
    return UINT64_C(1) << ((a >> 4 ^ a >> 10) & 63);
}

/* Whether open region o is r (or, twin: a twin of r). */
static inline int holds(const struct POMP_Region_s *o, const struct POMP_Region_s *r, int twin)
{
    return o == r || (twin && r && pomp_region_maybe_twins(o, r));
}

/* Each region open below depth top, in a frame or in the wait a task there
 * started in, whose time holds what runs at top (each returned until see
 * says stop: r, or NULL for all). Outside tasks every one does; inside a task
 * only those above the nearest task switch (a task run inside a wait of its
 * task, whose frames leave it out), where a team's frame resets that: the
 * switches inside a team are none for the frames below it (pop). Below a team
 * forked in a task (a recursion of tasks that fork teams) the waits the tasks
 * started in hold it too: an implicit task's barrier or taskwait, a leaf (it
 * was counted twice where another construct's task came between; a probe). */
static const struct POMP_Region_s *open_holding(const struct pomp_profile *p, uint32_t top,
                                                const struct POMP_Region_s *r, int twin,
                                                uint64_t *bits, uint64_t *kinds)
{
    int switched = 0;
    for (uint32_t d = top; d-- > 1;) {
        const struct pomp_frame *g = &p->frames[d];
        if (!switched || !g->in_task) {
            if (holds(g->region, r, twin))
                return g->region;
            if (bits) {
                *bits |= region_bit(g->region);
                *kinds |= g->region->kind_bit;
            }
        }
        if (g->team_bound)
            switched = 0;
        if (!g->task)
            continue;
        switched |= g->switch_in;
        const struct pomp_leaf *l = &g->leaf_below;
        if (l->region && (!switched || !l->in_task)) {
            if (holds(l->region, r, twin))
                return l->region;
            if (bits) {
                *bits |= region_bit(l->region);
                *kinds |= l->region->kind_bit;
            }
        }
    }
    return NULL;
}

/* A task starts outside any task, or inside a team forked in one: the
 * regions open below it whose time holds its own. */
static void note_outside_regions(struct pomp_profile *p)
{
    p->outside_depth = p->depth;
    p->outside_regions = 0;
    p->outside_kinds = 0;
    open_holding(p, p->depth, NULL, 0, &p->outside_regions, &p->outside_kinds);
    p->outside_leaf = p->leaf.region && !p->leaf.in_task ? p->leaf.region : NULL;
    if (p->outside_leaf) {
        p->outside_regions |= region_bit(p->outside_leaf);
        p->outside_kinds |= p->outside_leaf->kind_bit;
    }
}

/* Whether r is open outside the running task. */
static inline int open_outside(const struct pomp_profile *p, const struct POMP_Region_s *r)
{
    if (!(p->outside_regions & region_bit(r)))
        return 0;
    if (p->outside_leaf == r) /* an undeferred task inside its own creation: the common hit */
        return 1;
    return open_holding(p, p->outside_depth, r, 0, NULL, NULL) != NULL;
}

/* A frame of r on node n, inside a task, may overlap one open outside. */
enum overlap { OVERLAP_NONE, OVERLAP_SAME, OVERLAP_TWIN };

/* Is r open outside the running task (so a frame of r inside it overlaps
 * that one), or a twin of it (which the output may fold into one region with
 * it: an inline function's taskwait where the function was inlined into a
 * single and where it recursed in tasks; 85 ms of taskwait on one thread in
 * a run of 82 ms, a probe)? The first twin found is n's; after that only it
 * is looked for, where most often it is the leaf the tasks run in. */
static __attribute__((noinline)) enum overlap twin_open_outside(const struct pomp_profile *p,
                                                                const struct POMP_Region_s *r,
                                                                struct pomp_node *n)
{
    if (n->twin)
        return open_outside(p, n->twin) ? OVERLAP_TWIN : OVERLAP_NONE;
    n->twin = open_holding(p, p->outside_depth, r, 1, NULL, NULL);
    if (!n->twin && p->outside_leaf && pomp_region_maybe_twins(p->outside_leaf, r))
        n->twin = p->outside_leaf;
    return n->twin ? OVERLAP_TWIN : OVERLAP_NONE;
}

static inline enum overlap open_outside_tasks(const struct pomp_profile *p,
                                              const struct POMP_Region_s *r, struct pomp_node *n)
{
    if (open_outside(p, r))
        return OVERLAP_SAME;
    if (__builtin_expect((p->outside_kinds & r->kind_bit) != r->kind_bit, 1))
        return OVERLAP_NONE;
    return twin_open_outside(p, r, n);
}

/* Whether an execution of task construct r is open on the thread's stack (a
 * task run inside it through a team forked there). */
static __attribute__((noinline, cold)) int run_open_below(const struct pomp_profile *p,
                                                          const struct POMP_Region_s *r)
{
    for (uint32_t d = p->depth - 1; d >= 1; d--)
        if (p->frames[d].task && p->frames[d].region == r)
            return 1;
    return 0;
}

/* The regions noted open below the tasks, kept in task frame f, which notes
 * its own (given back when it closes, pop). */
static __attribute__((noinline, cold)) void keep_outside(struct pomp_profile *p,
                                                        struct pomp_frame *f)
{
    f->outside_noted = 1;
    f->outside_depth_below = p->outside_depth;
    f->outside_regions_below = p->outside_regions;
    f->outside_kinds_below = p->outside_kinds;
    f->outside_leaf_below = p->outside_leaf;
}

/* What opening a frame counts on its node. */
enum push_count {
    COUNT_BEGIN,
    COUNT_VISIT,
    COUNT_NOTHING, /* a later part of a task's execution: its begin was counted (pomp_profile_resume) */
};

static void leaf_to_frame(struct pomp_profile *p);

/* entered: only an exit closes the frame. */
static inline __attribute__((always_inline)) void
push_node(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now, int entered,
          enum push_count count, int off, enum push_place place, const struct pomp_node *fork)
{
    int task = place == PUSH_TASK_ROOT || place == PUSH_TASK_NODE;
    if (__builtin_expect(p->leaf.depth == p->depth, 0) && !task)
        leaf_to_frame(p); /* a region inside a wait or creation, not in a task of its own */
    if (__builtin_expect(p->depth == p->frames_cap, 0) && (p->too_deep || !grow_frames(p))) {
        p->too_deep++;
        /* a measured open counts its close with it (which counts nothing): an
         * open while measurement is off (POMP_Off) lost nothing, nor will its
         * close, whatever the state then */
        if (!off)
            p->deep_events += 2;
        return;
    }
    struct pomp_node *parent = p->frames[p->depth - 1].node;
    /* a skipped frame stands on its parent's node, so regions opened inside it
     * after POMP_On attach to the nearest recorded ancestor */
    struct pomp_node *n = off                        ? parent
                          : place == PUSH_TEAM_SHARE ? team_child_of(p, parent, r, fork)
                          : place == PUSH_TASK_ROOT  ? task_root_of(p, r, task_team_fork(p))
                          : place == PUSH_TASK_NODE  ? (struct pomp_node *)fork
                                                     : child_of(p, parent, r);
    struct pomp_frame *f = &p->frames[p->depth];
    f->team = 0;
    f->forked = 0;
    f->adopt = 0;
    f->skipped = (uint8_t)off;
    f->node = n;
    f->region = r;
    f->start = now;
    f->body_start = now;
    f->body_end = 0;
    f->child = 0;
    f->task = (uint8_t)task;
    f->inline_task = 0;
    /* a team forked inside a task (a nested parallel region in a task) runs
     * its own tasks: their time is the team's, inside the task around it, no
     * switch away from that task (the master's share of such a region lost
     * the tasks it ran in its barrier: 2.5 ms of a 12 ms region, its load
     * balance 50 % for 99 %; a probe) */
    const struct pomp_frame *below = &p->frames[p->depth - 1];
    f->team_bound = (uint8_t)(place == PUSH_TEAM_SHARE || r->team_region);
    if (__builtin_expect(f->team_bound, 0) && p->nfast)
        fast_fold_executions(p);
    f->in_task = f->task || (!f->team_bound && below->in_task);
    f->under_task = f->task || below->under_task;
    f->switch_in = (uint8_t)(f->task && below->in_task);
    f->outside_noted = 0;
    if (f->task && !below->in_task) {
        /* a task started outside tasks, or inside a team forked in one: what
         * is open below it holds its time (no task switch), its frames
         * overlap a region open there */
        if (__builtin_expect(below->under_task, 0))
            keep_outside(p, f);
        note_outside_regions(p);
    }
    f->nested_run = 0;
    if (__builtin_expect(p->teams_in_tasks != 0, 0) && f->task)
        f->nested_run = (uint8_t)run_open_below(p, r);
    else if (__builtin_expect(f->team_bound && below->under_task, 0))
        p->teams_in_tasks++;
    /* (a run inside a run of its construct: node.nested, not overlap, which is
     * a task root's run inside its own creation) */
    f->overlap = (uint8_t)(f->under_task && !f->nested_run && !off
                               ? open_outside_tasks(p, r, n)
                               : OVERLAP_NONE);
    f->switched = p->task_switched;
    f->helper = 0;
    f->from_leaf = 0;
    f->dependences_waited = 0;
    /* a throttled region, or inside one (a task's execution is timed anyway) */
    f->untimed = (uint8_t)(!off && (now == POMP_UNTIMED ||
                                    ((__atomic_load_n(&r->throttled, __ATOMIC_RELAXED) ||
                                      p->frames[p->depth - 1].untimed) && !f->task)));
    f->entered = (uint8_t)entered;
    f->in_body = (uint8_t)!entered;
    if (f->task) { /* a task is timed whatever it runs inside, and so is what it opens */
        f->untimed_below = p->untimed;
        p->untimed = 0;
        f->leaf_below = p->leaf; /* and it may open a leaf of its own inside the one it runs in */
        p->leaf.region = NULL;
        p->leaf.depth = 0;
    }
    /* the sampling signal handler reads the top frame: complete it first */
    __atomic_signal_fence(__ATOMIC_RELEASE);
    p->depth++;
    publish(p, frame_published(p, f)); /* inline counters under another frame now stop */
    if (off)
        return;
    p->counted = n;
    if (__builtin_expect(n == &p->overflow, 0))
        p->overflow_open++;
    if (count == COUNT_VISIT)
        n->visits++;
    else if (count == COUNT_BEGIN)
        n->begins++;
    if (__builtin_expect(f->untimed, 0)) {
        if (count != COUNT_NOTHING)
            n->untimed++;
        p->untimed++;
    }
}

static void push(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now, int entered,
                 int off)
{
    push_node(p, r, now, entered, entered ? COUNT_VISIT : COUNT_BEGIN, off, PUSH_CHILD, NULL);
}


/* One execution of node n: its inclusive time, and its own time (inclusive
 * less what its children took). */
static inline void count_execution(struct pomp_node *n, uint64_t incl, uint64_t own)
{
    n->incl += incl;
    n->excl += own;
    if (incl < n->min)
        n->min = incl;
    if (incl > n->max)
        n->max = incl;
}

/* An execution of n counted inside the frame on top (depth > 1: one that is
 * no thread root): where n is the overflow node (the path did not fit), that
 * frame's incl holds its time, which the overflow node's incl adds again: it
 * is overlap (the run's fork/join read 105 % when a worker's was counted as
 * one of its roots and inside its share). */
static inline void count_overflow_inside(struct pomp_profile *p, struct pomp_node *n,
                                         uint64_t incl)
{
    if (__builtin_expect(n == &p->overflow, 0) && p->depth > 1)
        n->overlap += incl;
}

/* The end of frame f's block at now: its time, where it was timed. Inside a
 * task, less the tasks run meanwhile (a task switch), as the frame's
 * inclusive time is: an undeferred task's block whose taskwait ran others. */
static inline void count_block(const struct pomp_profile *p, struct pomp_frame *f, uint64_t now)
{
    if (f->skipped || f->untimed || now == POMP_UNTIMED || f->body_start == POMP_UNTIMED ||
        now < f->body_start || (f->node == &p->overflow && p->overflow_open > 1))
        return; /* (an overflow frame inside another: that one's body holds it) */
    uint64_t body = now - f->body_start;
    if (f->in_task) {
        uint64_t switched = p->task_switched - f->switched;
        body = body > switched ? body - switched : 0;
    }
    f->node->body += body;
}

/* No leaf open any more (its region NULL, its depth 0, which pop compares). */
static inline void leaf_drop(struct pomp_profile *p)
{
    p->leaf.region = NULL;
    p->leaf.depth = 0;
    publish(p, frame_published(p, &p->frames[p->depth - 1])); /* its counters count again */
}

/* A region opens inside the leaf on top, in no task the profile saw: code of
 * a task that the runtime ran there unseen (a libgomp task forwarded
 * unwrapped, a task the filter leaves out) or a wait's own. The leaf becomes
 * the frame it stands for, so that the region nests inside it, as it does
 * with a trace (where every wait has a frame): beside it, the two would be
 * counted twice in their parent's children. The time the parent's children
 * took since the leaf opened (tasks run in the wait) is the frame's
 * children's. Where the stack cannot grow the leaf stays (the region's frame
 * is not recorded either). */
static __attribute__((noinline)) void leaf_to_frame(struct pomp_profile *p)
{
    if (p->depth == p->frames_cap && (p->too_deep || !grow_frames(p)))
        return;
    struct pomp_leaf l = p->leaf;
    leaf_drop(p);
    uint64_t inside = p->frames[p->depth - 1].child - l.child;
    push(p, l.region, l.start, 1, 0);
    struct pomp_frame *f = &p->frames[p->depth - 1];
    if (f->untimed) { /* its region throttled since: the leaf was timed, and so is its frame */
        f->untimed = 0;
        f->node->untimed--;
        p->untimed--;
    }
    p->frames[p->depth - 2].child = l.child;
    f->child = inside;
    f->switched = l.switched;
    f->from_leaf = 1;
}

/* Whether a recorded frame or leaf is open on the thread, below the frames
 * skipped while measurement was paused or filtered (a region at level none
 * has none):
 * where none is, a task's time run there goes out of no region's own time. */
static int recorded_below(const struct pomp_profile *p)
{
    if (p->leaf.region && p->leaf.depth == p->depth)
        return 1; /* a wait's leaf (its own time leaves the task out) */
    uint32_t d = p->depth - 1;
    while (d > 0 && p->frames[d].skipped)
        d--;
    return d > 0;
}

/* Closes the top frame; returns POMP_PROFILE_SKIPPED for a skipped one. */
static int32_t pop(struct pomp_profile *p, uint64_t now)
{
    struct pomp_frame *f = &p->frames[--p->depth];
    /* the task switches inside a team's frame were that team's tasks, run
     * inside it: none for the frames around it (the task it was forked in) */
    if (__builtin_expect(f->team_bound, 0)) {
        p->task_switched = f->switched;
        if (f->under_task)
            p->teams_in_tasks--;
        if (p->nfast)
            fast_fold_executions(p);
    }
    if (__builtin_expect(p->leaf.depth > p->depth, 0)) { /* a leaf on it never closed */
        p->nesting_errors++;
        leaf_drop(p);
    }
    if (__builtin_expect(f->outside_noted, 0)) {
        p->outside_depth = f->outside_depth_below;
        p->outside_regions = f->outside_regions_below;
        p->outside_kinds = f->outside_kinds_below;
        p->outside_leaf = f->outside_leaf_below;
    }
    if (f->task) { /* the leaf and the untimed frames below the task rule again */
        p->leaf = f->leaf_below;
        p->untimed = f->untimed_below;
    } else if (__builtin_expect(f->untimed, 0)) {
        p->untimed--;
    }
    publish(p, top_published(p)); /* the counters under it count again */
    if (f->skipped) {
        /* its time stays with the parent's own time; what the regions recorded
         * inside it took (on the parent's node, as its children) is the
         * parent's children's: it was the parent's own time too (a user region
         * around a paused one, holding a 50 ms region recorded after POMP_On:
         * 70 ms own of 70; a filtered loop's barriers in a parallel region) */
        if (!f->task)
            p->frames[p->depth - 1].child += f->child;
        return POMP_PROFILE_SKIPPED;
    }
    struct pomp_node *n = f->node;
    struct pomp_frame *below = &p->frames[p->depth - 1];
    /* a path that did not fit inside another that did not: both on the
     * overflow node, whose outer frame holds this one's time (added twice,
     * a recursion's overflow read 129 ms in a run of 5) */
    if (__builtin_expect(n == &p->overflow, 0) && --p->overflow_open > 0)
        return POMP_SUCCESS;
    if (__builtin_expect(f->untimed, 0)) /* counted at its start; its time is its parent's */
        return POMP_SUCCESS;
    if (__builtin_expect(now == POMP_UNTIMED, 0)) /* timed when it opened: it closes timed, as */
        now = pomp_now();                            /* its children did (left open above a close) */
    p->last_closed = now;
    uint64_t wall = now - f->start;
    /* inside a task, the tasks run meanwhile (inside its taskwait) are a task
     * switch: their time is theirs, not this frame's */
    uint64_t incl = f->in_task ? wall - (p->task_switched - f->switched) : wall;
    if (__builtin_expect(f->helper, 0)) { /* time, but no execution of its own */
        n->incl += incl;
        n->excl += incl - f->child;
    } else {
        count_execution(n, incl, incl - f->child);
    }
    if (__builtin_expect(f->overlap, 0)) {
        if (f->overlap == OVERLAP_SAME)
            n->overlap += incl;
        else
            n->twin_overlap += incl;
    }
    if (__builtin_expect(f->nested_run, 0))
        n->nested += incl;
    count_overflow_inside(p, n, incl);
    if (f->task && below->in_task)
        p->task_switched += incl; /* left out of the interrupted task's open frames */
    else if (f->task) {
        below->child += wall;     /* a wait (barrier, implicit task) is not the task */
        if (__builtin_expect(!recorded_below(p), 0))
            p->unframed_task_ticks += wall;
    } else
        below->child += incl;
    maybe_throttle(p, n, f->region, now);
    return POMP_SUCCESS;
}

/* The frame of region r on top of the stack, after closing (and counting)
 * frames left open above it; NULL if r is not open on this thread. */
static struct pomp_frame *open_frame_of(struct pomp_profile *p, struct POMP_Region_s *r,
                                        uint64_t now)
{
    uint32_t d = p->depth;
    while (d > 1 && p->frames[d - 1].region != r)
        d--;
    if (d == 1)
        return NULL;
    if (p->depth > d && !p->first_unmatched) { /* r closes across the frames above it */
        p->first_unmatched = r;
        p->first_unended = p->frames[d].region;
    }
    while (p->depth > d) {
        p->nesting_errors++;
        pop(p, now);
    }
    return &p->frames[p->depth - 1];
}

/* Frames beyond max_depth were not pushed; their closing events only count
 * down (push_node counted them in deep_events with their opens). */
static inline int closing_unrecorded(struct pomp_profile *p)
{
    if (__builtin_expect(p->too_deep == 0, 1))
        return 0;
    p->too_deep--;
    return 1;
}

int32_t pomp_profile_enter(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now, int off)
{
    pomp_profile_claim_inline_task(p, now);
    push(p, r, now, 1, off);
    return p->too_deep ? POMP_ERR_DEPTH : off ? POMP_PROFILE_SKIPPED : POMP_SUCCESS;
}

/* A POMP begin takes over the frame the runtime opened for the same construct:
 * the frame keeps its start, the runtime's node gives back its begin (and goes
 * back when it was made for this frame alone). */
static int32_t adopt(struct pomp_profile *p, struct pomp_frame *f, struct POMP_Region_s *r,
                     struct POMP_Region_s **adopted_from)
{
    struct pomp_node *parent = p->frames[p->depth - 2].node, *old = f->node;
    if (p->nfast) /* sites counted under the frame's old node */
        pomp_profile_fast_fold(p, 1);
    f->adopt = 0;
    *adopted_from = f->region;
    f->region = r;
    if (f->skipped)
        return POMP_PROFILE_SKIPPED;
    old->begins--;
    if (old->visits == 0 && old->begins == 0 && !old->first_child && parent->first_child == old) {
        struct pomp_node *next = old->next_sibling;
        if (give_back(p, old)) {
            parent->first_child = next;
            /* no pointer to the node given back, whose place the next new
             * node takes (under any parent) */
            if (parent->last_hit == old)
                parent->last_hit = NULL;
            for (struct pomp_node *s = parent->first_child; s; s = s->next_sibling)
                if (s->next_hit == old)
                    s->next_hit = NULL;
        }
    }
    f->node = child_of(p, parent, r);
    f->node->begins++;
    publish(p, frame_published(p, f));
    return POMP_PROFILE_ADOPTED;
}

void pomp_profile_mark_fork(struct pomp_profile *p, const struct pomp_node *fork)
{
    if (p->depth > 1 && !p->too_deep && p->frames[p->depth - 1].node == fork)
        p->frames[p->depth - 1].forked = 1;
}

void pomp_profile_mark_adoptable(struct pomp_profile *p)
{
    if (p->depth > 1 && !p->too_deep)
        p->frames[p->depth - 1].adopt = 1;
}

/* When the OpenMP runtime started (its call of ompt_start_tool; 0 before),
 * once per run: a task creation that began before it (the program's first
 * construct, an orphaned task) waited for nothing, no task existed before
 * it; its time to the task's begin is the runtime's start (libgomp's bridge
 * starting the tool, 0.06 ms, read as a dependence wait), which stays the
 * creation's own time, as a parallel region's first fork holds it. */
static uint64_t runtime_started_at;

void pomp_profile_runtime_started(uint64_t now)
{
    uint64_t none = 0;
    __atomic_compare_exchange_n(&runtime_started_at, &none, now, 0, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
}

/* The execution of task region r begins inside its own creation, open on top
 * (a leaf, or a frame): the task is undeferred (if(0), a final task's child, a runtime
 * that runs it at once), and a task with dependences waits for them before it
 * begins, on the creating thread. That wait, from the creation's start less
 * the tasks run meanwhile, is a child of the creation: a "wait" region named
 * dependences (in the wait table's taskwait column), which the creation's own
 * time leaves out (it read as creation time: 115 ms of a thread's pure wait
 * as work). It holds the runtime's handling of the dependences too, a few
 * microseconds where nothing is waited for. Once per creation. */
static uint64_t dependences_wait(struct pomp_profile *p, struct POMP_Region_s *w,
                                 struct pomp_node *creation, uint64_t now, uint64_t start,
                                 uint64_t ran_inside, uint64_t switched_then, int in_task)
{
    uint64_t wall = now - start;
    uint64_t ran = (in_task ? p->task_switched - switched_then : 0) + ran_inside;
    uint64_t waited = wall > ran ? wall - ran : 0;
    uint64_t started = __atomic_load_n(&runtime_started_at, __ATOMIC_RELAXED);
    if (started > start && started <= now)
        waited = 0;
    struct pomp_node *wait = child_of(p, creation, w);
    wait->visits++;
    count_execution(wait, waited, waited);
    count_overflow_inside(p, wait, waited);
    return waited;
}

/* ... where the creation is the leaf on top (no trace, no sampling). */
static __attribute__((noinline, cold)) void dependences_waited(struct pomp_profile *p,
                                                              struct POMP_Region_s *r, uint64_t now)
{
    struct pomp_leaf *l = &p->leaf;
    struct pomp_frame *top = &p->frames[p->depth - 1];
    if (l->dependences_waited || now == POMP_UNTIMED || now <= l->start || top->skipped ||
        top->untimed)
        return;
    struct POMP_Region_s *w = pomp_region_dependences_wait(r);
    if (!w)
        return;
    l->dependences_waited = 1;
    /* (task roots run meanwhile: the top frame's children since the leaf opened) */
    l->waited = dependences_wait(p, w, child_of(p, top->node, r), now, l->start,
                                 top->child - l->child, l->switched, l->in_task);
}

/* ... where the creation is a frame, on top (a trace or sampling: each event
 * recorded): the wait counts as one of its children, so that the creation's
 * own time leaves it out. */
static __attribute__((noinline, cold)) void frame_dependences_waited(struct pomp_profile *p,
                                                                    struct POMP_Region_s *r,
                                                                    uint64_t now)
{
    struct pomp_frame *top = &p->frames[p->depth - 1];
    if (top->dependences_waited || now == POMP_UNTIMED || now <= top->start || top->skipped ||
        top->untimed)
        return;
    struct POMP_Region_s *w = pomp_region_dependences_wait(r);
    if (!w)
        return;
    top->dependences_waited = 1;
    top->child += dependences_wait(p, w, top->node, now, top->start, top->child, top->switched,
                                   top->in_task);
}

int32_t pomp_profile_begin(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now, int off,
                           struct POMP_Region_s **adopted_from)
{
    pomp_profile_claim_inline_task(p, now);
    struct pomp_frame *top = &p->frames[p->depth - 1];
    if (__builtin_expect(top->adopt, 0) && p->too_deep == 0 && top->region != r &&
        pomp_region_same_construct(top->region, r))
        return adopt(p, top, r, adopted_from);
    if (p->too_deep == 0 && top->region == r && top->entered && !top->in_body && !r->task_root) {
        /* the block of a construct already open: part of its pair, even while off
         * (a task run at once inside its creation is a task root as any other,
         * so that a recursion of undeferred tasks folds as deferred ones do) */
        top->in_body = 1;
        top->body_start = now;
        if (top->skipped)
            return POMP_PROFILE_SKIPPED;
        if (!top->team) /* a team share counted its begin when the runtime opened it */
            top->node->begins++;
        p->counted = top->node;
        return POMP_SUCCESS;
    }
    /* a task's execution: a tree of its own (task root) */
    if (__builtin_expect(r->has_depend, 0) && !off) {
        if (p->leaf.region == r && p->leaf.depth == p->depth)
            dependences_waited(p, r, now);
        else if (p->depth > 1 && p->frames[p->depth - 1].region == r &&
                 p->frames[p->depth - 1].entered && !p->frames[p->depth - 1].in_body)
            frame_dependences_waited(p, r, now);
    }
    push_node(p, r, now, 0, COUNT_BEGIN, off, r->task_root ? PUSH_TASK_ROOT : PUSH_CHILD, NULL);
    return p->too_deep ? POMP_ERR_DEPTH : off ? POMP_PROFILE_SKIPPED : POMP_SUCCESS;
}

int32_t pomp_profile_resume(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now, int off)
{
    pomp_profile_claim_inline_task(p, now);
    push_node(p, r, now, 0, COUNT_NOTHING, off, PUSH_TASK_ROOT, NULL);
    return p->too_deep ? POMP_ERR_DEPTH : off ? POMP_PROFILE_SKIPPED : POMP_SUCCESS;
}

void pomp_profile_inline_task_open(struct pomp_profile *p, uint64_t now)
{
    const void *root = *p->top_slot;
    struct pomp_node *n = (struct pomp_node *)((uintptr_t)root & ~(uintptr_t)3);
    /* a task root's value, as fast_site_under gave it; anything else is not
     * the inserted code's: the slot is libpomp's again */
    if (((uintptr_t)root & 3) != 1 || !n->task_root || !n->region) {
        publish(p, p->published);
        return;
    }
    uint32_t deep = p->too_deep;
    push_node(p, n->region, now == POMP_UNTIMED ? pomp_now() : now, 0, COUNT_NOTHING, 0,
              PUSH_TASK_NODE, n);
    if (p->too_deep != deep) {
        /* no frame deeper (counted in deep_events, with a close that will not
         * come): what the body opens counts where it runs, as before */
        p->too_deep = deep;
        p->deep_events--;
        publish(p, p->published);
        return;
    }
    struct pomp_frame *f = &p->frames[p->depth - 1];
    f->helper = 1;      /* time, and no execution: the inserted code counted it */
    f->inline_task = 1;
    publish(p, frame_published(p, f));
}

void pomp_profile_inline_task_end(struct pomp_profile *p, uint64_t now)
{
    if (p->depth > 1 && !p->too_deep && p->frames[p->depth - 1].inline_task &&
        *p->top_slot == p->published)
        pop(p, now);
}

/* open_frame_of where r is most often on top already (an end or exit that pairs). */
static inline struct pomp_frame *closing_frame_of(struct pomp_profile *p, struct POMP_Region_s *r,
                                                  uint64_t now)
{
    struct pomp_frame *top = &p->frames[p->depth - 1];
    if (__builtin_expect(p->depth > 1 && top->region == r, 1))
        return top;
    return open_frame_of(p, r, now);
}

/* An end or exit of r that closes nothing open: counted, and the first one's
 * region kept, so that the warning can say where (a user region begun before
 * a parallel region and ended in its block). */
static __attribute__((cold)) void unmatched(struct pomp_profile *p, const struct POMP_Region_s *r)
{
    p->nesting_errors++;
    if (!p->first_unmatched)
        p->first_unmatched = r;
}

int32_t pomp_profile_end(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now)
{
    if (closing_unrecorded(p))
        return POMP_SUCCESS;
    struct pomp_frame *top = closing_frame_of(p, r, now);
    if (__builtin_expect(top == NULL || !top->in_body, 0)) {
        unmatched(p, r);
        return POMP_ERR_NESTING;
    }
    top->in_body = 0;
    top->body_end = now;
    if (top->skipped)
        return top->entered ? POMP_PROFILE_SKIPPED : pop(p, now);
    p->counted = top->node;
    count_block(p, top, now);
    return top->entered ? POMP_SUCCESS : pop(p, now);
}

void pomp_profile_extend_block(struct pomp_profile *p, const struct POMP_Region_s *r,
                               uint64_t start, uint64_t now)
{
    struct pomp_frame *top = &p->frames[p->depth - 1];
    if (p->depth < 2 || top->region != r || !top->entered || top->in_body || !top->body_end ||
        top->body_end == POMP_UNTIMED || now == POMP_UNTIMED)
        return;
    int counted = !top->skipped && !top->untimed && top->body_start != POMP_UNTIMED;
    if (now > top->body_end) {
        if (counted)
            top->node->body += now - top->body_end;
        top->body_end = now;
    }
    if (counted && start && start != POMP_UNTIMED && start < top->body_start) {
        top->node->body += top->body_start - start;
        top->body_start = start;
    }
}

int32_t pomp_profile_exit(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now)
{
    if (closing_unrecorded(p))
        return POMP_SUCCESS;
    struct pomp_frame *top = closing_frame_of(p, r, now);
    if (__builtin_expect(top == NULL || !top->entered, 0)) {
        unmatched(p, r);
        return POMP_ERR_NESTING;
    }
    if (top->in_body) { /* exit without end: close the block too */
        p->nesting_errors++;
        count_block(p, top, now);
    }
    /* the exit counted on the frame's node (not the node of a task that ran
     * inside it: a site's counter registers on the node its exit counted on) */
    if (!top->skipped)
        p->counted = top->node;
    return pop(p, now);
}

void pomp_profile_uncount_begin(struct pomp_profile *p, const struct POMP_Region_s *r)
{
    struct pomp_frame *f = &p->frames[p->depth - 1];
    if (p->too_deep || p->depth < 2 || f->region != r || !f->task || f->skipped || f->helper ||
        !f->node->begins)
        return;
    f->node->begins--;
    f->node->helpers++;
    f->helper = 1;
}

int32_t pomp_profile_event(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now, int off,
                           int part)
{
    if (off)
        return POMP_PROFILE_SKIPPED;
    pomp_profile_claim_inline_task(p, now);
    if (__builtin_expect(p->leaf.depth == p->depth, 0))
        leaf_to_frame(p); /* an event inside a wait, in no task the profile saw: in it */
    struct pomp_frame *top = &p->frames[p->depth - 1];
    if (p->too_deep == 0 && top->region == r) {
        if (top->skipped)
            return POMP_PROFILE_SKIPPED;
        top->node->begins++;
        p->counted = top->node;
        return POMP_SUCCESS;
    }
    if (p->too_deep) {
        p->deep_events++;
        return POMP_ERR_DEPTH;
    }
    struct pomp_node *n = child_of(p, top->node, r);
    p->counted = n;
    if (part) { /* an iteration of a taskloop in its task: a begin, as POMP_Loop_iter_begin
                   counts it there (each read as an execution of the taskloop: 101 for 1) */
        n->begins++;
        return POMP_SUCCESS;
    }
    n->visits++;
    if (n->min == UINT64_MAX)
        n->min = 0;
    if (now == POMP_UNTIMED) /* throttled: counted, not timed */
        n->untimed++;
    else /* an event takes no time: past the threshold it is throttled */
        maybe_throttle(p, n, r, now);
    return POMP_SUCCESS;
}

int32_t pomp_profile_leaf_close(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now)
{
    if (!p->leaf.region && !p->too_deep) { /* made a frame? (leaf_to_frame) */
        uint32_t d = p->depth;
        while (d > 1 && p->frames[d - 1].region != r)
            d--;
        if (d > 1 && p->frames[d - 1].from_leaf)
            return pomp_profile_exit(p, r, now);
    }
    if (!p->leaf.region || p->too_deep) {
        p->nesting_errors++;
        return POMP_ERR_NESTING;
    }
    while (p->depth > p->leaf.depth) {
        p->nesting_errors++;
        pop(p, now);
    }
    struct pomp_leaf l = p->leaf;
    leaf_drop(p);
    struct pomp_frame *top = &p->frames[p->depth - 1];
    struct pomp_node *n = child_of(p, top->node, r);
    if (__builtin_expect(top->node == &p->overflow, 0)) {
        /* a wait inside a frame on the overflow node (a path that did not
         * fit): that frame holds its time, as it holds a frame's opened on
         * the overflow node inside it (pop); counted twice, the node's time
         * read 2.1 s on a thread in a run of 1.4 s */
        n->visits++;
        p->counted = n;
        return POMP_SUCCESS;
    }
    if (now != POMP_UNTIMED)
        p->last_closed = now;
    uint64_t wall = now > l.start ? now - l.start : 0;
    /* inside a task, the tasks run meanwhile are a task switch (pop) */
    uint64_t switched = l.in_task ? p->task_switched - l.switched : 0;
    uint64_t incl = wall > switched ? wall - switched : 0;
    /* what the top frame's children took meanwhile: outside tasks, the task
     * roots' time run inside the wait, which its own time leaves out */
    uint64_t inside = top->child - l.child;
    if (inside > incl) /* a worker's wait ends at its master's clock */
        inside = incl;
    uint64_t waited = l.waited < incl - inside ? l.waited : incl - inside;
    n->visits++;
    count_execution(n, incl, incl - inside - waited);
    if (__builtin_expect(l.under_task, 0)) {
        enum overlap o = open_outside_tasks(p, r, n);
        if (o == OVERLAP_SAME)
            n->overlap += incl;
        else if (o == OVERLAP_TWIN)
            n->twin_overlap += incl;
    }
    count_overflow_inside(p, n, incl);
    top->child += incl - inside;
    p->counted = n;
    maybe_throttle(p, n, r, now);
    return POMP_SUCCESS;
}

void pomp_profile_close_open(struct pomp_profile *p, uint64_t end)
{
    p->open_at_end += p->too_deep;
    p->too_deep = 0;
    while (p->depth > 1) {
        if (p->leaf.region && p->leaf.depth == p->depth) { /* a wait or creation on top */
            p->open_at_end++;
            if (!p->first_open)
                p->first_open = p->leaf.region;
            pomp_profile_leaf_close(p, p->leaf.region, end > p->leaf.start ? end : p->leaf.start);
            continue;
        }
        struct pomp_frame *f = &p->frames[p->depth - 1];
        if (!f->skipped) {
            p->open_at_end++;
            if (!p->first_open)
                p->first_open = f->region;
        }
        if (f->in_body)
            count_block(p, f, end);
        pop(p, end > f->start ? end : f->start);
    }
    /* a wait open outside every region (a league worker's teams barrier
     * whose end the runtime reports later) was lost without a word */
    if (p->leaf.region && p->leaf.depth == p->depth) {
        p->open_at_end++;
        if (!p->first_open)
            p->first_open = p->leaf.region;
        pomp_profile_leaf_close(p, p->leaf.region, end > p->leaf.start ? end : p->leaf.start);
    }
}

int32_t pomp_profile_team_begin(struct pomp_profile *p, struct POMP_Region_s *r,
                                const struct pomp_node *fork, uint64_t now, int off)
{
    /* closed only by an exit, like an entered frame, but counted as a begin */
    pomp_profile_claim_inline_task(p, now);
    push_node(p, r, now, 1, COUNT_BEGIN, off, PUSH_TEAM_SHARE, fork);
    if (p->too_deep)
        return POMP_ERR_DEPTH;
    p->frames[p->depth - 1].team = 1;
    return off ? POMP_PROFILE_SKIPPED : POMP_SUCCESS;
}
