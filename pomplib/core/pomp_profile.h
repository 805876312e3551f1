/* The per-thread call-path profile. Each thread owns a tree of nodes (one per
 * distinct path of regions) and a stack of the regions it is in. Events touch
 * only the thread's own data: no locks; the only allocation is a new chunk of
 * nodes when a new path finds the current chunk full (growth, never per event),
 * up to POMP_PROFILE_NODES per thread.
 *
 * An explicit task's execution is a tree of its own, rooted at the thread's
 * root (a task root, keyed by the task construct), not nested under the region
 * the thread happened to be in (a barrier, a taskwait): recursive tasks do not
 * multiply paths, and the time a thread spends running tasks inside a wait is
 * the tasks' time, not the wait's. Inside a task, time is the task's only while
 * it is the thread's current task: a task run inside another task's taskwait
 * is left out of every frame of the task it interrupted (as a task switch), so
 * a recursion of tasks folds into one tree whose figures add up
 * (docs/output.md, "Tasks"). */
#ifndef POMP_PROFILE_H
#define POMP_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "pomp_values.h"

struct POMP_Region_s;
struct POMP_Fast_count;

struct pomp_node {
    struct POMP_Region_s *region;     /* NULL for the thread's root and the overflow node */
    struct pomp_node *parent, *first_child, *next_sibling;
    /* The plain child found last under this node, and the plain sibling
     * found right after this one last time (child_of): the constructs a
     * parent meets in turn (a loop and its barrier; a task's two creations
     * and its taskwait; a time step's eight regions) find their node without
     * a walk. Two nodes of the last two found missed every time in a turn of
     * three (a recursive task's: ~80 instructions an event). */
    struct pomp_node *last_hit, *next_hit;
    uint64_t visits;     /* enter events: the thread encountered the construct */
    uint64_t begins;     /* begin events: the thread executed the structured block */
    uint64_t incl;       /* ticks from enter to exit (or begin to end without enter) */
    uint64_t excl;       /* incl minus the incl of the children */
    uint64_t min, max;   /* shortest and longest single visit (incl) */
    uint64_t body;       /* ticks from begin to end */
    uint64_t samples_work, samples_wait; /* POMP_SAMPLING: samples taken in this path */
    struct pomp_value_block *values; /* user values recorded here (pomp_values.h), or NULL */
    /* A team member's share of a parallel region (pomp_profile_team_begin): the
     * node where the team's master entered the region, so that the merge keeps
     * the fork point (nested teams included). A task root: the same fork point
     * of the team its tasks ran in, so that one construct met in two parallel
     * regions has a tree for each, and waits in its tasks go to their own
     * region (NULL: not known, outside any team, or the runtime does not
     * report teams). NULL for every other node. */
    const struct pomp_node *fork;
    size_t merged;       /* index in the merged tree, set by pomp_merge (0: not merged yet) */
    uint64_t untimed;    /* executions counted without time (a throttled region, or inside one) */
    uint64_t helpers;    /* a task root: begins taken back, the runtime's helper tasks
                            (pomp_profile_uncount_begin), whose creations stay counted */
    /* Of incl, the time spent while the same region was also open outside the
     * running task, below it on the thread's stack (a taskwait run inside the
     * tasks a taskwait of the implicit task runs): the outer frame's incl holds
     * it already, so a region's time over all its paths leaves it out. */
    uint64_t overlap;
    /* Of incl, the time spent while another region that may be this one's
     * twin (pomp_region_maybe_twins: an inline function's construct inlined
     * in two places, which the runtime reports from two code addresses) was
     * open outside the running task: overlap too where the output folds the
     * two into one region (pomp_merge.c). twin: the first such region found,
     * the only one looked for after (one walk of the stack, then none). */
    uint64_t twin_overlap;
    const struct POMP_Region_s *twin;
    /* A task root: of incl, the executions run inside an execution of the
     * same construct on the thread, through a team forked in it (a recursion
     * of tasks that fork teams): that execution's incl holds them. */
    uint64_t nested;
    uint8_t task_root;   /* a task's execution tree, a child of the thread's root */
};

/* Nodes come in chunks, each allocated when a new path finds the last one full. */
struct pomp_node_chunk {
    struct pomp_node_chunk *next;   /* the chunk allocated before this one */
    uint32_t used, size;
    struct pomp_node nodes[];
};

/* A wait (a barrier, a taskwait, a runtime's sync region) or a task's
 * creation, counted as a child of the top frame without a frame of its own:
 * nothing nests in one but tasks (an undeferred task runs inside its
 * creation), each a tree of its own whose time the top frame's child takes
 * meanwhile (outside tasks) or the thread's task switches (inside a task), so
 * its own time is its elapsed time less those. The same figures as
 * enter..exit for about half the work; for the profile alone (a trace needs
 * the enter record, the sampler a frame to find). */
struct pomp_leaf {
    struct POMP_Region_s *region; /* NULL: none open */
    uint64_t start;               /* its start, ticks */
    uint64_t child;               /* the top frame's child then */
    uint64_t switched;            /* the thread's task_switched then */
    uint32_t depth;               /* the stack's depth then (0: none open) */
    uint8_t in_task;              /* opened inside a task: its time follows task switches */
    uint8_t under_task;           /* inside a task, across teams too (pomp_frame.under_task) */
    uint8_t construct;            /* an instrumented construct's (POMP's enter), not a
                                     runtime's wait: a bridge finds it as it would its frame */
    uint8_t dependences_waited;   /* a task creation: its execution began inside it, and the
                                     wait for its dependences before became a child (waited) */
    uint64_t waited;              /* that wait's time, which the creation's own time leaves out */
};

struct pomp_frame {
    struct pomp_node *node;
    struct POMP_Region_s *region; /* the event's region (node may be the overflow node) */
    uint64_t start;       /* tick of enter (or begin) */
    uint64_t body_start;  /* tick of begin */
    uint64_t body_end;    /* tick of the end of its block, 0 before (the OMPT bridge starts
                             a parallel region's closing barrier there) */
    uint64_t child;       /* incl of the children so far */
    uint64_t switched;    /* the thread's task_switched at the frame's start (in_task frames) */
    uint32_t untimed_below; /* a task's frame: the profile's untimed when it opened (the frames
                               below a task do not make its events untimed) */
    struct pomp_leaf leaf_below; /* a task's frame: the leaf open when it opened (a wait the task
                                    runs in), the thread's again when it closes: each task
                                    has a leaf of its own */
    uint8_t entered;      /* opened by an enter event */
    uint8_t in_body;      /* between begin and end */
    uint8_t skipped;      /* opened while measurement was off: closes without figures */
    uint8_t team;         /* opened by pomp_profile_team_begin: a begin of the same region
                             marks its block without counting a second begin */
    uint8_t adopt;        /* opened by the runtime (OMPT) before the instrumentation could:
                             a POMP begin of the same construct takes it over */
    uint8_t task;         /* an explicit task's execution (a task root's frame) */
    uint8_t untimed;      /* counted, not timed: a throttled region, or a frame inside one */
    uint8_t in_task;      /* a task's frame, or a frame opened inside one: its time is the
                             task's only while the task is current */
    uint8_t team_bound;   /* a parallel region's frame (the master's) or a team share (a
                             worker's): the tasks run inside it are its team's, no task
                             switch of the task around it */
    uint8_t under_task;   /* a task's frame, or one opened inside one, across teams too:
                             where a region open outside the tasks overlaps (overlap) */
    uint8_t switch_in;    /* a task's frame opened inside a task (a wait of it): a task
                             switch, which that task's frames leave out */
    uint8_t nested_run;   /* a task's frame opened inside an open execution of the same
                             construct, through a team forked in it (node.nested) */
    uint8_t outside_noted; /* a task's frame opened inside a team inside a task: it noted
                              the regions open below it (outside_*), and gives back the
                              ones noted before when it closes */
    uint32_t outside_depth_below;              /* (outside_noted) the profile's before */
    uint64_t outside_regions_below;
    uint64_t outside_kinds_below;
    struct POMP_Region_s *outside_leaf_below;
    uint8_t overlap;      /* under a task, and its region (OVERLAP_SAME: node.overlap) or a twin
                             of it (OVERLAP_TWIN: node.twin_overlap) is open outside the tasks */
    uint8_t forked;       /* a parallel region's frame whose node the runtime's bridge keeps as
                             its team's fork point (pomp_profile_mark_fork) */
    uint8_t helper;       /* a task's frame whose begin was taken back: the runtime's helper
                             (pomp_profile_uncount_begin), not one of the node's executions */
    uint8_t from_leaf;    /* a leaf made a frame (a region opened inside it: leaf_to_frame),
                             which the leaf's close closes */
    uint8_t dependences_waited; /* a task creation's frame (a trace or sampling makes one where
                                   it is a leaf otherwise): as pomp_leaf's */
    uint8_t inline_task;  /* the rest of an execution the inserted code counted inline, made a
                             frame where a region opened in it (pomp_profile_inline_task_open) */
};

/* Open regions per thread that the profile records: the first
 * POMP_FIRST_DEPTH frames are the profile's own; deeper, the stack grows (a
 * deep recursion of tasks, each run inside its parent's taskwait), doubling,
 * up to the profile's max_depth (POMP_PROFILE_DEPTH; POMP_DEFAULT_DEPTH).
 * Events nested deeper than that are counted (pomp_profile.deep_events) and
 * said at the end, not recorded. */
#define POMP_FIRST_DEPTH 256
#define POMP_DEFAULT_DEPTH 16384
/* ... of which the profile holds the first POMP_INLINE_FRAMES itself (4 KiB;
 * 256 held 32 KiB of every thread's record, most never used: a server's
 * short-lived threads each kept theirs to the end) */
#define POMP_INLINE_FRAMES 32

/* What one visit of a site counted inline stands for on its node. */
enum pomp_fast_what {
    POMP_FAST_VISIT,       /* an enter: an atomic, a task's creation */
    POMP_FAST_VISIT_BEGIN, /* an enter and a begin: a critical */
    /* a begin on a task root: a task's execution run directly inside an
     * execution of a task (an included task: final, if(0), undeferred), whose
     * frame holds its time, as it holds a function's; counted while any task's
     * frame is on top (POMP_Fast_task_counted) */
    POMP_FAST_EXECUTION,
    /* the same, of a task run at once right where its creations are counted
     * inline (an undeferred task: if(0), or one the runtime runs in its
     * creation, libgomp past 64 queued tasks a thread), no wait open there:
     * the frame on top holds its time as it holds its creation's; counted
     * in the counter's slot 1, while that frame is on top */
    POMP_FAST_EXECUTION_IN_PLACE,
    POMP_FAST_BEGIN,       /* a begin: a master or masked block */
};

/* An atomic, critical, task creation or task execution counted inline
 * (POMP_Fast_count, pomplib.h) on one of its counter's two paths (slot): it
 * counts while the thread's top frame stands on count->parent[slot]
 * (compared with POMP_Fast_top by the inserted code) and no leaf is open,
 * which is where the site's calls would count on node: node's parent, at the
 * depth it was registered at, or again in a recursion that folds onto the
 * same nodes (task roots); for an execution, node is its task root, and
 * parent[0] that root too, only a sign that the counter counts (wherever a
 * task's frame is on top), and parent[1] the frame its construct's creations
 * count inline under, where its undeferred executions count
 * (POMP_FAST_EXECUTION_IN_PLACE). The site stays registered until the same counter
 * registers on a third path (the older of its two goes, after
 * POMP_FAST_MISSES visits there), the table needs its slot, the thread ends or
 * measurement ends: then its visits are added to node (folded). */
struct pomp_fast_site {
    struct POMP_Fast_count *count; /* in its thread's TLS; NULL once the thread ended */
    struct pomp_node *node;
    uint64_t saved;                /* the count, copied when its thread ended */
    uint32_t registered;           /* when, in the table's registrations (the older goes) */
    uint32_t misses;               /* (slot 0's) visits on a third path since the last change */
    uint8_t slot;                  /* which of the counter's two (parent[slot], visits[slot]) */
    uint8_t events;                /* POMP events one visit stands for */
    uint8_t what;                  /* enum pomp_fast_what */
    uint8_t untimed;               /* its region is throttled: visits count as untimed executions */
};
#define POMP_FAST_SITES 32
/* A counter counting on two paths moves to a third after this many visits
 * made there through the calls (pomp_profile_fast_register). */
#define POMP_FAST_MISSES 16
/* The children index's first slots (a power of two); it doubles as the
 * store grows, so that it stays at most half full. */
#define POMP_INDEX_FIRST_SLOTS 256


struct pomp_profile {
    struct pomp_node root;
    const struct POMP_Region_s *first_unmatched; /* the region of the first end/exit that
                                         closed nothing open (said with the count) */
    const struct POMP_Region_s *first_unended; /* where that end/exit closed regions left open
                                         above its own: the outermost of them, whose end did
                                         not come first (a missing end, or the other's misplaced) */
    struct pomp_node overflow;        /* receives paths once POMP_PROFILE_NODES are used */
    uint32_t overflow_open;           /* frames open on the overflow node: one inside another
                                         adds no time (the outer one holds it) */
    struct pomp_node_chunk *chunks;   /* newest first */
    uint32_t nodes_used, nodes_max;   /* nodes in all chunks; the cap (POMP_PROFILE_NODES) */
    uint32_t depth;                   /* frames in use; frames[0] is the root */
    uint32_t too_deep;                /* open regions beyond max_depth, not recorded */
    uint64_t deep_events;             /* events not recorded because they were that deep */
    uint64_t last_closed;             /* ticks of its last timed close (a frame's or a wait's):
                                         where its work ended, which its OS thread's end may
                                         follow by milliseconds (the run's places) */
    uint64_t task_switched;           /* ticks of tasks run inside other tasks, so far */
    /* The frames below the outermost running task (frames[1..outside_depth-1],
     * none in a task) and a bit per region open there (outside_regions, a Bloom
     * filter): set when a task starts outside any task, read by the frames
     * opened inside it to find their region open below (pomp_node.overlap). */
    uint64_t outside_regions;
    uint64_t outside_kinds; /* their POMP_Region_s.kind_bit: a twin of a region may be open there */
    uint32_t outside_depth;
    uint32_t teams_in_tasks; /* team-bound frames open inside tasks (a task's frame below a
                                task of its construct is looked for only then) */
    struct POMP_Region_s *outside_leaf; /* the leaf open then outside tasks (a barrier), or NULL */
    /* The wait or task creation open without a frame (pomp_profile_leaf_open;
     * region NULL: none): one at a time in the running task (a task's frame
     * keeps the one it ran inside, pomp_frame.leaf_below). Tasks run inside
     * one opened outside tasks find its region open outside them, as a
     * frame's (a taskgroup's wait in a recursion of tasks that wait in the
     * same taskgroup: pomp_node.overlap; outside_leaf). */
    struct pomp_leaf leaf;
    uint8_t no_leaves;                /* every wait gets a frame: the sampler reads the top one */
    uint32_t untimed;                 /* untimed frames open in the running task (or outside
                                         tasks): events inside them read no clock */
    uint64_t untimed_events;          /* events counted without a timestamp (not in the trace) */
    uint64_t throttle_visits, throttle_ns; /* POMP_THROTTLE (0 visits: off) */
    uint64_t throttle_early_visits;   /* throttle_visits / POMP_THROTTLE_EARLY */
    uint64_t nesting_errors;          /* end/exit that matched no open region */
    uint64_t open_at_end;             /* regions still open when measurement ended, closed then */
    const struct POMP_Region_s *first_open; /* the innermost of them (said with the count) */
    uint64_t unframed_task_ticks;     /* tasks run where no recorded frame was open below them
                                         (measurement paused, filters, levels at none): their time
                                         is out of no region's own time (pomp-report --check) */
    uint64_t dropped_paths;           /* new paths that went to the overflow node */
    /* The stack of open regions: frames_first, or once deeper an array of
     * frames_cap frames allocated by growth (the old one freed after the new
     * one is complete and published: the sampling signal handler, which
     * interrupts its own thread, reads the top frame through either). */
    struct pomp_frame *frames;
    uint32_t frames_cap, max_depth;
    struct pomp_value_pool values;    /* blocks for the nodes' user values */
    struct pomp_node *counted;        /* the node the last recorded event counted on */
    struct pomp_node *task_hit[2];    /* the task roots found last, newest first (task_root_of) */
    struct pomp_node *share_hit;      /* the team share found last (team_child_of) */
    /* Every node, by a hash of its parent, region, fork and task root
     * (find_child): index_slots of them (a power of two), linear probing,
     * at most half full. */
    struct pomp_node **child_index;
    uint32_t index_slots;
    uint32_t nfast;                   /* sites counted inline (fast[]) */
    uint32_t fast_evict;              /* where the search for a slot starts when fast[] is full */
    uint32_t fast_registrations;      /* registrations so far (pomp_fast_site.registered) */
    struct pomp_fast_site fast[POMP_FAST_SITES];
    /* Where the top frame's node is published for the inserted code: the
     * owning thread's POMP_Fast_top once it registered a site
     * (pomp_profile_fast_attach), else top_unread. Written on every push and pop,
     * and when a leaf opens (&leaf: no node) and closes. */
    const void **top_slot;
    const void *top_unread;
    /* What libpomp last wrote there: the slot holds something else while the
     * inserted code runs an execution it counted inline (POMP_Fast_task_counted:
     * its task root published for its body) */
    const void *published;
    struct pomp_frame frames_first[POMP_INLINE_FRAMES];
};

/* Sets up an empty profile that grows up to max_nodes nodes (a first chunk is
 * allocated here). Returns 0, or -1 when out of memory. */
int pomp_profile_init(struct pomp_profile *p, uint32_t max_nodes, uint64_t now);

/* Releases the nodes (the profile itself belongs to the caller). */
void pomp_profile_destroy(struct pomp_profile *p);

/* The timestamp of an event that is counted, not timed (a throttled region). */
#define POMP_UNTIMED UINT64_MAX

/* A region this many times shorter than the throttle's mean is throttled after
 * this many times fewer executions (below). */
#define POMP_THROTTLE_EARLY 10
/* The throttle is checked every this many executions of a node (a power of 2). */
#define POMP_THROTTLE_CHECK_EVERY 1024

/* A region whose executions on one call path reach throttle_visits with a mean
 * time under throttle_ns is throttled (TAU's rule, 100,000 under 10 us by
 * default), and so is one that reaches a tenth of them with a mean under a
 * tenth of it (10,000 under 1 us): timing such an execution costs about as
 * much as the execution, and 10,000 of them say its mean as well, while
 * 100,000 made a fixed cost that a short run of a fine-grained task program
 * felt (N-queens: about 6 ms of a 46 ms kernel). From then on its executions, and what runs inside them, are
 * counted on their nodes (visits, begins, untimed) but not timed: no clock, no
 * trace record, no figures of time; their time stays with the enclosing
 * region's own time. Never throttled: waits (POMP_Region_s.a_wait), lock
 * call sites while tracing (traced_lock), and a task's executions (task
 * roots, timed even inside a throttled region, and so is what they open:
 * pomp_frame.untimed_below), except those the inserted code counts inline
 * directly inside an execution of a task (POMP_FAST_EXECUTION); a frame
 * opened timed closes timed (pomp_thread_throttled_needs_time). */
void pomp_profile_set_throttle(struct pomp_profile *p, uint64_t visits, uint64_t ns);

/* The deepest nesting recorded (POMP_PROFILE_DEPTH), at least POMP_FIRST_DEPTH. */
void pomp_profile_set_max_depth(struct pomp_profile *p, uint32_t depth);

/* Calls fn for every node of the profile (not the root or the overflow node). */
void pomp_profile_for_each_node(struct pomp_profile *p, void (*fn)(struct pomp_node *));

/* Returned by the functions below (never to the user) when the event changed no
 * figure: it opened, closed or happened in a region skipped while off. */
#define POMP_PROFILE_SKIPPED (-1)
/* Returned by pomp_profile_begin when the begin took over the frame the
 * runtime opened for the same construct (a masked block the OMPT bridge
 * opened first: pomp_profile_mark_adoptable), whose region is then in
 * *adopted_from: a trace closes it there. Counts as POMP_SUCCESS. */
#define POMP_PROFILE_ADOPTED (-2)

/* The four event kinds of seed 002: enter/exit of the construct, begin/end of
 * its structured block. Each returns a POMP error code or POMP_PROFILE_SKIPPED.
 * off (POMP_Off): no region is opened, but a frame is kept so that the closing
 * event matches; regions opened before POMP_Off close and count as usual. */
/* The OpenMP runtime's start (its call of ompt_start_tool, on either
 * runtime), in pomp_now() ticks; 0 before. A task creation that began before
 * it had no earlier task to wait for: what ran until its task began is the
 * runtime's start, not a wait for dependences (pomp_profile.c). LLVM libomp
 * starts the tool at main's first runtime call, before such a creation, and
 * initializes its task layer inside it: not told apart there. */
void pomp_profile_runtime_started(uint64_t now);
int32_t pomp_profile_enter(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now, int off);
int32_t pomp_profile_begin(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now, int off,
                           struct POMP_Region_s **adopted_from);
int32_t pomp_profile_end(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now);
/* The top frame's block, of region r and ended (an entered frame: the
 * master's parallel region), goes on to now, and back to start where start
 * (not 0) is earlier than its begin: its body time grows by the stretch since
 * its end and the one before its begin. */
void pomp_profile_extend_block(struct pomp_profile *p, const struct POMP_Region_s *r,
                               uint64_t start, uint64_t now);
/* A later part of the execution of task region r, whose begin an earlier part
 * counted (an untied task resumed after a task scheduling point, on this
 * thread or on another): a frame in r's task root like a begin's, closed by
 * pomp_profile_end, that counts no begin, so that the task root's begins stay
 * the executions and each part's time is the thread's that ran it. */
int32_t pomp_profile_resume(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now, int off);
int32_t pomp_profile_exit(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now);
/* The top frame, a task's execution of region r as a runtime reported it,
 * turns out to be the runtime's own helper rather than a task of the program
 * (libomp cuts a large taskloop with tasks that create the others): its
 * begin is taken back, and its time, which stays in the task root, counts for
 * no execution's shortest or longest. Anything else on top: nothing. */
void pomp_profile_uncount_begin(struct pomp_profile *p, const struct POMP_Region_s *r);
/* A single event (atomic, flush, user event, runtime call, loop iteration):
 * inside its own open region it counts as a begin of that region, elsewhere as
 * a visit of zero duration. part: the event is part of an execution of its
 * construct (a loop's iteration), a begin wherever it comes: a taskloop's
 * iterations run in tasks, where the taskloop's frame is not on top. */
int32_t pomp_profile_event(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now, int off,
                           int part);

/* The OMPT implicit task of a team member that did not fork the team: opens a
 * frame for its share of region r, counted as one begin, on a node keyed by r
 * and by fork, the master's node of the region. The frame closes with
 * pomp_profile_exit; a POMP begin/end of r inside it marks the block (the
 * instrumented Parallel_begin/end) without a second begin. */
/* Marks the top frame, a begin the OMPT bridge made for a construct the
 * instrumentation begins only inside it (masked: the runtime reports it before
 * POMP_Masked_begin runs): a POMP begin of the same construct on top of it
 * takes the frame over, and the bridge's node is given back, so the construct
 * is counted once, as POMP's region. */
void pomp_profile_mark_adoptable(struct pomp_profile *p);

/* Marks the top frame, a parallel region's on the thread that forks the team,
 * if its node is fork: the fork point a bridge handed the team's members
 * (pomp_profile_team_begin), which the tasks run in the team are keyed by. */
void pomp_profile_mark_fork(struct pomp_profile *p, const struct pomp_node *fork);

/* Registers count, the inline counter of the site of region r whose event was
 * just recorded (p->counted): r is throttled, or (an atomic) no trace is
 * written, so nothing of the site is timed anyway. events is the number of
 * POMP events a visit stands for, what what a visit counts (an execution: the
 * begin just recorded opened a task's frame on its task root). Says nothing
 * when it cannot (a full table, a path that went to the overflow node): the
 * site goes on through its POMP calls. Called on the owner thread. */
void pomp_profile_fast_register(struct pomp_profile *p, struct POMP_Fast_count *count,
                                struct POMP_Region_s *r, unsigned events, enum pomp_fast_what what);

/* Adds every registered site's visits to its node and drops the sites.
 * owner: on the counter's thread (counters are reset and switched off); else
 * (the finalizer) the counters are only read. */
void pomp_profile_fast_fold(struct pomp_profile *p, int owner);
/* Publishes the top frame's node to slot (the owning thread's POMP_Fast_top),
 * from now on; detach stops it (before the thread's TLS goes, or when another
 * thread closes the profile's frames at the end). */
void pomp_profile_fast_attach(struct pomp_profile *p, const void **slot);
void pomp_profile_fast_detach(struct pomp_profile *p);

/* A thread's end: copies each site's count (the counters go with the thread's
 * TLS), for pomp_profile_fast_fold. Owner thread only. */
void pomp_profile_fast_save(struct pomp_profile *p);

/* An execution of a task the inserted code counted inline runs its body with
 * its task root published as POMP_Fast_top (POMP_Fast_task_counted), and no
 * frame: what its body counts inline counts on that root's paths, as in a
 * timed execution. A region that opens in it (an event libpomp records)
 * first makes the rest of it a frame on that root (inline_task: its time
 * from then on, no execution counted: the begin was), so that the region is
 * the task's, not that of the frame the task ran in; the inserted code's end
 * closes it (pomp_profile_inline_task_end). Opening events call claim first,
 * with their time (POMP_UNTIMED: the clock's). */
void pomp_profile_inline_task_open(struct pomp_profile *p, uint64_t now);
static inline void pomp_profile_claim_inline_task(struct pomp_profile *p, uint64_t now)
{
    if (__builtin_expect(*p->top_slot != p->published, 0))
        pomp_profile_inline_task_open(p, now);
}
/* The end of an execution counted inline whose body left POMP_Fast_top
 * other than its root: closes, at now, the frame its body's regions made of
 * it, if they did (then that frame is on top, and the slot holds what
 * libpomp published for it; else the counter's root changed meanwhile, and
 * nothing is closed). */
void pomp_profile_inline_task_end(struct pomp_profile *p, uint64_t now);

/* The frame an execution just begun on p (its task root the node counted
 * last, its frame on top) began right in: the frame below, where no leaf (a
 * wait, a timed creation) was open, or NULL. Only there may a throttled
 * construct's execution count in place (POMP_FAST_EXECUTION_IN_PLACE): a
 * test of a few loads, made before the offer (~150 instructions) at every
 * timed execution, most of which run in a wait. */
static inline const struct pomp_frame *pomp_profile_begun_in_place(const struct pomp_profile *p)
{
    const struct pomp_node *n = p->counted;
    if (p->depth < 2 || !n || !n->task_root)
        return NULL;
    const struct pomp_frame *top = &p->frames[p->depth - 1], *below = top - 1;
    if (!top->task || top->node != n || below->task || below->skipped || below->node == &p->overflow ||
        (top->leaf_below.region && top->leaf_below.depth == p->depth - 1))
        return NULL;
    return below;
}

/* Opens a leaf of region r at tick start on top of the stack and returns 1,
 * or returns 0 where a frame is needed instead: leaves off (a sampler), a
 * leaf open already, the top frame skipped (measurement paused) or untimed
 * (throttled), no timestamp, or the stack too deep. construct: opened by an
 * instrumented construct's enter. */
static inline int pomp_profile_leaf_open(struct pomp_profile *p, struct POMP_Region_s *r,
                                         uint64_t start, int construct)
{
    pomp_profile_claim_inline_task(p, start);
    const struct pomp_frame *top = &p->frames[p->depth - 1];
    if (p->no_leaves || p->leaf.region || p->too_deep || top->skipped || top->untimed ||
        start == POMP_UNTIMED)
        return 0;
    p->leaf.start = start;
    p->leaf.child = top->child;
    p->leaf.switched = p->task_switched;
    p->leaf.depth = p->depth;
    p->leaf.in_task = top->in_task;
    p->leaf.under_task = top->under_task;
    p->leaf.construct = (uint8_t)construct;
    p->leaf.dependences_waited = 0;
    p->leaf.waited = 0;
    p->leaf.region = r;
    /* no inline counter counts inside a wait or a creation: a task counted
     * there would put its time into the leaf (POMP_Fast_top: no node) */
    *p->top_slot = p->published = &p->leaf;
    return 1;
}

/* Is a leaf of region r open on top of the stack, for r's exit to close
 * (pomp_profile_leaf_close)? On top: no frame above it, or none of r's (a
 * frame left open inside the wait, closed by the exit as it would be by a
 * frame's). A recursion of a task construct into itself opens its inner
 * creations as frames, above the leaf of the outer one. */
static inline int pomp_profile_leaf_is(const struct pomp_profile *p, const struct POMP_Region_s *r)
{
    /* not while regions beyond the depth recorded are open: a leaf of r
     * opened below them is not this exit's, which counts one of them down */
    return p->leaf.region == r && !p->too_deep &&
           (p->leaf.depth == p->depth || p->frames[p->depth - 1].region != r);
}

/* Counts the leaf open (of region r) as an execution of r under the top frame,
 * ending at now (ticks). Frames left open above it (a task that never ended)
 * are closed first, as an exit would; returns POMP_ERR_NESTING if no leaf is
 * open (the frame it stood on closed meanwhile: pop dropped it). A leaf that
 * a region opened inside made a frame closes as that frame, by an exit. */
int32_t pomp_profile_leaf_close(struct pomp_profile *p, struct POMP_Region_s *r, uint64_t now);

/* The end of measurement, at tick end: closes the frames still open (the
 * program ended inside them: exit() in a parallel region, a signal), so that
 * their time runs to the end instead of being lost, and counts them
 * (open_at_end). Not on the owner thread: the finalizer, once no thread
 * writes. */
void pomp_profile_close_open(struct pomp_profile *p, uint64_t end);

int32_t pomp_profile_team_begin(struct pomp_profile *p, struct POMP_Region_s *r,
                                const struct pomp_node *fork, uint64_t now, int off);

#endif
