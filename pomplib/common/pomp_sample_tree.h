/* A thread's sampled call-path tree: one node per distinct user-model call
 * path (outermost frame first), each counting the samples that ended there,
 * per OpenMP state class. The nodes come from a pool allocated when the
 * thread started sampling, so adding a sample, which happens inside the
 * sampling signal handler, never allocates. */
#ifndef POMP_SAMPLE_TREE_H
#define POMP_SAMPLE_TREE_H

#include <stddef.h>
#include <stdint.h>

/* The deepest user-model stack a sample or a fork point keeps. */
#define POMP_SAMPLE_MAX_FRAMES 128

/* What the thread was doing when sampled, from its OMPT state (seed 003 §6).
 * The first three are "OpenMP Work", the others "OpenMP Wait". */
#define POMP_SAMPLE_STATE_LIST(X)                                  \
    X(WORK, "work", "")                                            \
    X(SERIAL, "serial", "")                                        \
    X(REDUCTION, "reduction", "")                                  \
    X(IDLE, "idle", "<OMP-idle>")                                  \
    X(IMPLICIT_BARRIER, "implicit_barrier", "<OMP-implicit_barrier>") \
    X(EXPLICIT_BARRIER, "explicit_barrier", "<OMP-explicit_barrier>") \
    X(TASKWAIT, "taskwait", "<OMP-taskwait>")                      \
    X(TASKGROUP, "taskgroup", "<OMP-taskgroup_wait>")              \
    X(LOCK, "lock", "<OMP-lock_wait>")                             \
    X(CRITICAL, "critical", "<OMP-critical_section_wait>")         \
    X(ORDERED, "ordered", "<OMP-ordered_section_wait>")            \
    X(ATOMIC, "atomic", "<OMP-atomic_section_wait>")               \
    X(TARGET, "target", "<OMP-target_wait>")                       \
    X(OVERHEAD, "overhead", "<OMP-overhead>")

enum pomp_sample_state {
#define POMP_SAMPLE_STATE_ENUM(id, name, pseudo) POMP_SAMPLE_##id,
    POMP_SAMPLE_STATE_LIST(POMP_SAMPLE_STATE_ENUM)
#undef POMP_SAMPLE_STATE_ENUM
    POMP_SAMPLE_STATES
};
#define POMP_SAMPLE_FIRST_WAIT POMP_SAMPLE_IDLE

const char *pomp_sample_state_name(enum pomp_sample_state s);
/* The pseudo-function shown at the leaf of a waiting sample ("" for work). */
const char *pomp_sample_state_pseudo_frame(enum pomp_sample_state s);

/* Frames are code addresses; these small values stand for pseudo-frames. */
#define POMP_SAMPLE_PSEUDO_BASE 1u                      /* + a state: <OMP-...> */
#define POMP_SAMPLE_TRUNCATED (POMP_SAMPLE_PSEUDO_BASE + POMP_SAMPLE_STATES)
/* a working sample inside the OpenMP runtime's code, not in a wait: <OpenMP runtime> */
#define POMP_SAMPLE_RUNTIME_CODE (POMP_SAMPLE_TRUNCATED + 1)
/* a sample inside libpomp's own code: <pomp measurement> */
#define POMP_SAMPLE_MEASUREMENT (POMP_SAMPLE_TRUNCATED + 2)
/* a sample whose stack was not walked: the dynamic loader was changing or
 * walking its list of objects (pomp_sampling.c): <dynamic loader busy> */
#define POMP_SAMPLE_LOADER_BUSY (POMP_SAMPLE_TRUNCATED + 3)
#define POMP_SAMPLE_PSEUDO_END (POMP_SAMPLE_TRUNCATED + 4)

struct pomp_sample_node {
    uintptr_t frame;
    uint32_t parent, first_child, next_sibling; /* pool indices; 0 is the root */
    uint32_t samples[POMP_SAMPLE_STATES];       /* samples whose path ends here */
};

struct pomp_sample_tree {
    struct pomp_sample_node *nodes; /* nodes[0] is the root */
    uint32_t used, capacity;
    uint32_t truncated;             /* samples whose path did not fit the pool */
};

int pomp_sample_tree_init(struct pomp_sample_tree *t, uint32_t capacity);
void pomp_sample_tree_destroy(struct pomp_sample_tree *t);

/* Counts weight samples of the path frames[0] (outermost) .. frames[n-1] (leaf).
 * Async-signal-safe. A path that does not fit the pool is counted under a
 * "<truncated>" child of the deepest node that exists. */
void pomp_sample_tree_add(struct pomp_sample_tree *t, const uintptr_t *frames, size_t n,
                          enum pomp_sample_state state, uint32_t weight);

/* Adds every path of src to dst (after the run, to merge threads). Returns 0, or
 * -1 when dst's pool ran out (the rest is counted as truncated). */
int pomp_sample_tree_merge(struct pomp_sample_tree *dst, const struct pomp_sample_tree *src);

#endif
