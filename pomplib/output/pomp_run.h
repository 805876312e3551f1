/* The finished data of a run: what the core hands to the writers when
 * measurement has stopped (docs/architecture.md). The writers read this and
 * nothing of the recording core; the core builds it (core/pomp_run_build.c)
 * from its live records and owns it. */
#ifndef POMP_RUN_H
#define POMP_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ctc.h"
#include "pomp_clock.h"
#include "pomp_device_ops.h"
#include "pomp_event.h"
#include "pomp_sample_tree.h"
#include "pomp_value_stats.h"

/* A region as the output describes it; index id - 1 of pomp_merged.regions. */
struct pomp_run_region {
    uint32_t id;                /* 1..n in creation order */
    const char *type;           /* "parallel", "critical", ... (a readable type) */
    const char *init;           /* how it was created: "handle", "lazy" or "ompt" */
    const char *ctc_text;       /* its CTC string */
    struct ctc ctc;             /* parsed (empty when ctc_error != 0) */
    int filtered;               /* POMP_FILTER_*: its events were not recorded */
    int filtered_ran;           /* ... and it ran (an event came) */
    uint64_t throttled_ns;      /* throttled (POMP_THROTTLE) since this time from the start; 0: never */
    uint64_t throttled_after;   /* the executions on one path that decided it */
    int ctc_error;              /* enum ctc_error of the CTC string */
    size_t ctc_error_offset;
    uint32_t same_as;           /* 0, or the id of the region it is one with: the runtime
                                   reported both at the same place (pomp_merge.c); the
                                   profile has no node of it and does not list it */
    int several_functions;      /* regions of other functions are one with it (same_as): its
                                   function names none of them alone */
};

/* One OS thread's part of a record that stood for several (pomp_thread.h):
 * its first event and the end of its work (its last timed close, else its
 * end), in ticks. */
struct pomp_os_life {
    uint64_t first, last;
};

/* A column of the profile: an OS thread, or a device stream (device >= 0). */
struct pomp_run_thread {
    uint32_t index;             /* 0, 1, ... in order of first event */
    int32_t omp_thread_num;
    pid_t os_tid;               /* the last OS thread it stood for */
    uint32_t os_threads;        /* OS threads it stood for, one after another (1, 2, ...) */
    const struct pomp_os_life *earlier_lives; /* those before the last one, os_threads - 1 of
                                   them; NULL: not known (memory ran out, or too many) */
    uint64_t os_first_ticks;    /* the last one's first event */
    int32_t device;             /* -1: an OS thread */
    uint32_t host_thread;       /* a device stream: its host thread, or POMP_STREAM_DEVICE_TRACE */
    uint64_t nesting_errors;    /* unmatched end/exit events */
    uint32_t first_unmatched;   /* the region (id) of the first of them, 0: none */
    uint32_t first_unended;     /* the region (id) it closed, left open inside it, 0: none */
    uint64_t open_at_end;       /* regions still open when measurement ended, timed to its end */
    uint32_t first_open;        /* the region (id) of the innermost of them, 0: none */
    uint64_t unframed_task_ticks; /* tasks run where no recorded region was open (pomp_profile.h) */
    uint64_t dropped_paths;     /* call paths that found the profile full */
    uint64_t deep_events;       /* events nested deeper than the profile records */
    uint64_t interrupted_events; /* events of a signal handler inside another event: not recorded */
    uint64_t untimed_events;    /* events of throttled regions: counted, not timed, not traced */
    uint32_t max_nodes;         /* the call-path nodes it could hold (POMP_PROFILE_NODES) */
    uint64_t dropped_values;    /* value lists that found the value pool full */
    uint64_t first_ticks;       /* its first event */
    uint64_t last_ticks;        /* its last timed close (0: none) */
    uint64_t ended_ticks;       /* an OS thread's end, 0: it ran to the end of the run */
    uint64_t cpu_wait_ns;       /* ns it waited for a CPU from its first event to its end, or
                                   POMP_CPU_WAIT_UNKNOWN (pomp_thread_cpu_wait_ns) */
    uint64_t cpu_wait_life_ns;  /* the lives over which cpu_wait_ns was read (ns) */
    uint32_t cpu_wait_unread;   /* OS threads too short-lived to be read (pomp_thread.h) */
    uint64_t cpu_wait_unread_ns; /* their lives */
    /* its trace (POMP_TRACE): */
    int has_log;                /* it had a trace buffer */
    uint64_t log_written;       /* events written to its raw file */
    uint64_t log_dropped;       /* events lost */
    uint32_t log_flushes;       /* buffers written out while the program ran */
    int log_error;              /* errno of its first failed write, 0 if none */
};

struct pomp_stat {
    uint64_t visits, begins, incl, excl, min, max, body; /* ticks; min is 0 when unvisited */
    uint64_t untimed;               /* executions counted without time (throttled) */
    uint64_t helpers;               /* a task root's begins taken back: the runtime's helpers */
    uint64_t overlap;               /* ticks of incl also in an outer frame of the region (pomp_node) */
    uint64_t nested;                /* a task root's ticks of incl run inside an execution of the
                                       same construct (pomp_node) */
    /* Ticks of incl that are the thread's shares of teams grafted here, under
     * the node where their master forked them (pomp_merge). A share is a
     * top-level frame of the thread's own tree: never inside the thread's time
     * in the parent node, which it may also have (libomp gives a pool thread
     * to teams at several nesting levels). */
    uint64_t share;
    uint64_t samples_work, samples_wait;
    struct pomp_value_block *values; /* user values: copies owned here */
};

/* Whether a thread was in a node: it visited or began it, or ran a later part
 * of a task's execution begun elsewhere there (an untied task resumed on this
 * thread: time without a count, pomp_profile_resume). */
static inline int pomp_stat_recorded(const struct pomp_stat *s)
{
    return s->visits || s->begins || s->incl;
}

struct pomp_mnode {
    const struct pomp_run_region *region; /* NULL for the root (index 0) and for "<overflow>" */
    size_t parent;
    size_t first_child, next_sibling; /* 0 means none */
    int overflow;
    int task_root;                  /* the root of a task construct's executions (a child of 0) */
    size_t binding;                 /* a task root: the node where the team its tasks ran in was
                                       forked (0: not known) */
};

/* The per-thread call-path trees merged into one tree whose nodes carry a
 * column per thread (docs/output.md). */
struct pomp_merged {
    uint32_t nthreads;
    struct pomp_run_thread *threads;  /* by thread index */
    uint32_t nregions;
    struct pomp_run_region *regions;  /* by id - 1 */
    size_t count, capacity;
    struct pomp_mnode *nodes;
    struct pomp_stat *stats;        /* count * nthreads, row-major by node */
    /* While merging: every node but the root, by a hash of its parent,
     * region, overflow and task root (linear probing, at most half full);
     * freed when the merge is done. */
    size_t *child_index, index_slots;
};

static inline struct pomp_stat *pomp_merged_stat(const struct pomp_merged *m, size_t node,
                                                 uint32_t thread)
{
    return &m->stats[node * m->nthreads + thread];
}

/* What the runtime said about a device (OMPT device_initialize/load/finalize). */
struct pomp_run_device {
    int initialized, finalized;
    char type[64];
    enum pomp_device_timing timing;
    char note[512];
    uint32_t modules;
};

/* The samples of the run (POMP_SAMPLING), all threads merged. */
struct pomp_run_sampling {
    int on;
    uint64_t period_ns;
    const char *timer;          /* "wall" or "cpu" */
    struct pomp_sample_tree tree;
    uint64_t taken, lost;
    uint32_t raised_threads;    /* threads whose period was raised at run time (slow samples) */
    uint64_t max_period_ns;     /* the longest period a thread ended with */
    uint32_t blocked_threads;   /* threads that held SIGPROF blocked, samples pending, at the end */
    int complete;               /* the threads' trees merged without running out of memory */
};

enum { POMP_RUN_UNMEASURED = 8 };

/* Sentences a source said about the run (pomp_sources.h); past
 * POMP_RUN_UNMEASURED of them, counted. */
struct pomp_run_said {
    char text[POMP_RUN_UNMEASURED][400];
    size_t n, past;
};

struct pomp_run {
    const char *program;
    int pid;
    const char *dir;            /* the output directory */
    int dir_errno;              /* it could not be made: nothing is written */
    int nothing_recorded;       /* no thread recorded an event, no trace asked for: no
                                   directory, one line said (a program with no OpenMP) */
    const char *unrecording;    /* the settings that record nothing, where that may be why
                                   ("POMP_OMPT=off", "every POMP_<GROUP>=none"), or NULL */
    char unrecording_buf[256];  /* (what unrecording points to) */
    uint64_t paused_ns;         /* measurement paused (POMP_Off) this long in all, */
    uint32_t paused_times;      /* this often: what ran then is in no figure */
    const char *runtime_events_off_by; /* the setting that turned the runtime's reports off
                                   ("POMP_OMPT=off"), or NULL: then no implicit barrier is
                                   recorded, and profile.json says so */
    struct pomp_clock clock;
    double duration_ns;
    int write_profile;          /* POMP_PROFILE */
    int summary;                /* POMP_SUMMARY */
    uint32_t max_depth;         /* the nesting the profile records (POMP_PROFILE_DEPTH) */
    uint64_t throttle_visits;   /* POMP_THROTTLE (0: off) */
    uint64_t throttle_ns;
    uint32_t throttle_early;    /* ... or a tenth (this divisor) of both (the early rule);
                                   0: the early rule cannot apply before the rule */
    unsigned trace;             /* POMP_TRACE: enum pomp_trace_format bits */
    uint32_t ngroups;           /* the event groups, by enum pomp_group */
    const char *const *group_names;
    const char *const *level_names; /* each group's level ("BeginEnd"), by enum pomp_group */
    struct pomp_merged profile; /* count 0 when merging ran out of memory */
    int profile_complete;
    struct pomp_run_device devices[POMP_MAX_DEVICES];
    struct pomp_run_sampling sampling;
    /* what a source could not measure (pomp_sources.h, unmeasured), and what
     * it measured but could not keep apart (kept_together): said in
     * profile.json and by pomp-report */
    struct pomp_run_said unmeasured, kept_together;
};

/* An OS thread's life in the run, ns from the run's start (profile.json's
 * start_ns, end_ns), and what it waited for a CPU (cpu_wait_ns, at most the
 * lives it was read over: cpu_wait_life_ns where apart). */
struct pomp_thread_life {
    double start, end;
    int wait_known;    /* the kernel told it */
    int apart;         /* OS threads one after another, or some not read: wait_life is
                          the lives it was read over, not end - start */
    double wait, wait_life;
};
void pomp_thread_life_of(const struct pomp_run *run, const struct pomp_run_thread *t,
                         struct pomp_thread_life *life);

/* Writes the trace, profile.json and the summary the run asks for into
 * run->dir (docs/output.md); errors go to stderr. */
void pomp_output_write(const struct pomp_run *run);

#endif
