/* The OpenMP directives pomp knows how to instrument, and how (construct_table.c);
 * shared by the construct handlers (constructs.c) and the context analysis (context.c). */
#ifndef POMP_CONSTRUCTS_H
#define POMP_CONSTRUCTS_H

#include "directive.h"

enum shape {
    SHAPE_NONE,         /* passed through: no events */
    SHAPE_BLOCK,        /* enter, begin, end, exit */
    SHAPE_BEGIN_END,    /* begin (the first event) and end inside the block: master, masked */
    SHAPE_AROUND,       /* enter before, exit after the whole construct: loops, target regions */
    SHAPE_PAIR,         /* stand-alone: enter before, exit after the pragma */
    SHAPE_EVENT_BEFORE, /* stand-alone: one event before the pragma (cancel) */
    SHAPE_EVENT_AFTER,  /* stand-alone: one event after it (flush, doacross) */
    SHAPE_ATOMIC,       /* one event after the atomic statement */
    SHAPE_SECTIONS,     /* enter/exit, and Section_begin/end around each section */
};

enum {
    F_PARALLEL_RTC = 1 << 0,   /* Parallel_enter's num_threads and if values */
    F_LOOP_RTC = 1 << 1,       /* Loop_enter's chunk, init, final and incr values */
    F_ITERATIONS = 1 << 2,     /* iteration events in the body (--iterations) */
    F_NO_EVENTS_INSIDE = 1 << 3, /* simd-like: nothing in the body is instrumented */
    F_DEVICE = 1 << 4,         /* the body may run on a device: nothing in it is instrumented */
    F_IMPLICIT_BARRIER = 1 << 5, /* ends with a barrier that nowait removes */
    F_SCHEDULING = 1 << 6,     /* a task scheduling point of the encountering task */
};

struct construct {
    const char *name;
    enum shape shape;
    const char *stem;   /* POMP_<stem>_enter, ... */
    const char *type;   /* CTC type (NULL: the directive's name) */
    unsigned flags;
};

/* Does the directive have POMP events around a statement (not a stand-alone
 * or pass-through directive)? (constructs.c) */
int directive_needs_statement(const struct directive *d);

/* What still measures directive d where pomp leaves it uninstrumented, as
 * the end of a warning ("the runtime's events still measure it"); gcc: the
 * compiler is GCC, whose master, atomic, flush and static loops make no
 * runtime call. */
const char *construct_left_measured_by(const struct directive *d, int gcc);

/* What pomp does with a (leaf, composite or unsplit) directive. */
struct construct construct_of(const struct directive *d);
/* The same for the directive of pragma p, which knows its statement (an
 * atomic's x: atomic_operand.h). */
struct pragma;
struct construct construct_of_pragma(const struct directive *d, const struct pragma *p);

/* Whether a pragma's text (after "#pragma") is a construct as the counts
 * count one (instrument.h: construct_counts): an omp directive with events,
 * or one pomp does not know; not a pass-through one (declare reduction,
 * declare simd, threadprivate), nor a section of sections, nor pomp's own. */
int construct_pragma_counts(const char *text);
/* Does a pragma's text start with the word omp? (Also where it does not parse.) */
int construct_text_is_omp(const char *text);


#endif
