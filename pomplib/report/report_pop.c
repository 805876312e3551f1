/* The POP efficiency metrics of the run and of each parallel region, and the
 * load balance of every call path, from the profile alone (docs/output.md,
 * "Efficiency"). Useful time (work) of a thread in a region is its time in
 * its share less the waits below it (rp_entry_wait: barrier, taskwait, lock,
 * critical and ordered waits, counted once); the tasks it ran inside a wait
 * are work, and the waits inside those tasks are waits: a task's executions
 * are a tree of their own (a task root), so a task root's waits count for
 * the region its tasks were created in, where the team ran them, and the
 * nodes there that ran them (task_waits_in_nodes). A thread's share is its inclusive time,
 * except for the thread that forked the region: its enter..exit also holds
 * the fork (the enter to its block's begin) and the join (after its closing
 * barrier), which are fork/join management, not work (fork_join below).
 *
 * With u_t the useful time of thread t, E the elapsed time and c the thread
 * with the most useful time, whose time in the region is in_c:
 *   parallel efficiency   PE  = mean(u) / E
 *   load balance          LB  = mean(u) / max(u)
 *   synchronisation       SyE = u_c / in_c      (the critical thread's time not waiting)
 *   fork/join management  FJE = in_c / E        (the critical thread's time inside its share)
 * so that PE = LB x SyE x FJE, each at most 1, as POP's factors multiply. */
#include "report_pop.h"
#include "pomp_region_type.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static double num(json_t *o, const char *key) { return json_number_value(json_object_get(o, key)); }

static long long thread_of(json_t *entry) { return json_integer_value(json_object_get(entry, "thread")); }

/* The wait of one entry: the runtime's per-thread figures where the profile
 * has them, else what its region stands for. */
static double entry_wait(const struct rp_profile *p, const struct rp_node *n, json_t *entry)
{
    json_t *w = json_object_get(entry, "waits");
    if (json_is_object(w)) {
        double sum = 0;
        for (int k = 0; k < WAIT_COUNT; k++)
            sum += num(w, wait_names[k]);
        return sum;
    }
    enum wait_kind kind;
    (void)p;
    return rp_entry_wait(n, entry, n->wait_children, &kind);
}

typedef double entry_value_fn(const struct rp_profile *, const struct rp_node *, json_t *);

/* Per node and thread (row-major, nnodes x nthreads): value(entry) of each
 * thread's entry, 0 where a thread has none. */
static double *entry_values(const struct rp_profile *p, entry_value_fn *value)
{
    size_t nt = p->nthreads;
    double *v = calloc(p->nnodes * nt + 1, sizeof *v);
    for (size_t i = 0; v && i < p->nnodes; i++) {
        size_t k;
        json_t *t;
        json_array_foreach(p->nodes[i].per_thread, k, t) {
            long long th = thread_of(t);
            if (th >= 0 && (size_t)th < nt)
                v[i * nt + (size_t)th] = value(p, &p->nodes[i], t);
        }
    }
    return v;
}

/* The same, summed over each node's subtree. */
static double *subtree_sums(const struct rp_profile *p, entry_value_fn *value)
{
    size_t nt = p->nthreads;
    double *sum = entry_values(p, value);
    /* children come after their parents: add each subtree to its parent, deepest first */
    for (size_t i = p->nnodes; sum && i-- > 0;) {
        size_t parent = p->nodes[i].parent_index;
        if (parent != NO_PARENT)
            for (size_t th = 0; th < nt; th++)
                sum[parent * nt + th] += sum[i * nt + th];
    }
    return sum;
}

/* Per node and thread: the waits of the node's subtree. */
static double *subtree_waits(const struct rp_profile *p)
{
    return subtree_sums(p, entry_wait);
}

static double entry_own_time(const struct rp_profile *p, const struct rp_node *n, json_t *entry)
{
    (void)p;
    (void)n;
    return num(entry, "excl_ns");
}

/* One for each entry: a subtree's sum of these counts its entries. */
static double entry_one(const struct rp_profile *p, const struct rp_node *n, json_t *entry)
{
    (void)p;
    (void)n;
    (void)entry;
    return 1;
}

static double entry_time(const struct rp_profile *p, const struct rp_node *n, json_t *entry)
{
    (void)p;
    (void)n;
    return num(entry, "incl_ns");
}

static int is_parallel(const struct rp_node *n)
{
    return n->region && strcmp(n->region->type, "parallel") == 0;
}

/* Whether the node's blocks were recorded (a begin), the forking thread's
 * among them: at a Parallel level of EnterExit a parallel region has its
 * master's enter..exit only, and no worker's share, so its metrics would
 * describe one thread; at a compile-time level of EnterExit (#pragma pomp
 * inst parallel EnterExit) the runtime gives the workers' shares but the
 * master's enter..exit holds its block with the fork and join, which read
 * 100 % fork/join efficiency where the default build reads 27-50 % (a probe). */
static int has_blocks(const struct rp_node *n)
{
    size_t k;
    json_t *t;
    int any = 0;
    json_array_foreach(n->per_thread, k, t) {
        if (num(t, "visits") > 0 && num(t, "begins") <= 0)
            return 0;
        any |= num(t, "begins") > 0;
    }
    return any;
}

static int is_closing_barrier(const struct rp_node *n)
{
    return n->region && strcmp(n->region->type, "implicit_barrier") == 0 &&
           strcmp(n->region->name, "parallel") == 0;
}

/* The master's enter..exit of a parallel region less its block (fork_join). */
static double master_outside_block(const struct rp_profile *p, const struct rp_node *n,
                                   json_t *entry)
{
    (void)p;
    if (!is_parallel(n) || num(entry, "visits") <= 0 || num(entry, "begins") <= 0 ||
        num(entry, "body_ns") <= 0)
        return 0;
    return num(entry, "incl_ns") - num(entry, "body_ns");
}

static double closing_barrier_time(const struct rp_profile *p, const struct rp_node *n,
                                   json_t *entry)
{
    (void)p;
    return is_closing_barrier(n) ? num(entry, "incl_ns") : 0;
}

/* Per node and thread (row-major, nnodes x nthreads): the fork and join time of
 * the thread that forked a parallel region. Its enter..exit (incl_ns) holds its
 * block (body_ns, begin to end) and, after the block, the region's closing
 * barrier (the child implicit_barrier "parallel"); the rest is the fork (the
 * enter to the block's begin: starting or waking the team, and whatever the
 * master does before its block, a firstprivate copy) and the join. 0
 * elsewhere, and where the block was not measured (no begin: a Parallel
 * level of EnterExit). */
static double *fork_join(const struct rp_profile *p)
{
    size_t nt = p->nthreads;
    double *fj = entry_values(p, master_outside_block);
    double *barrier = entry_values(p, closing_barrier_time);
    if (!fj || !barrier) {
        free(fj), free(barrier);
        return NULL;
    }
    for (size_t i = 0; i < p->nnodes; i++) {
        size_t parent = p->nodes[i].parent_index;
        if (parent != NO_PARENT && is_parallel(&p->nodes[parent]))
            for (size_t th = 0; th < nt; th++)
                if (fj[parent * nt + th] > 0)
                    fj[parent * nt + th] -= barrier[i * nt + th];
    }
    for (size_t i = 0; i < p->nnodes * nt; i++)
        if (fj[i] < 0)
            fj[i] = 0;
    free(barrier);
    return fj;
}

/* The parallel node whose team runs a task root's executions: the root's
 * binding where the profile has one (the runtime reported the team). Else
 * inferred: a task runs in the region its creation is in, so the nearest
 * parallel node above every
 * node where its construct was encountered (through the task root that
 * encloses a creation made inside another task; one made inside the
 * executions of a construct it is being resolved through already tells
 * nothing more: a recursion, of the construct into itself or through others,
 * as fib's two task constructs create each other's tasks). NO_PARENT when
 * that is not one node: the construct encountered in several regions or call
 * paths, outside any, or only by code the profile does not show. within: the
 * regions being resolved, depth of them. */
enum { BINDING_DEPTH = 8 };

static size_t binding_parallel(const struct rp_profile *p, size_t root,
                               const struct rp_region **within, int depth)
{
    const struct rp_region *r = p->nodes[root].region;
    size_t found = NO_PARENT, bound = p->nodes[root].binding;
    if (bound != NO_PARENT && is_parallel(&p->nodes[bound]))
        return bound; /* the profile says which team ran its tasks */
    if (!r || depth >= BINDING_DEPTH)
        return NO_PARENT;
    within[depth] = r;
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_node *n = &p->nodes[i];
        if (n->task_root || n->region != r)
            continue;
        size_t a = n->parent_index;
        while (a != NO_PARENT && !is_parallel(&p->nodes[a]) && !p->nodes[a].task_root)
            a = p->nodes[a].parent_index;
        if (a != NO_PARENT && p->nodes[a].task_root) {
            int recursion = 0;
            for (int k = 0; k <= depth && !recursion; k++)
                recursion = p->nodes[a].region == within[k];
            if (recursion)
                continue; /* created inside executions it is resolved through */
            a = binding_parallel(p, a, within, depth + 1);
        }
        if (a == NO_PARENT || (found != NO_PARENT && found != a))
            return NO_PARENT;
        found = a;
    }
    return found;
}

static int is_below(const struct rp_profile *p, size_t node, size_t ancestor)
{
    for (size_t a = node; a != NO_PARENT; a = p->nodes[a].parent_index)
        if (a == ancestor)
            return 1;
    return 0;
}

/* The waits of each node and thread, its subtree's (sub) plus its part of the
 * waits inside the tasks the thread ran (task roots are trees of their own, so
 * no subtree holds them). A task root's waits go to its binding parallel node
 * and the nodes below it where the thread ran tasks, in proportion to the
 * task time each holds (its inclusive time less the own times of its
 * subtree): a program with tasks in two regions once had one region's lock
 * waits counted a third in the other's. A root whose region is not one node
 * joins the thread's other such roots, shared among all its nodes so, and
 * shared[] marks the nodes that got a part of those (a region that never
 * waited can: said in the report). NULL when out of memory. */
static double *task_waits_in_nodes(const struct rp_profile *p, const double *sub,
                                   unsigned char *shared)
{
    size_t nt = p->nthreads;
    double *own = subtree_sums(p, entry_own_time), *incl = entry_values(p, entry_time);
    double *entries = subtree_sums(p, entry_one);
    double *task_time = calloc(nt + 1, sizeof *task_time), *task_wait = calloc(nt + 1, sizeof *task_wait);
    double *w = malloc((p->nnodes * nt + 1) * sizeof *w);
    if (!own || !incl || !entries || !task_time || !task_wait || !w) {
        free(own), free(incl), free(entries), free(task_time), free(task_wait), free(w);
        return NULL;
    }
    memcpy(w, sub, p->nnodes * nt * sizeof *w);
    /* The task time below node j on thread th: its inclusive time less its
     * subtree's own times, none when that is within their rounding (the
     * profile's times are whole ns, one rounding per entry): 1 ns of it gave
     * a region without tasks a share of others' task waits. Written over
     * the own times, which nothing needs after it. */
    double *tasks = own;
    for (size_t i = 0; i < p->nnodes * nt; i++) {
        double below = incl[i] - own[i];
        tasks[i] = below > entries[i] ? below : 0;
    }
#define TASKS_HERE(j, th) (tasks[(j) * nt + (th)])
    for (size_t i = 0; i < p->nnodes; i++) {
        if (!p->nodes[i].task_root)
            continue;
        const struct rp_region *within[BINDING_DEPTH];
        size_t bind = binding_parallel(p, i, within, 0);
        for (size_t th = 0; th < nt; th++) {
            double wait = sub[i * nt + th], there = bind != NO_PARENT ? TASKS_HERE(bind, th) : 0;
            if (wait <= 0)
                continue;
            if (there <= 0) { /* no region to give it to: the thread's pool */
                task_time[th] += incl[i * nt + th];
                task_wait[th] += wait;
                continue;
            }
#define TASK_SHARE(j) (wait * (TASKS_HERE(j, th) < there ? TASKS_HERE(j, th) / there : 1))
            for (size_t j = bind; j < p->nnodes; j++) /* children come after their parents */
                if (TASKS_HERE(j, th) > 0 && is_below(p, j, bind))
                    w[j * nt + th] += TASK_SHARE(j);
            /* and the regions around it, whose time holds it too (a nested
             * region's tasks' waits were left out of the outer region's) */
            for (size_t a = p->nodes[bind].parent_index; a != NO_PARENT && !p->nodes[a].task_root;
                 a = p->nodes[a].parent_index)
                if (TASKS_HERE(a, th) > 0)
                    w[a * nt + th] += TASK_SHARE(a);
#undef TASK_SHARE
        }
    }
    for (size_t i = 0; i < p->nnodes; i++)
        for (size_t th = 0; th < nt; th++) {
            double tasks_here = TASKS_HERE(i, th);
            if (task_wait[th] > 0 && task_time[th] > 0 && tasks_here > 0) {
                w[i * nt + th] +=
                    task_wait[th] * (tasks_here < task_time[th] ? tasks_here / task_time[th] : 1);
                shared[i] = 1;
            }
        }
#undef TASKS_HERE
    free(own), free(incl), free(entries), free(task_time), free(task_wait);
    return w;
}

/* Device streams are columns of the profile, not threads that work or wait. */
static unsigned char *stream_columns(const struct rp_profile *p)
{
    unsigned char *stream = calloc(p->nthreads + 1, 1);
    json_t *threads = json_object_get(p->root, "threads");
    for (size_t th = 0; stream && th < p->nthreads; th++)
        stream[th] = json_is_integer(json_object_get(json_array_get(threads, th), "device"));
    return stream;
}

/* The metrics from each thread's time in the region (in) and useful time (u).
 * The mean useful time is over members: each thread is one, or the part of
 * one that its weight says (NULL: 1 each; node_threads). */
static void metrics(struct rp_pop *m, const double *in, const double *u, const double *weight,
                    size_t n, double elapsed)
{
    double sum = 0, max = 0, members = 0;
    size_t c = 0;
    for (size_t i = 0; i < n; i++) {
        sum += (weight ? weight[i] : 1) * u[i];
        members += weight ? weight[i] : 1;
        if (u[i] > max || i == 0) {
            max = u[i];
            c = i;
        }
    }
    m->threads = n;
    m->elapsed_ns = elapsed;
    m->useful_mean_ns = n && members > 0 ? sum / members : 0;
    m->useful_max_ns = max;
    m->parallel_eff = elapsed > 0 ? m->useful_mean_ns / elapsed : 0;
    m->load_balance = max > 0 ? m->useful_mean_ns / max : 1;
    m->sync_eff = n && in[c] > 0 ? u[c] / in[c] : 1;
    m->fork_join_eff = n && elapsed > 0 ? in[c] / elapsed : 1;
}

/* A node's threads (not streams): their time in their share of it, their
 * useful time, and the node's elapsed time (the longest inclusive time). In a
 * parallel region, a thread that was in fewer of its teams than the most (a
 * team that started fresh threads: libgomp's nested teams; a num_threads that
 * changed) has its times scaled to as many shares as that one: a thread that
 * was not in a team did no less work in it, and one that ran one share of
 * forty is compared with a member of all forty by what it did per share,
 * at most the region's time (before, 80 such threads rated an evenly loaded
 * region 3 %). Such threads weigh in the mean by their shares, as parts of a
 * member of all: a team member whose shares two thread records hold (a
 * fresh libgomp thread took a record of its own while the one before was still
 * ending) is one member, not two scaled to a whole each (an inner team of 10
 * and 30 ms read 79 % load balance for 67 %; a probe; and 40 fresh workers
 * of 30 ms a share beside a master of 10 ms read 98 %). A member is as many
 * shares as the master of the most forked (the thread in the most where no
 * master was recorded): a record that holds more (a pooled libomp worker that
 * went from one master's inner team to another's, fresh libgomp threads
 * handing one record on) is more than one member, its times scaled down the
 * same way. Scaled up to its own count instead, the masters' shares were a
 * part of one, and a record of the longer teams' shares was cut to the
 * region's time, counted on the masters' mean team: inner teams of 15/25 and
 * 35/45 ms a share read 80 % load balance for 67 % (a probe). On return,
 * shares holds each thread's weight in the mean (its part of a member, or
 * more). Tasks and loops keep their times: a thread that ran fewer of them
 * worked less. */
static size_t node_threads(const struct rp_profile *p, size_t i, const double *waits,
                           const double *fj, const unsigned char *stream, double *in, double *u,
                           double *shares, double *elapsed)
{
    size_t n = 0, k;
    json_t *t;
    double most = 0, most_forked = 0, forks = 0, forked_incl = 0;
    *elapsed = 0;
    json_array_foreach(p->nodes[i].per_thread, k, t) {
        long long th = thread_of(t);
        if (th < 0 || (size_t)th >= p->nthreads || stream[th])
            continue;
        double incl = num(t, "incl_ns");
        *elapsed = incl > *elapsed ? incl : *elapsed;
        if (num(t, "visits") > 0) { /* a master: its time in a team is that team's */
            forks += num(t, "visits");
            forked_incl += incl;
        }
        in[n] = incl - fj[i * p->nthreads + (size_t)th];
        u[n] = in[n] - waits[i * p->nthreads + (size_t)th];
        if (u[n] < 0)
            u[n] = 0;
        shares[n] = rp_executions(num(t, "visits"), num(t, "begins"));
        most = shares[n] > most ? shares[n] : most;
        if (num(t, "visits") > 0 && shares[n] > most_forked)
            most_forked = shares[n];
        n++;
    }
    if (most_forked > 0) /* a member: the shares of the master of the most */
        most = most_forked;
    int scaled = is_parallel(&p->nodes[i]);
    /* the time of as many teams as a member: a master's per team, times
     * that many; where the thread in the most was shorter (a pooled
     * libomp worker in every inner team of two outer threads, late into
     * each), the masters' shares were cut to its time, and the load balance
     * read 98 % for 82 % (a probe) */
    if (scaled && forks > 0 && forked_incl / forks * most > *elapsed)
        *elapsed = forked_incl / forks * most;
    for (k = 0; k < n; k++) {
        double weight = scaled && shares[k] > 0 ? shares[k] / most : 1;
        if (weight != 1) {                 /* within the region's time: a share */
            in[k] *= most / shares[k];     /* longer than the average one says no */
            u[k] *= most / shares[k];      /* more than that */
            in[k] = in[k] < *elapsed ? in[k] : *elapsed;
            u[k] = u[k] < in[k] ? u[k] : in[k];
        }
        shares[k] = weight;
    }
    return n;
}

static int has_entry(const struct rp_node *n, long long thread)
{
    size_t k;
    json_t *t;
    json_array_foreach(n->per_thread, k, t)
        if (thread_of(t) == thread)
            return 1;
    return 0;
}

static int by_thread(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Each node's threads, sorted (node i's at at[i]..at[i + 1]), so that whether
 * a thread has an entry in a node is a binary search: a scan of the parent's
 * entries for each entry made the run's figures quadratic in the threads (a
 * traced server's 40,000 OS threads, each a record: pomp-report ran for more
 * than 5 minutes). NULL where memory ran out (has_entry then). */
struct thread_index {
    size_t *at;
    long long *thread;
};

static int thread_index_make(const struct rp_profile *p, struct thread_index *nt)
{
    size_t total = 0;
    for (size_t i = 0; i < p->nnodes; i++)
        total += json_array_size(p->nodes[i].per_thread);
    nt->at = malloc((p->nnodes + 1) * sizeof *nt->at);
    nt->thread = malloc((total + 1) * sizeof *nt->thread);
    if (!nt->at || !nt->thread) {
        free(nt->at), free(nt->thread);
        nt->at = NULL, nt->thread = NULL;
        return 0;
    }
    size_t pos = 0;
    for (size_t i = 0; i < p->nnodes; i++) {
        size_t k;
        json_t *t;
        nt->at[i] = pos;
        json_array_foreach(p->nodes[i].per_thread, k, t)
            nt->thread[pos++] = thread_of(t);
        qsort(nt->thread + nt->at[i], pos - nt->at[i], sizeof *nt->thread, by_thread);
    }
    nt->at[p->nnodes] = pos;
    return 1;
}

static int node_has_thread(const struct rp_profile *p, const struct thread_index *nt, size_t i,
                           long long thread)
{
    if (!nt->at)
        return has_entry(&p->nodes[i], thread);
    return bsearch(&thread, nt->thread + nt->at[i], nt->at[i + 1] - nt->at[i],
                   sizeof *nt->thread, by_thread) != NULL;
}

static int by_elapsed_desc(const void *a, const void *b)
{
    const struct rp_pop *x = a, *y = b;
    return (x->elapsed_ns < y->elapsed_ns) - (x->elapsed_ns > y->elapsed_ns);
}

/* A span of time in the run (ns from its start). */
struct rp_life {
    double start, end;
};

/* The lives of the threads: thread i's are lives[first[i]..first[i+1]), in
 * time order: each OS thread's where its record stood for several one after
 * another (os_thread_lives), else the record's start_ns to its last_event_ns
 * or end_ns. Returns 0, or -1 where a thread has none (an older profile). */
static int thread_lives(const struct rp_profile *p, const size_t *col, size_t n,
                        struct rp_life **lives, size_t *first)
{
    json_t *threads = json_object_get(p->root, "threads");
    size_t count = 0, cap = 0;
    *lives = NULL;
    for (size_t i = 0; i < n; i++) {
        json_t *t = json_array_get(threads, col[i]);
        json_t *s = json_object_get(t, "start_ns"), *e = json_object_get(t, "end_ns");
        json_t *last = json_object_get(t, "last_event_ns"), *os = json_object_get(t, "os_thread_lives");
        if (!json_is_number(s) || !json_is_number(e))
            return -1;
        int initial = col[i] == p->initial_thread;
        int apart = !initial && json_array_size(os) > 0;
        size_t add = apart ? json_array_size(os) : 1;
        if (count + add > cap) {
            cap = 2 * (count + add);
            struct rp_life *grown = realloc(*lives, cap * sizeof *grown);
            if (!grown)
                return -1;
            *lives = grown;
        }
        first[i] = count;
        if (apart) {
            size_t k;
            json_t *l;
            json_array_foreach(os, k, l)
                (*lives)[count++] = (struct rp_life){json_number_value(json_array_get(l, 0)),
                                                     json_number_value(json_array_get(l, 1))};
            continue;
        }
        double start = initial ? 0 : json_number_value(s);
        double end = initial ? p->duration_ns : json_number_value(e);
        /* its work's end, where its OS thread ended later (a fresh worker
         * waiting for a CPU to exit overlapped the next team's: 6 places for
         * 4, a third off the run's parallel efficiency; a probe) */
        if (!initial && json_is_number(last) && json_number_value(last) < end)
            end = json_number_value(last);
        (*lives)[count++] = (struct rp_life){start, end};
    }
    first[n] = count;
    return 0;
}

/* The run's places: threads that never ran at once (their lives apart) share
 * one, their times added: libgomp starts fresh threads for each execution of
 * a nested team, and a server a thread per request, one after another (a
 * balanced nested program read 49 % load balance on libgomp, 97 % on libomp:
 * 8 threads for 4 places; a probe). A record that stood for several OS
 * threads one after another has their lives apart (os_thread_lives), each a
 * thread of its own here, with a share of the record's times as large as its
 * share of the record's lives (the profile has the record's figures only):
 * its whole span overlapped another such record's where the two alternated
 * (6 places for 4; a probe). Each life in turn, by its start, goes to a place
 * free by then (as few places as ever ran at once); the initial thread holds
 * the first for the whole run. Without the lives (an older profile), each
 * thread is a place. n: the threads (indexes in col); in and u are the
 * places' on return. */
static size_t run_places(const struct rp_profile *p, const size_t *col, size_t n, double *in,
                         double *u)
{
    struct rp_life *lives = NULL;
    size_t *first = calloc(n + 1, sizeof *first), places = n;
    int ok = first && thread_lives(p, col, n, &lives, first) == 0;
    size_t nl = ok ? first[n] : 0;
    size_t *order = calloc(nl + 1, sizeof *order), *owner = calloc(nl + 1, sizeof *owner);
    double *share = calloc(nl + 1, sizeof *share), *free_at = calloc(nl + 1, sizeof *free_at),
           *pin = calloc(nl + 1, sizeof *pin), *pu = calloc(nl + 1, sizeof *pu);
    ok = ok && order && owner && share && free_at && pin && pu;
    for (size_t i = 0; ok && i < n; i++) {
        double sum = 0;
        for (size_t k = first[i]; k < first[i + 1]; k++)
            sum += lives[k].end - lives[k].start;
        for (size_t k = first[i]; k < first[i + 1]; k++) {
            owner[k] = i;
            share[k] = sum > 0 ? (lives[k].end - lives[k].start) / sum
                               : 1.0 / (double)(first[i + 1] - first[i]);
        }
    }
    for (size_t k = 0; ok && k < nl; k++)
        order[k] = k;
    for (size_t i = 1; ok && i < nl; i++) /* by start (insertion: lives come nearly in order) */
        for (size_t k = i; k > 0 && lives[order[k]].start < lives[order[k - 1]].start; k--) {
            size_t x = order[k];
            order[k] = order[k - 1];
            order[k - 1] = x;
        }
    if (ok) {
        places = 0;
        for (size_t k = 0; k < nl; k++) {
            size_t l = order[k], q = 0;
            while (q < places && free_at[q] > lives[l].start)
                q++;
            if (q == places)
                places++;
            free_at[q] = lives[l].end;
            pin[q] += in[owner[l]] * share[l];
            pu[q] += u[owner[l]] * share[l];
        }
    }
    if (ok && places <= n) { /* (a record's lives overlapping each other: a damaged file) */
        memcpy(in, pin, places * sizeof *in);
        memcpy(u, pu, places * sizeof *u);
    } else {
        places = n;
    }
    free(lives), free(first), free(order), free(owner), free(share), free(free_at), free(pin),
        free(pu);
    return places;
}

/* The OS threads' waits for a CPU (the kernel's run delay, from each one's
 * first event to its end) beside their time in the run: more threads
 * runnable than CPUs free (oversubscription, another process, threads bound
 * to one CPU) reads as work or as waits in every figure here, which the run's
 * own timings share (a probe: 64 threads on 2 CPUs read as the program's
 * imbalance, nothing said why). Not known for an older profile, or a kernel
 * without scheduler statistics. */
static void cpu_waits(struct rp_profile *p, const unsigned char *stream)
{
    json_t *threads = json_object_get(p->root, "threads");
    p->cpu_wait_ns = -1;
    p->cpu_wait_life_ns = p->cpu_wait_unread = p->cpu_wait_unread_ns = 0;
    for (size_t th = 0; th < p->nthreads; th++) {
        json_t *t = json_array_get(threads, th);
        json_t *w = json_object_get(t, "cpu_wait_ns");
        if (stream[th] || !json_is_number(w))
            continue;
        double start = json_number_value(json_object_get(t, "start_ns")),
               end = json_number_value(json_object_get(t, "end_ns"));
        if (th == p->initial_thread)
            start = 0, end = p->duration_ns;
        /* OS threads one after another in one record, or some not read: the
         * lives it was read over */
        json_t *read_life = json_object_get(t, "cpu_wait_life_ns");
        p->cpu_wait_ns = (p->cpu_wait_ns < 0 ? 0 : p->cpu_wait_ns) + json_number_value(w);
        if (json_is_number(read_life) && th != p->initial_thread)
            p->cpu_wait_life_ns += json_number_value(read_life);
        else if (end > start)
            p->cpu_wait_life_ns += end - start;
        p->cpu_wait_unread += json_number_value(json_object_get(t, "cpu_wait_unread"));
        p->cpu_wait_unread_ns += json_number_value(json_object_get(t, "cpu_wait_unread_ns"));
    }
}

/* The whole run: the initial thread (p->initial_thread) is in the run from its
 * start to its end; another thread is in it while it is in its shares of parallel
 * regions (the nodes where it has figures and its parent has none). */
static void run_metrics(struct rp_profile *p, const double *sub, const double *fj,
                        const unsigned char *stream, double *in, double *u)
{
    size_t nt = p->nthreads, n = 0;
    memset(in, 0, nt * sizeof *in);
    double *wait = calloc(nt + 1, sizeof *wait), *managing = calloc(nt + 1, sizeof *managing);
    if (!wait || !managing) {
        free(wait), free(managing);
        return;
    }
    struct thread_index entries;
    thread_index_make(p, &entries);
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_node *node = &p->nodes[i];
        size_t k;
        json_t *t;
        json_array_foreach(node->per_thread, k, t) {
            long long th = thread_of(t);
            if (th < 0 || (size_t)th >= nt)
                continue;
            managing[th] += fj[i * nt + (size_t)th]; /* forks and joins: never work */
            if (node->parent_index != NO_PARENT &&
                node_has_thread(p, &entries, node->parent_index, th))
                continue; /* not one of the thread's roots */
            /* a task root's time is inside the share that ran it; its waits are
             * not; the overflow node's overlap is inside the frame it went off from */
            if (!node->task_root)
                in[th] += num(t, "incl_ns") - num(t, "overlap_ns");
            wait[th] += sub[i * nt + (size_t)th];
        }
    }
    size_t *col = calloc(nt + 1, sizeof *col);
    for (size_t th = 0; col && th < nt; th++) {
        if (stream[th])
            continue;
        double time = (th == p->initial_thread ? p->duration_ns : in[th]) - managing[th];
        in[n] = time > 0 ? time : 0;
        u[n] = time - wait[th] > 0 ? time - wait[th] : 0;
        col[n++] = th;
    }
    free(wait), free(managing);
    free(entries.at), free(entries.thread);
    if (col)
        n = run_places(p, col, n, in, u);
    free(col);
    metrics(&p->pop_run, in, u, NULL, n, p->duration_ns);
}

/* Whether node i lies below node top (NO_PARENT: any node does): on its call
 * path, or in the executions of a task root whose team was forked there. */
static int below(const struct rp_profile *p, size_t i, size_t top)
{
    if (top == NO_PARENT)
        return 1;
    for (size_t k = i; k != NO_PARENT; k = p->nodes[k].parent_index) {
        if (k == top)
            return 1;
        if (p->nodes[k].task_root && p->nodes[k].binding == top)
            return 1;
    }
    return 0;
}

/* A node with executions of wait regions (a critical's or ordered's time
 * outside its block, a lock's set call, the runtime's waits: rp_entry_wait's)
 * counted without time (POMP_THROTTLE), or of waits without a block
 * (rp_entry_blockless): found once (untimed_wait_nodes), summed per parallel
 * region (untimed_waits). */
struct untimed_node {
    size_t node;
    double executions, blockless;
    size_t anchor;      /* the path whose own time holds its untimed executions' time */
    double anchor_own;  /* that own time (rp_node_untimed_in), 0: none */
};

static int by_anchor(const void *a, const void *b)
{
    const struct untimed_node *x = a, *y = b;
    if (x->anchor != y->anchor)
        return (x->anchor > y->anchor) - (x->anchor < y->anchor);
    return (x->node > y->node) - (x->node < y->node);
}

/* The nodes that have such executions, into *out (to free); their number, or
 * (size_t)-1 when memory is short. */
static size_t untimed_wait_nodes(const struct rp_profile *p, struct untimed_node **out)
{
    size_t n = 0;
    *out = malloc((p->nnodes + 1) * sizeof **out);
    if (!*out)
        return (size_t)-1;
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_node *node = &p->nodes[i];
        size_t k;
        json_t *t;
        if (!node->region)
            continue;
        double executions = 0, blockless = 0;
        json_array_foreach(node->per_thread, k, t) {
            enum wait_kind kind = WAIT_COUNT;
            double untimed = num(t, "untimed");
            if (rp_entry_blockless(node->region, t))
                blockless += num(t, "visits") - untimed;
            if (untimed > 0) {
                /* a lock set call's wait node below (the runtime's) records
                 * nothing inside an untimed call (bridge_mutex.c): the call's
                 * own untimed executions hide the waits (a hot lock loop's
                 * 4.4 M read as 1) */
                unsigned children = node->wait_children;
                if (pomp_type_sets_lock(node->region->type))
                    children &= ~(1u << WAIT_LOCK);
                rp_entry_wait(node, t, children, &kind);
                if (kind != WAIT_COUNT)
                    executions += untimed;
            }
        }
        size_t anchor = NO_PARENT;
        double own = 0, u;
        if (executions != 0)
            rp_node_untimed_in(p, i, &anchor, NULL, &own, &u);
        if (executions != 0 || blockless != 0)
            (*out)[n++] = (struct untimed_node){i, executions, blockless, anchor, own};
    }
    /* by the path holding their time, then by node: each anchor's first node
     * below a region is the one whose anchor_own counts (untimed_waits) */
    qsort(*out, n, sizeof **out, by_anchor);
    return n;
}

/* The executions of untimed waits below node top (of the n nodes found by
 * untimed_wait_nodes): their waits are missing from u, where they read as
 * work. Each parallel region once scanned every node's threads (a profile of
 * 40,960 paths took 112 s to read; a probe); below() walks to the root, for
 * the few nodes that count only. */
static double untimed_waits(const struct rp_profile *p, size_t top, const struct untimed_node *v,
                            size_t n, double *blockless, double *own_ns)
{
    double executions = 0, counted_own = 0;
    size_t counted = NO_PARENT; /* the anchor whose own time is in *own_ns last, and that time */
    *blockless = *own_ns = 0;
    for (size_t j = 0; j < n; j++)
        if (below(p, v[j].node, top)) {
            executions += v[j].executions;
            *blockless += v[j].blockless;
            /* each enclosing path's own time once (a lock's set and unset),
             * the largest of its anchor's (rp_node_untimed_in: below a task
             * root, the root's and its creators'; directly in a creator, that
             * creator's alone): v is sorted by anchor, its nodes together (a
             * scan of the nodes before each made this quadratic in them) */
            if (v[j].anchor != NO_PARENT && v[j].anchor != counted) {
                *own_ns += v[j].anchor_own;
                counted = v[j].anchor;
                counted_own = v[j].anchor_own;
            } else if (v[j].anchor != NO_PARENT && v[j].anchor_own > counted_own) {
                *own_ns += v[j].anchor_own - counted_own;
                counted_own = v[j].anchor_own;
            }
        }
    return executions;
}

/* A region POMP_FILTER_* took out that the figures need: a wait, a task, a
 * parallel region (its team's shares), or NULL. */
static const struct rp_region *filtered_out_measure(const struct rp_profile *p)
{
    /* (not atomic: an event without time, but where a lock updates it, whose
     * wait then reads as work: a small error, against refusing the rating
     * under the filter environment.md gives as its example) */
    static const char *const needed[] = {"parallel", "task", "taskloop", "barrier",
                                         "implicit_barrier", "implicit barrier", "taskwait",
                                         "taskgroup", "critical", "ordered", "doacross",
                                         "wait", NULL};
    for (size_t i = 0; i < p->nregions; i++) {
        const struct rp_region *r = &p->regions[i];
        if (!r->type || !json_is_true(json_object_get(r->json, "filtered")) ||
            json_is_false(json_object_get(r->json, "ran"))) /* (a construct that never ran) */
            continue;
        if (pomp_type_sets_lock(r->type))
            return r;
        for (const char *const *n = needed; *n; n++)
            if (strcmp(r->type, *n) == 0)
                return r;
    }
    return NULL;
}

/* An instrumented task construct whose tasks were created (visits) but none
 * of them began: a compile-time "#pragma pomp inst task EnterExit" keeps the
 * creation and drops the execution's calls, which the runtime's events do
 * not measure either (its creation is instrumented), so the tasks' work read
 * as the wait of the barrier they ran in (0.0 % parallel efficiency for about
 * 90, unrated nowhere; a probe). NULL where none (a run with a cancel region
 * may have discarded every task of a construct: not said). */
static const struct rp_region *executions_unrecorded(const struct rp_profile *p)
{
    for (size_t i = 0; i < p->nregions; i++)
        if (p->regions[i].type && strcmp(p->regions[i].type, "cancel") == 0)
            return NULL;
    /* per region, its nodes' visits and begins (one pass over the nodes) */
    double *visits = calloc(p->nregions + 1, sizeof *visits),
           *begins = calloc(p->nregions + 1, sizeof *begins);
    const struct rp_region *found = NULL;
    for (size_t j = 0; visits && begins && j < p->nnodes; j++) {
        const struct rp_region *r = p->nodes[j].region;
        size_t k;
        json_t *t;
        if (!r || !r->type || strcmp(r->type, "task") != 0)
            continue;
        json_array_foreach(p->nodes[j].per_thread, k, t) {
            visits[r - p->regions] += num(t, "visits");
            begins[r - p->regions] += num(t, "begins");
        }
    }
    for (size_t i = 0; visits && begins && !found && i < p->nregions; i++) {
        const struct rp_region *r = &p->regions[i];
        if (r->file && *r->file && r->first_line > 0 && visits[i] > 0 && begins[i] == 0)
            found = r;
    }
    free(visits), free(begins);
    return found;
}

/* A construct whose tasks no event measures: a taskloop in the body of an
 * untied task without body events (its CTC says tasks=unmeasured). */
static int tasks_unmeasured(const struct rp_profile *p)
{
    for (size_t i = 0; i < p->nregions; i++) {
        const char *ctc = json_string_value(json_object_get(p->regions[i].json, "ctc"));
        if (ctc && strstr(ctc, "*tasks=unmeasured*"))
            return 1;
    }
    return 0;
}

/* The run's figures alone unrated, said why (pop_run_not_rated): a parallel
 * region without the team's shares (its workers' time there is missing, so
 * they would look idle), or measurement paused (POMP_Off: what ran then would
 * read as the initial thread's serial time; a probe's run read 63 % load
 * balance for 84 %). */
static void run_not_rated(struct rp_profile *p)
{
    p->pop_run_not_rated[0] = '\0';
    if (p->pop_without_shares)
        snprintf(p->pop_run_not_rated, sizeof p->pop_run_not_rated,
                 "parallel regions without the team's shares or the master's block "
                 "(POMP_PARALLEL=EnterExit, or inst parallel EnterExit at compile time)");
    else if (p->paused_times)
        snprintf(p->pop_run_not_rated, sizeof p->pop_run_not_rated,
                 "measurement was paused %zu time%s (POMP_Off), %.1f ms: that time would read as "
                 "serial",
                 p->paused_times, p->paused_times == 1 ? "" : "s", p->paused_ns / 1e6);
}

/* Whether a thread ran tasks where no recorded region was open (the
 * profile's threads[].unframed_tasks_ns): outside its shares of the parallel
 * regions, which the run's figures are made of. */
static int tasks_ran_unframed(const struct rp_profile *p)
{
    json_t *threads = json_object_get(p->root, "threads"), *t;
    size_t k;
    json_array_foreach(threads, k, t) {
        if (json_number_value(json_object_get(t, "unframed_tasks_ns")) > 0)
            return 1;
    }
    return 0;
}

/* A level that records what every figure needs leaves them all unrated, said
 * why (pop_not_rated): no wait at all (POMP_SYNC=none: a thread that waited
 * 40 of every 50 ms read 100 % synchronisation), or tasks created but no
 * execution recorded (POMP_TASK=EnterExit: the tasks run in a barrier or
 * taskwait read as its wait, parallel efficiency 0 %). Profiles without
 * "levels" (older ones) are rated as they are. */
static void not_rated(struct rp_profile *p)
{
    static const char *const tasks[] = {"task", "taskloop", NULL};
    const char *sync = p->level_sync, *task = p->level_task, *par = p->level_parallel;
    p->pop_not_rated[0] = '\0';
    if (p->pop_run.threads == 0) { /* a run that recorded no event (a trace asked for) */
        snprintf(p->pop_not_rated, sizeof p->pop_not_rated, "no thread recorded an event");
        return;
    }
    if (json_array_size(json_object_get(p->root, "unmeasured"))) {
        /* (pomprun after a hard pause: the rest of the run read as serial) */
        snprintf(p->pop_not_rated, sizeof p->pop_not_rated,
                 "part of the run went unmeasured (the warning 'not measured' says what)");
        return;
    }
    if (tasks_unmeasured(p)) {
        snprintf(p->pop_not_rated, sizeof p->pop_not_rated,
                 "the tasks of a taskloop in an untied task are not measured (docs/api.md): "
                 "their work reads as its taskgroup's wait");
        return;
    }
    if (rp_barrier_waits_unrecorded(p) && tasks_ran_unframed(p)) {
        /* (a worker's tasks run in a parallel region's closing barrier lie in
         * no share, the master's between its block and the region's exit:
         * a region of tasks made by a single nowait read 0 % parallel
         * efficiency for 94; a probe) */
        snprintf(p->pop_not_rated, sizeof p->pop_not_rated,
                 "%s records no implicit barrier: tasks run in one (at a parallel region's end) "
                 "fall outside every thread's share of the region",
                 rp_barrier_waits_unrecorded(p));
        return;
    }
    if (p->runs_too_deep) {
        /* (the time of what ran deeper stays with the deepest recorded
         * region: a task chain's work read as a taskwait's wait) */
        snprintf(p->pop_not_rated, sizeof p->pop_not_rated,
                 "events nested deeper than the profile records (POMP_PROFILE_DEPTH) went "
                 "unrecorded, their time read as the deepest recorded region's");
        return;
    }
    if (par && strcasecmp(par, "none") == 0) {
        snprintf(p->pop_not_rated, sizeof p->pop_not_rated,
                 "POMP_PARALLEL=none records no parallel region");
        return;
    }
    const struct rp_region *out = filtered_out_measure(p);
    if (out) { /* (its waits, tasks or team shares read as other regions' work) */
        snprintf(p->pop_not_rated, sizeof p->pop_not_rated,
                 "POMP_FILTER_* took out %s regions, whose time the figures need", out->type);
        return;
    }
    if (task && strcasecmp(task, "none") == 0 && !rp_instrumented_without(p, tasks)) {
        snprintf(p->pop_not_rated, sizeof p->pop_not_rated,
                 "POMP_TASK=none records no task: tasks run in a barrier or taskwait would read "
                 "as its wait");
        return;
    }
    if (sync && (strcasecmp(sync, "none") == 0 || strcasecmp(sync, "Event") == 0)) {
        snprintf(p->pop_not_rated, sizeof p->pop_not_rated,
                 "POMP_SYNC=%s records no wait (barrier, critical, lock, taskwait)", sync);
        return;
    }
    const struct rp_region *unrun = executions_unrecorded(p);
    if (unrun && (!task || strcasecmp(task, "BeginEnd") == 0)) {
        snprintf(p->pop_not_rated, sizeof p->pop_not_rated,
                 "the executions of the tasks of task @ %s:%d were not recorded (a compile-time "
                 "'#pragma pomp inst task EnterExit' there, docs/instrumentation.md): the tasks "
                 "run in a barrier or taskwait read as its wait",
                 unrun->file, unrun->first_line);
        return;
    }
    if (!task || strcasecmp(task, "BeginEnd") == 0)
        return;
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_region *r = p->nodes[i].region;
        /* (a creation: "task" in the instrumentation, "task_create" from the runtime) */
        if (r && (strcmp(r->type, "task") == 0 || strcmp(r->type, "task_create") == 0) &&
            p->nodes[i].s.visits > 0) {
            snprintf(p->pop_not_rated, sizeof p->pop_not_rated,
                     "POMP_TASK=%s records no task's execution: the tasks run in a barrier or "
                     "taskwait read as its wait", task);
            return;
        }
    }
}

int rp_pop_compute(struct rp_profile *p)
{
    size_t nt = p->nthreads;
    double *sub = subtree_waits(p), *fj = fork_join(p);
    unsigned char *shared = calloc(p->nnodes + 1, 1);
    double *waits = sub && shared ? task_waits_in_nodes(p, sub, shared) : NULL;
    unsigned char *stream = stream_columns(p);
    double *in = calloc(nt + 1, sizeof *in), *u = calloc(nt + 1, sizeof *u);
    double *shares = calloc(nt + 1, sizeof *shares);
    p->pop_regions = calloc(p->nnodes + 1, sizeof *p->pop_regions);
    struct untimed_node *untimed = NULL;
    size_t nuntimed = untimed_wait_nodes(p, &untimed);
    if (!sub || !fj || !waits || !stream || !in || !u || !shares || !p->pop_regions ||
        nuntimed == (size_t)-1) {
        free(sub), free(fj), free(shared), free(waits), free(stream), free(in), free(u);
        free(shares), free(untimed);
        return -1;
    }
    for (size_t i = 0; i < p->nnodes; i++) {
        struct rp_node *node = &p->nodes[i];
        double elapsed;
        size_t n = node_threads(p, i, waits, fj, stream, in, u, shares, &elapsed);
        struct rp_pop m;
        metrics(&m, in, u, shares, n, 0);
        /* none for a throttled region's row: its times cover the executions
         * before the throttle, which one thread may have reached long before
         * another (a balanced region read 50 %) */
        int throttled = rp_node_throttled(node);
        node->s.load_balance = m.useful_max_ns > 0 && !throttled ? 100.0 * m.load_balance : -1;
        if (!n || !is_parallel(node))
            continue;
        if (!has_blocks(node)) {
            p->pop_without_shares++;
            continue;
        }
        struct rp_pop *r = &p->pop_regions[p->npop++];
        metrics(r, in, u, shares, n, elapsed);
        r->node = node;
        r->shared_task_waits = shared[i];
        r->untimed_waits =
            untimed_waits(p, i, untimed, nuntimed, &r->blockless_waits, &r->untimed_wait_own_ns);
    }
    qsort(p->pop_regions, p->npop, sizeof *p->pop_regions, by_elapsed_desc);
    run_metrics(p, sub, fj, stream, in, u);
    cpu_waits(p, stream);
    p->pop_run.untimed_waits =
        untimed_waits(p, NO_PARENT, untimed, nuntimed, &p->pop_run.blockless_waits,
                      &p->pop_run.untimed_wait_own_ns);
    not_rated(p);
    run_not_rated(p);
    free(sub), free(fj), free(shared), free(waits), free(stream), free(in), free(u);
    free(shares), free(untimed);
    return 0;
}
