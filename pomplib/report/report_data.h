/* What pomp-report computes from a profile.json: the call-path rows with
 * their statistics over threads, a flat profile per region, and the wait
 * breakdown per parallel region. The text tables, --json and --html all show
 * these same numbers. */
#ifndef POMP_REPORT_DATA_H
#define POMP_REPORT_DATA_H

#include <jansson.h>
#include <stddef.h>

#include "pomp_clock.h"

/* The wait categories of the breakdown, in display order. */
enum wait_kind { WAIT_BARRIER, WAIT_CRITICAL, WAIT_LOCK, WAIT_ORDERED, WAIT_TASKWAIT, WAIT_IDLE,
                 WAIT_COUNT };
extern const char *const wait_names[WAIT_COUNT];

struct rp_profile;
/* The regions the report counts: those the exit summary counts too (a
 * runtime's region that no call path holds, not filtered, is left out). */
size_t rp_regions_counted(const struct rp_profile *p);
/* The runtime group's level where it records no lock call's time ("none",
 * "Event"): lock waits, if any, read as useful time. NULL otherwise. */
const char *rp_lock_waits_unrecorded(const struct rp_profile *p);
/* The share of the OS threads' time in the run that they waited for a CPU
 * (0 where not known), and the share from which the reports say it (the exit
 * summary's too). */
#define RP_CPU_WAIT_SAID POMP_CPU_WAIT_SAID
double rp_cpu_wait_share(const struct rp_profile *p);
/* The setting that turned the runtime's reports off (POMP_OMPT=off) in a
 * pompcc build, whose implicit barriers' waits are then not recorded, or NULL. */
const char *rp_barrier_waits_unrecorded(const struct rp_profile *p);
/* With those unrecorded: how many instrumented worksharing constructs end in
 * an implicit barrier of their own (no nowait, not the leaf of a combined
 * parallel construct), whose waits then fall inside each thread's share and
 * read as work: load balance and parallel efficiency are overstated too. */
size_t rp_worksharing_barriers_unrecorded(const struct rp_profile *p);
/* Whether the profile holds instrumented regions (a pompcc build: every
 * construct's region is listed, run or not) and none of one of types: the program has no such construct, as far as the profile can tell
 * (under pomprun it cannot: 0). */
int rp_instrumented_without(const struct rp_profile *p, const char *const *types);

struct rp_region {
    long long id;
    const char *type, *name, *file;   /* owned by the JSON document */
    const char *function;             /* a runtime region's function ("" if unknown) */
    int first_line, last_line;
    json_t *json;                     /* the region's object in profile.json */
    /* A region without a file (the runtime's, without debug information, or
     * without an address: implicit barriers): the nearest enclosing region
     * with a file or a function, when every call path of the region agrees
     * on it, else NULL */
    const struct rp_region *placed_in;
    int places;                       /* 0: none seen yet, 1: one (placed_in), 2: several */
    size_t task_roots;                /* its call-path nodes that are task roots: more than one
                                         when its tasks ran in several teams (rp_node.binding) */
    int blocks_unrecorded;            /* a critical or ordered whose blocks the levels did not
                                         record (rp_entry_blockless) */
    int twin;                         /* without a file, another region has its type, name and
                                         function in its module: labelled with its offset */
};

struct rp_stats {            /* one row's figures over the threads that have data */
    double visits;           /* summed over threads */
    size_t threads;
    double min, mean, max;   /* inclusive ns per thread */
    double imbalance;        /* (max - mean) / max, in % (0 for one thread) */
    double load_balance;     /* POP: mean work / max work over threads, in %; work = inclusive
                                time less the waits below (report_pop.c); -1: no work */
    double incl_sum, self_sum;
};

#define NO_PARENT ((size_t)-1)

struct rp_node {
    long long id, parent;
    size_t parent_index;              /* into nodes[], NO_PARENT at the top */
    int depth;
    const struct rp_region *region;   /* NULL: the overflow node */
    int task_root;                    /* the tree of a task construct's executions */
    long long binding_id;             /* a task root: the node where the team its tasks ran in
                                         was forked ("binding"; 0: not known) */
    size_t binding;                   /* that node's index, NO_PARENT if none or not in the file */
    const struct rp_region *place;    /* the nearest enclosing region with a file or a function
                                         (NULL: none), which places a region without a file */
    json_t *per_thread;
    struct rp_stats s;
    double waits[WAIT_COUNT];         /* this node's own wait time, ns summed over threads */
    unsigned wait_children;           /* the kinds of the runtime's "wait" regions among its
                                         children, a bit (1u << enum wait_kind) each */
    double *flush_ns;                 /* libpomp's own trace flushes ("pomp flush" nodes) among
                                         its children, ns by thread number (nthreads of them);
                                         NULL: none */
    size_t flush_threads;             /* flush_ns's length */
};

/* Which call paths of a region a flat row takes: all of them; or, for a task
 * construct met both where tasks are created and as the root of their
 * executions' trees, one row each (a 30 ms execution and its 1 us creation
 * made one row with a mean of neither); or, for a region without a place of
 * its own that its call paths place in several regions (the closing barrier
 * of every parallel region is one region), one row per enclosing region with
 * a place (rp_flat.place; NULL: the paths placed nowhere). */
enum rp_flat_part { RP_FLAT_ALL, RP_FLAT_CREATIONS, RP_FLAT_EXECUTIONS, RP_FLAT_AT_PLACE };

struct rp_flat {             /* a region over all its call paths (or a part of them) */
    const struct rp_region *region;
    enum rp_flat_part part;
    const struct rp_region *place; /* RP_FLAT_AT_PLACE only */
    const size_t *nodes;     /* the call-path nodes the row is made of (indices into nodes[],
                                of its region, in node order), the part's among them */
    size_t nnodes;
    struct rp_stats s;
};

/* The row's label: the region's, "[throttled]" where one of its paths is
 * (rp_node_throttled), and its part; its location. */
void rp_flat_label(const struct rp_profile *p, const struct rp_flat *f, char *buf, size_t size);
void rp_flat_location(const struct rp_flat *f, char *buf, size_t size);

struct rp_wait_row {         /* a parallel region or task root (call-path node), or the time outside any */
    const struct rp_node *node;       /* NULL: outside parallel regions */
    double thread_time;               /* inclusive ns summed over threads */
    double waits[WAIT_COUNT];
    double total;
};

#define RP_NO_THREAD ((size_t)-1)

struct rp_profile {
    json_t *root;
    const char *program;
    long long pid;
    double duration_ns;
    size_t nthreads;
    size_t initial_thread;   /* the process's initial thread (its os_tid is the pid): in the run
                                from its start to its end; RP_NO_THREAD where it made no event
                                (a server's main thread, OpenMP in its request threads only:
                                the first of those was taken for it, alive and useful for the
                                whole run; a probe); thread 0 in a profile without a pid */
    struct rp_region *regions;
    size_t nregions;
    struct rp_node *nodes;            /* depth-first, parents before children */
    size_t nnodes;
    struct rp_flat *flat;             /* sorted by self time, largest first */
    size_t nflat;
    size_t *flat_nodes;               /* every node with a region, by region (and by place
                                         where its rows are per place): rp_flat.nodes */
    struct rp_wait_row *waits;        /* sorted by total wait, largest first */
    size_t nwaits;
    const char *wait_source;          /* "profile" (the runtime's figures) or "regions" */
    struct rp_pop {                   /* POP efficiency metrics (report_pop.c), fractions of 1 */
        const struct rp_node *node;   /* a parallel region; NULL: the whole run */
        size_t threads;
        double elapsed_ns;            /* the region's (the run's) elapsed time */
        double useful_mean_ns, useful_max_ns;
        double parallel_eff, load_balance, sync_eff, fork_join_eff;
        int shared_task_waits;        /* its useful time counts waits of task constructs met in
                                         several regions, shared among them by task time */
        double untimed_waits;         /* executions of wait regions below it counted without
                                         time (POMP_THROTTLE: a hot critical, ordered, lock):
                                         their waits read as useful time */
        double untimed_wait_own_ns;   /* the own time of the paths those executions ran in
                                         (rp_node_untimed_in), which holds their time and waits
                                         with those paths' own work */
        double blockless_waits;       /* executions of critical and ordered regions below it
                                         whose blocks were not recorded (POMP_SYNC=EnterExit):
                                         their waits are not known, their time reads as useful */
    } pop_run, *pop_regions;          /* the run; each parallel region, most elapsed time first */
    size_t npop;
    double cpu_wait_ns;               /* the OS threads' waits for a CPU in the run (runnable, not
                                         running; threads[].cpu_wait_ns), -1: not known */
    double cpu_wait_life_ns;          /* those threads' time in the run (their lives, added) */
    double cpu_wait_unread;           /* OS threads too short-lived to be read (threads[].cpu_wait_unread) */
    double cpu_wait_unread_ns;        /* their lives, out of cpu_wait_life_ns */
    size_t pop_without_shares;        /* parallel regions left out: no thread's block was recorded
                                         (POMP_PARALLEL=EnterExit), so no worker's share either */
    char pop_not_rated[400];          /* why no figure is rated (a level that records no
                                         wait: POMP_SYNC=none), "" when they are */
    char pop_run_not_rated[200];      /* why the run's figures are not rated where its parallel
                                         regions' are (no team's shares; a pause), "" when they are */
    double paused_ns;                 /* "paused": measurement off (POMP_Off) this long, */
    size_t paused_times;              /* this often (0: never) */
    const char *level_sync, *level_task; /* the run's levels ("levels"), NULL: not said */
    const char *level_parallel;
    const char *level_runtime;
    const char *runtime_events_off_by; /* "runtime_events_off_by" ("POMP_OMPT=off"), or NULL */
    struct rp_unrun {                 /* a task construct with fewer executions than creations */
        const struct rp_region *region; /* its creations' (POMP's task, the runtime's task_create) */
        double created, ran;
        int cancelled;                /* a cancel construct ran that can have discarded its tasks:
                                         in its own tasks, or outside any task */
    } *unrun;                         /* in the flat table's order */
    size_t nunrun;
    int open_at_end;                  /* regions were open when measurement ended (exit(), a signal) */
    int runs_unmeasured;              /* a source said it left tasks' runs unmeasured ("unmeasured") */
    int runs_too_deep;                /* events nested deeper than the profile records were left out
                                         (threads[].deep_events): a task's run among them */
    int runs_overflowed;              /* paths past POMP_PROFILE_NODES went to <overflow>
                                         (threads[].dropped_paths): a task's run among them */
};

/* Whether call-path node i counts toward flat row f. */
int rp_flat_takes(const struct rp_profile *p, const struct rp_flat *f, size_t i);

/* How often a region ran, from its visits (enter events) and begins: regions
 * with begin/end events only (functions, user regions, master, task
 * executions) are never "entered", so their executions are their begins. The
 * one rule of every table, the summary's included. */
static inline double rp_executions(double visits, double begins)
{
    return visits > 0 ? visits : begins;
}

/* The wait one thread's entry of a node stands for (ns), and its kind: a
 * barrier's, taskwait's or lock call's own (exclusive) time, which leaves out
 * the tasks the thread ran meanwhile (their own trees) and any wait nested in
 * it, so a wait is counted once; the time a critical or ordered construct spent
 * outside its body (waiting to get in). Where the OMPT bridge measured a
 * construct's wait itself (a "wait" region of its kind among the node's
 * children: rp_node.wait_children), that region is the figure, and the
 * construct's own time (which contains it) is not counted again (once any
 * "wait" region in the run, a taskgroup's, took every instrumented lock wait
 * out of the run's figures). */
double rp_entry_wait(const struct rp_node *n, json_t *entry, unsigned wait_children,
                     enum wait_kind *kind);
/* Whether one thread's entry of a critical or ordered node has no recorded
 * block (POMP_SYNC=EnterExit): its wait to enter is not known (rp_entry_wait
 * gives none, rather than its whole time). */
int rp_entry_blockless(const struct rp_region *r, json_t *entry);

/* A JSON file pomp wrote, parsed; NULL after printing where it is malformed
 * (line, column and byte offset). */
json_t *rp_load_json(const char *path);

/* The largest count or time a file's figures may have: 2^53, past which a
 * double (JSON's number) loses units. */
#define RP_EXACT_MAX 9007199254740992.0

/* The byte offset in the JSON file path (parsed as root) at which value
 * starts (jansson keeps no places: the text is walked beside the tree), or
 * -1. */
long rp_json_offset(const char *path, json_t *root, const json_t *value);
/* The byte offset of the value of key in the object parent (the last, where
 * the key is given twice, as jansson keeps), or -1: true, false and null,
 * one node each wherever they stand, are found only so. */
long rp_json_member_offset(const char *path, json_t *root, const json_t *parent, const char *key);
/* Prints "pomp-report: PATH: byte offset N: " and the message on stderr (no
 * offset where it is not known). */
void rp_say_at(const char *path, json_t *root, const json_t *value, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same at the value of key in the object parent. */
void rp_say_at_member(const char *path, json_t *root, const json_t *parent, const char *key,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Whether o's member key (a count or time) is bad: not a whole number from 0
 * to RP_EXACT_MAX, or missing where required. A bad one is said (rp_say_at:
 * the value's offset, or the object's where it is missing), the field named
 * by name_fmt (the object's place: "sampling.paths[3]") and key. */
int rp_bad_count(const char *path, json_t *root, json_t *o, const char *key, int required,
                 const char *name_fmt, ...) __attribute__((format(printf, 6, 7)));

/* Loads and checks path (a profile.json). Returns 0, or -1 after printing why. */
int rp_load(const char *path, struct rp_profile *p);
void rp_free(struct rp_profile *p);

/* "critical accumulate", "<overflow>" */
void rp_region_label(const struct rp_region *r, char *buf, size_t size);
/* ... of a call path: [throttled] only where rp_node_throttled */
void rp_node_label(const struct rp_node *n, char *buf, size_t size);
/* ... of a row of the waits table: "task [throttled] (executions)" for a task
 * root (the waits inside its executions), "(outside parallel regions)" */
void rp_wait_label(const struct rp_wait_row *w, char *buf, size_t size);
/* A call path with visits counted untimed (its times cover part of them): a throttled
 * region's, or one run inside a throttled region's executions */
int rp_node_throttled(const struct rp_node *n);
/* Node i's untimed executions at the top of their threads (a throttled region outside
 * every region): their number, and in *outside_ns those threads' time outside every
 * region (their spans less their top paths' time), which holds theirs; 0 for a node
 * with a parent or a task root. */
double rp_node_untimed_outside(const struct rp_profile *p, size_t i, double *outside_ns);

/* Where node i's untimed executions went: *anchor, the call path whose own time holds
 * their time (waits included; NO_PARENT: none), *own_ns that own time on the threads
 * where i has them, *untimed their number. 1 where it has any such. Below a task root
 * the own time is the task root's and its creators' (which hold each other's), and
 * *anchor the first of those paths: paths of one anchor hold own times of which the
 * larger holds the smaller (one directly in a creator holds that creator's alone), so
 * a sum over paths takes each anchor's largest. *holder (if not NULL): the path named
 * as holding them, the task root there, else *anchor. */
int rp_node_untimed_in(const struct rp_profile *p, size_t i, size_t *anchor, size_t *holder,
                       double *own_ns,
                       double *untimed);
/* "work.c:14-17", "-" */
void rp_region_location(const struct rp_region *r, char *buf, size_t size);
/* Room for a location: a C++ function's signature without debug information
 * runs to hundreds of bytes (the text report shortens it to its name,
 * which it found only in a place that held the whole: report_text.c). */
#define RP_LOCATION_MAX 2048
/* The location of call-path node i: its region's, or for a region without a
 * file the node's own nearest enclosing region with a file or a function (an
 * implicit barrier of every parallel region is placed in each). */
void rp_node_location(const struct rp_profile *p, size_t i, char *buf, size_t size);

#endif
