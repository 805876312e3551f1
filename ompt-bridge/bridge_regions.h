/* Regions of what the runtime reports (OMPT), keyed by construct and code
 * address (codeptr_ra): one region per call site of the runtime, named after
 * the run by the code address (bridge_symbols.c). Without a code address, one
 * region per construct; the call path shows where it happened. */
#ifndef POMP_BRIDGE_REGIONS_H
#define POMP_BRIDGE_REGIONS_H

#include "pomp_device_ops.h"
#include "pomp_record.h"

enum bridge_construct {
    BC_PARALLEL,
    BC_FOR,
    BC_SECTIONS,
    BC_SINGLE,
    BC_WORKSHARE,
    BC_DISTRIBUTE,
    BC_TASKLOOP,
    BC_SCOPE,
    BC_BARRIER,                     /* explicit barrier */
    BC_IMPLICIT_BARRIER_PARALLEL,   /* the barrier that ends a parallel region */
    BC_IMPLICIT_BARRIER_WORKSHARE,  /* the barrier that ends a worksharing construct */
    BC_IMPLICIT_BARRIER,            /* implicit barrier of unspecified kind */
    BC_IMPLEMENTATION_BARRIER,      /* a barrier of the runtime's (GCC code's barriers on libomp) */
    BC_TEAMS_BARRIER,
    BC_TASKWAIT,
    BC_TASKGROUP,
    BC_CRITICAL,
    BC_ORDERED,
    BC_MASKED,
    BC_TASK,                        /* a task's execution */
    BC_TASK_CREATE,                 /* a task's creation, by the thread that encounters it */
    BC_TASK_DEPENDENCES,
    BC_WAIT_LOCK,
    BC_WAIT_NEST_LOCK,
    BC_WAIT_CRITICAL,
    BC_WAIT_ORDERED,
    BC_WAIT_ATOMIC,
    BC_WAIT_DEPENDENCES,            /* an undeferred task's (or a taskwait's) wait for its
                                       dependences: LLVM libomp's "taskwait task" */
    BC_CANCEL_ACTIVATED,
    BC_CANCEL_DETECTED,
    BC_CANCEL_DISCARDED,
    BC_TARGET,                      /* target constructs the instrumentation did not see */
    BC_TARGET_ENTER_DATA,           /* also the start of a target data region */
    BC_TARGET_EXIT_DATA,            /* also the end of a target data region */
    BC_TARGET_UPDATE,
    BC_DEVICE_OP,                   /* first of the device operations, in enum pomp_device_op order */
    BC_COUNT = BC_DEVICE_OP + POMP_DEVICE_OPS
};

/* The code of an object unloaded by dlclose, [lo, hi): its call sites' slots
 * are let go, so that an object loaded at the same addresses since gets
 * regions of its own (they were the unloaded one's, named after it). The
 * regions stay, with what they measured. */
void bridge_regions_forget(uintptr_t lo, uintptr_t hi);
/* How many times call sites were let go: a region a thread remembered for a
 * code address (bridge_region_memo) is that address's while it is unchanged. */
extern uint32_t bridge_regions_generation;

/* The CTC type of a construct's regions ("parallel", "wait", ...). */
const char *bridge_construct_type(enum bridge_construct c);

/* The region of construct c at code address codeptr (NULL: the construct's
 * region without an address). Lock-free once the region exists; the first
 * event of a call site creates it under libpomp's registry lock, like a POMP
 * handle initialized lazily. NULL only if memory ran out. */
struct POMP_Region_s *bridge_region_keyed(enum bridge_construct c, const void *codeptr);

/* The region of (c, codeptr) if an event made it already, else NULL: one
 * probe, nothing claimed. */
struct POMP_Region_s *bridge_region_made(enum bridge_construct c, const void *codeptr);

/* bridge_region_keyed for a code address inside instrumented construct `in`
 * (NULL: none known): a region it makes keeps the construct's place, against
 * which the line its address resolves to is checked after the run. */
struct POMP_Region_s *bridge_region_keyed_in(enum bridge_construct c, const void *codeptr,
                                             const struct POMP_Region_s *in);

/* The region of construct c at the place (file, lines) of region `at`: what
 * the runtime does inside an instrumented construct (a device operation of a
 * target region), named after it rather than after a code address; inside a
 * region the runtime reported, at that region's code address (a parallel
 * region forked by a tail call, bridge_parallel.c). */
struct POMP_Region_s *bridge_region_at(enum bridge_construct c, const struct POMP_Region_s *at);

/* The same regions named by a number (1, 2, ...; 0: none, memory ran out),
 * for data with no room for a pointer: a task's one word of OMPT data holds
 * the region of its execution beside its trace id (bridge_task.c). Lock-free
 * as the functions above; a number fits BRIDGE_REGION_NUMBER_BITS bits. */
#define BRIDGE_REGION_NUMBER_BITS 13
uint32_t bridge_region_number(enum bridge_construct c, const void *codeptr);
uint32_t bridge_region_number_at(enum bridge_construct c, const struct POMP_Region_s *at);
/* A number for POMP's region r itself (0: the table is full). */
uint32_t bridge_region_number_of(struct POMP_Region_s *r);
/* The region of a number those gave; NULL for 0 and for numbers they never give. */
struct POMP_Region_s *bridge_region_numbered(uint32_t number);
/* The code address region `number` is keyed by, if it is construct c's at a
 * code address (not one past the table, nor at an instrumented construct's
 * place); NULL otherwise. */
const void *bridge_region_numbered_code(uint32_t number, enum bridge_construct c);

/* The call sites the bridge keeps apart (its table's size), and the events
 * of sites past them, measured under their construct's region without an
 * address (said at the end). */
unsigned bridge_region_table_size(void);
uint64_t bridge_region_events_past_table(void);

/* The construct's one region without a code address, made by its first use. */
struct POMP_Region_s *bridge_region_unkeyed(enum bridge_construct c);
extern struct POMP_Region_s *bridge_unkeyed_regions[BC_COUNT];

/* The runtime library's own code (set once when the tool starts; empty
 * before): a code address there names no place of the program. libomp's
 * libgomp layer reports some constructs of GCC code at an address inside
 * itself (a barrier inside GOMP_barrier's callee), which symbols would name
 * after an unrelated runtime function. */
extern uintptr_t bridge_runtime_code_lo, bridge_runtime_code_span;
/* libpomp's own code, likewise. */
extern uintptr_t bridge_own_code_lo, bridge_own_code_span;

/* The innermost return address on the calling thread's stack in neither the
 * runtime nor libpomp: the program's call of the runtime, for a construct the
 * runtime reports without one (LLVM libomp's taskloop: no address, and its
 * tasks at one inside __kmpc_taskloop). Walks the stack (libunwind, which
 * may take the loader's lock): once per taskloop, never per task, and a
 * bounded number of times per thread elsewhere. NULL if none is found. */
const void *bridge_program_caller(void);

/* Whether codeptr names a place of the program: not NULL, not in the
 * runtime. A task keeps the runtime's address (a taskloop's tasks are made by
 * libomp's __kmpc_taskloop, which says more than no name). */
static inline int bridge_code_is_program(enum bridge_construct c, const void *codeptr)
{
    return codeptr && ((uintptr_t)codeptr - bridge_runtime_code_lo >= bridge_runtime_code_span ||
                       c == BC_TASK || c == BC_TASK_CREATE);
}

static inline struct POMP_Region_s *bridge_region(enum bridge_construct c, const void *codeptr)
{
    if (bridge_code_is_program(c, codeptr))
        return bridge_region_keyed(c, codeptr);
    struct POMP_Region_s *r = __atomic_load_n(&bridge_unkeyed_regions[c], __ATOMIC_ACQUIRE);
    return __builtin_expect(r != NULL, 1) ? r : bridge_region_unkeyed(c);
}

/* What a POMP region stands for, as far as the runtime's reports go: the
 * classes of constructs the runtime reports, each covering the CTC types the
 * instrumenter gives them (docs/ctc.md). Regions the bridge made, and POMP
 * regions of any other type, are BRC_OTHER. */
enum bridge_class {
    BRC_UNKNOWN = 0, /* not classified yet */
    BRC_OTHER,
    BRC_PARALLEL,
    BRC_TEAMS,
    BRC_LOOP,        /* for, for simd, loop, do */
    BRC_SECTIONS,
    BRC_SINGLE,
    BRC_WORKSHARE,
    BRC_DISTRIBUTE,  /* distribute and its composites */
    BRC_TASKLOOP,
    BRC_SCOPE,
    BRC_BARRIER,
    BRC_TASKWAIT,
    BRC_TASKGROUP,
    BRC_CRITICAL,
    BRC_ORDERED,
    BRC_TASK,
    BRC_TASK_UNTIED_SPLIT, /* a task construct whose body the instrumentation left without
                              events (CTC bodyEvents=none: an untied task that may resume on
                              another thread): the bridge measures its executions */
    BRC_LOCK_SET,    /* an instrumented omp_set_lock or omp_set_nest_lock call */
};

enum bridge_class bridge_classify(struct POMP_Region_s *r);

/* The class of region r (NULL: BRC_OTHER): one load once the region was
 * classified, which its first question does (a few string compares). */
static inline enum bridge_class bridge_class_of(struct POMP_Region_s *r)
{
    if (!r)
        return BRC_OTHER;
    unsigned c = __atomic_load_n(&r->bridge_class, __ATOMIC_RELAXED);
    return __builtin_expect(c != BRC_UNKNOWN, 1) ? (enum bridge_class)c : bridge_classify(r);
}

#endif
