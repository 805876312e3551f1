/* Where a pragma stands: inside device code or a simd-like loop (nothing is
 * instrumented there), directly in a host teams region (thread id 0), in an
 * untied task that may move between threads, or in a region that cancellation
 * may leave early. Found from the nesting of the pragmas' statements. */
#ifndef POMP_CONTEXT_H
#define POMP_CONTEXT_H

#include "directive.h"
#include "rewrite.h"

struct context {
    const char *skip;      /* why nothing is instrumented here, or NULL */
    const char *tid;       /* the thread id expression */
    int in_migrating_task; /* directly in the body of an untied task that may migrate */
    int declare_target;    /* skipped: in a declare target block, which may run on the host */
};

struct context context_of(const struct rewriter *w, const struct pragma *p);

/* Is a closing event inside the given leaves of q (names, innermost last), or
 * around q (nleaves 0), in a region that cancellation may leave past it? */
int close_may_be_skipped(const struct rewriter *w, const struct pragma *q,
                         const char *const *leaves, size_t nleaves);
/* Is this worksharing leaf of q (for, sections) the target of a cancel in q? */
int canceled_leaf(const struct rewriter *w, const struct pragma *q, const char *leaf);
/* Does untied task q have a task scheduling point in its own body? */
int untied_may_migrate(const struct source *s, const struct pragma *q, const struct directive *d);

/* Does loop construct d at p bind to a teams region (bind(teams), or closely
 * nested in a teams construct without a bind clause)? */
int loop_binds_to_teams(const struct rewriter *w, const struct pragma *p,
                        const struct directive *d);

/* Per function of s (index into s->ast.functions), whether it is device code
 * outside the declare target blocks, whose constructs get no POMP call: a
 * declare target lists it, or a target region of the file calls it, directly
 * or through such functions (clang compiles them for the device all the
 * same). malloc'd, or NULL where the file has no target construct and no
 * list. Worked out once per file (struct rewriter, device_functions). */
unsigned char *context_device_functions(const struct source *s);

/* A pragma parsed again (ok: an omp directive that parses). */
struct parsed {
    struct directive d;
    int ok;
};
void parse_pragma(const struct pragma *q, struct parsed *out);
void unparse_pragma(struct parsed *x);
/* Does the statement of q contain offset? */
int pragma_encloses(const struct pragma *q, unsigned offset);
/* Does the statement of q contain another pragma (a construct, a POMP directive)? */
int pragma_holds_pragmas(const struct source *s, const struct pragma *q);

#endif
