/* The bridge's per-thread state: the teams the thread forked (read by their
 * workers), the teams it is a member of, and the runtime's scopes (begin/end
 * callback pairs) still open on it. Allocated at the runtime's thread-begin
 * callback, or handed on from an ended thread (bridge_thread_retire), and
 * never freed: a worker may read its master's team records until the end of
 * the run. */
#ifndef POMP_BRIDGE_THREAD_H
#define POMP_BRIDGE_THREAD_H

#include <stdint.h>

#include "pomp_record.h"

struct POMP_Region_s;
struct pomp_node;

enum {
    BRIDGE_MAX_NESTING = 8,  /* nested teams tracked per thread (deeper ones are not recorded) */
    BRIDGE_TEAM_RING = 16,   /* instances of a nesting level whose join time stays readable */
    BRIDGE_FIRST_SCOPES = 64, /* open runtime scopes a thread's state holds; more grow it, */
    BRIDGE_MAX_SCOPES = 1 << 16, /* doubling, up to this (a recursion of followed tasks, each
                                    run inside its parent's wait, opens one per level) */
    BRIDGE_MAX_DEVICES = 16, /* devices a thread offloads to with a stream of its own (more are not recorded) */
};

/* One instance of a parallel region, written by the thread that forked it
 * before its team starts; parallel_data->ptr points here. A worker reads
 * `join` when the runtime ends its implicit barrier, which libomp does only
 * when the worker is next put to work: the instance may be over by then, and
 * `seq` tells whether the slot still holds it. */
struct bridge_team {
    struct POMP_Region_s *region;  /* POMP's parallel region, or the bridge's; NULL: not recorded */
    const struct pomp_node *fork;  /* the master's node of the region: where worker shares merge */
    uint8_t owned;                 /* the bridge opened the master's frame (code not instrumented) */
    uint8_t league;                /* a league of teams (the teams construct): no region */
    uint64_t id;                   /* process-wide instance id (the collector API's region id) */
    uint64_t seq;                  /* instance number (atomic) */
    uint64_t join;                 /* ticks when the master left the closing barrier, 0 before (atomic) */
    struct pomp_fork_record *sampling_fork; /* POMP_SAMPLING: the master's stack at the fork */
} __attribute__((aligned(64))); /* one cache line: a worker's begin reads it from the master's cache */

/* A team this thread is in: one implicit task. */
struct bridge_membership {
    struct bridge_team *team;      /* NULL: the team is not recorded */
    struct POMP_Region_s *region;  /* the team's region, copied at the implicit task's begin */
    uint64_t seq;                  /* the instance it joined */
    uint64_t id;                   /* the instance's id, for the collector API */
    uint64_t start;                /* ticks of the implicit task's begin */
    uint64_t end;                  /* a worker's end of its share (the join), 0 until known */
    uint8_t master;                /* thread 0 of the team: the one that forked it */
    uint8_t frame;                 /* a worker's team frame is open (pomp_profile_team_begin) */
    uint8_t body;                  /* the bridge opened the block: 1, Parallel_begin; 2, a league's Teams_begin */
    uint8_t runtime;               /* the runtime's own team (libomp's hidden helpers):
                                      nothing of it is recorded, its barrier neither */
};

enum bridge_scope_kind {
    SCOPE_SYNC,      /* sync region: barriers, taskwait, taskgroup */
    SCOPE_WORK,      /* worksharing construct */
    SCOPE_MASKED,
    SCOPE_WAIT,      /* mutex acquire .. acquired */
    SCOPE_MUTEX,     /* critical / ordered: acquire .. released */
    SCOPE_TASK,      /* an explicit task executing */
    SCOPE_DEPWAIT,   /* a wait for dependences: LLVM libomp's taskwait task, create ..
                        ompt_taskwait_complete (bridge_task.c) */
    SCOPE_TARGET,    /* a target construct (target_emi) */
    SCOPE_DEVICE_OP, /* a data operation or kernel launch (target_data_op_emi, target_submit_emi) */
};

/* A begin callback whose end callback is still to come. */
struct bridge_scope {
    struct POMP_Region_s *region;  /* the frame the bridge opened; NULL: none (POMP has it, or level) */
    struct POMP_Region_s *loop;    /* work: the loop region its chunks begin and end */
    const void *task;              /* task: the task's ompt_data_t; target: its code address;
                                      a taskloop the runtime gave no address: the program's
                                      call of it (bridge_program_caller), or NULL */
    const void *switched_from;     /* task: the ompt_data_t of the task this part of its
                                      execution interrupted; a switch back to it (not a
                                      completion) ends the part (an untied task's, resumed later) */
    struct pomp_thread *stream;    /* target, device op: the device stream it records on, or NULL */
    struct POMP_Region_s *on_stream; /* target, device op: the region open on the stream */
    int32_t device;                /* target: the device number */
    uint64_t start;                /* ticks of the begin */
    uint32_t depth;                /* masked: the profile depth of the frame it opened */
    uint16_t exit_kind;            /* event logged when the frame closes */
    uint8_t kind;                  /* enum bridge_scope_kind */
    uint8_t detail;                /* kind-specific: sync region kind, work type, mutex kind;
                                      task: 1 once it is known as the runtime's helper
                                      (bridge_task.c, taskloop_continued) */
    uint8_t chunk_open;            /* work: a chunk of `loop` is open */
    uint8_t body;                  /* the frame has an open block to end before its exit */
    uint8_t leaf;                  /* sync: `region` is counted at the end, without a frame
                                      (the profile's leaf: pomp_thread_leaf_open) */
    uint8_t nesting;               /* work: the thread's team memberships when it began
                                      (bridge_scope_nesting): a single's block ends at a
                                      barrier of its own team, not of one forked inside it */
};


enum { BRIDGE_CALLER_WALKS = 64 };

/* One call site's region, remembered by a thread for the next callback of the
 * same construct from the same address (a hot lock or critical left to the
 * runtime: each acquisition looked it up in the shared table, about 60 of a
 * throttled lock call's 466 instructions). */
struct bridge_region_memo {
    const void *codeptr;
    struct POMP_Region_s *region; /* NULL: nothing remembered */
    uint32_t construct;           /* enum bridge_construct */
    uint32_t generation;          /* bridge_regions_generation when found */
};

struct bridge_thread {
    struct bridge_thread *next;    /* every thread's state, for finalization */
    struct pomp_thread *pomp;      /* the thread's libpomp record, once it has one */
    int32_t thread_num;            /* index in the innermost team (registration of the record) */
    uint8_t sampling;              /* POMP_SAMPLING is on: forks keep the master's stack */
    uint8_t released;              /* the thread ends, its team let it go (close_released) */
    struct bridge_team *forking;   /* during a fork's collector callback: the new team */
    uint32_t forks;                /* teams forked by this thread and not yet ended */
    uint32_t nesting;              /* memberships in use */
    uint32_t nscopes;              /* scopes in use (more are counted, not kept) */
    uint32_t lost_scopes;          /* scopes beyond BRIDGE_MAX_SCOPES, still open */
    uint64_t forked[BRIDGE_MAX_NESTING];  /* instances forked per level */
    struct bridge_team teams[BRIDGE_MAX_NESTING][BRIDGE_TEAM_RING];
    struct bridge_membership member[BRIDGE_MAX_NESTING];
    struct bridge_scope *scope;    /* scope_first, or once more are open an array of scope_cap */
    uint32_t scope_cap;
    uint32_t league_tasks;         /* initial tasks of a league's teams this thread runs */
    uint32_t league_teams;         /* of those, the ones whose team region LLVM libomp forked */
    uint32_t league_team_forks;    /* forks open when it forked the last of them: a fork since
                                      is the program's (league_team_or_inner) */
    uint32_t caller_walks;         /* stack walks for a critical's missing address (bridge_mutex.c),
                                      at most BRIDGE_CALLER_WALKS */
    uint8_t wait_counted;          /* the lock wait begun now was counted inline: its acquired
                                      (or nest lock) callback does nothing (bridge_mutex.c) */
    uint64_t last_sync_end;        /* when the thread's last recorded sync region ended: a
                                      parallel region's closing barrier starts after it */
    struct pomp_thread *streams[BRIDGE_MAX_DEVICES]; /* per device, made at its first operation */
    struct bridge_region_memo wait_memo;      /* the last mutex wait's region (bridge_mutex.c) */
    struct bridge_region_memo construct_memo; /* the last critical's or ordered's */
    struct bridge_scope scope_first[BRIDGE_FIRST_SCOPES];
};

extern __thread struct bridge_thread *bridge_tls __attribute__((tls_model("initial-exec")));

/* b->nesting as a scope keeps it (memberships past 255 are one level). */
static inline uint8_t bridge_scope_nesting(const struct bridge_thread *b)
{
    return b->nesting < 255 ? (uint8_t)b->nesting : 255;
}

/* Allocates the calling thread's state (at thread begin, or at its first
 * callback if the tool started after it); NULL if memory ran out. */
struct bridge_thread *bridge_thread_create(void);

static inline struct bridge_thread *bridge_self(void)
{
    struct bridge_thread *b = bridge_tls;
    return __builtin_expect(b != NULL, 1) ? b : bridge_thread_create();
}

/* The calling thread ends: its state, if nothing of it is open, is handed on
 * to the next new thread (pomp_handoff.h), which would otherwise allocate,
 * clear and fault in 14 KB of its own. */
void bridge_thread_retire(void);

/* Every thread's state, newest first. */
struct bridge_thread *bridge_thread_list(void);

/* The scope on top, or NULL. */
static inline struct bridge_scope *bridge_scope_top(struct bridge_thread *b)
{
    return b->nscopes && !b->lost_scopes ? &b->scope[b->nscopes - 1] : NULL;
}

/* Room for more scopes (growth, twice as many; 0 at BRIDGE_MAX_SCOPES or out
 * of memory). Pointers to scopes are valid until the next push. */
int bridge_scopes_grow(struct bridge_thread *b);

/* Opens a scope (NULL when too deep: its end is then only counted down). */
static inline struct bridge_scope *bridge_scope_push(struct bridge_thread *b,
                                                     enum bridge_scope_kind kind)
{
    if (__builtin_expect(b->nscopes == b->scope_cap, 0) &&
        (b->lost_scopes || !bridge_scopes_grow(b))) {
        b->lost_scopes++;
        return NULL;
    }
    /* the slot cleared before it is counted: a signal handler on this thread
     * (the collector API's STATE) reads the scope on top */
    struct bridge_scope *s = &b->scope[b->nscopes];
    *s = (struct bridge_scope){.kind = (uint8_t)kind};
    __atomic_signal_fence(__ATOMIC_RELEASE);
    b->nscopes++;
    return s;
}

/* Set when no mutex release will come any more (bridge_tool.c: LLVM libomp
 * 19's first root thread ended): a critical or ordered scope opened before
 * then is closed by the next scope that ends beneath it. */
extern int bridge_mutex_no_release;
/* Closes the top scope, a critical's or ordered's whose release will not come,
 * at the current time (bridge_mutex.c). */
void bridge_mutex_close_unreleased(struct bridge_thread *b);

/* Closes the top scope if it is of this kind and returns it (valid until the
 * next push); NULL otherwise. */
static inline struct bridge_scope *bridge_scope_pop(struct bridge_thread *b,
                                                    enum bridge_scope_kind kind)
{
    if (b->lost_scopes) {
        b->lost_scopes--;
        return NULL;
    }
    if (__builtin_expect(b->nscopes && b->scope[b->nscopes - 1].kind == SCOPE_MUTEX &&
                             kind != SCOPE_MUTEX &&
                             __atomic_load_n(&bridge_mutex_no_release, __ATOMIC_RELAXED),
                         0))
        bridge_mutex_close_unreleased(b);
    if (!b->nscopes || b->scope[b->nscopes - 1].kind != kind)
        return NULL;
    return &b->scope[--b->nscopes];
}

/* The innermost team membership, or NULL. */
static inline struct bridge_membership *bridge_membership_top(struct bridge_thread *b)
{
    return b->nesting && b->nesting <= BRIDGE_MAX_NESTING ? &b->member[b->nesting - 1] : NULL;
}

#endif
