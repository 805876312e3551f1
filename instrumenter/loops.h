/* The for loops that follow loop-associated directives, as libclang sees them:
 * the loop variable, bounds and step when the instrumenter may evaluate them
 * again (seed 002 §3.3: RTC values only for side-effect-free expressions), and
 * the extent of the body, for iteration events. */
#ifndef POMP_LOOPS_H
#define POMP_LOOPS_H

#include <clang-c/Index.h>

/* A cursor's first children (at most 8; n stops there), for the small
 * statement shapes the instrumenter takes apart (loop headers, atomics). */
struct cursor_children {
    CXCursor c[8];
    unsigned n;
};
struct cursor_children cursor_children(CXCursor c);

struct loop_header {
    unsigned body_start, body_end; /* the body statement, end just past it (0, 0: unknown) */
    int body_in_file;              /* the body is written in the file, not from a macro */
    int has_break;                 /* a break in the body leaves this loop (not allowed in OpenMP) */
    int var_is_integer;            /* the loop variable has an integer type */
    char *var;                     /* the loop variable, NULL if not in canonical form */
    int var_outside;               /* var is declared before the loop (for (i = ...)), not in it */
    /* Expression texts, each NULL unless the instrumenter may evaluate it again:
     * written in the file on one line, and free of side effects. */
    char *init;                    /* initial value */
    char *final;                   /* last value the range allows (the bound, inclusive) */
    char *incr;                    /* step, with its sign */
    struct loop_header *inner;     /* the body when it is (only) another for loop */
};

/* Analyzes the for statement at cursor c of a file with the given text; NULL
 * for a statement libclang does not show as a for loop. */
struct loop_header *loop_analyze(CXCursor c, CXFile file, const char *text, unsigned size);

/* Does statement c end without its ';' in libclang's extent (an expression,
 * return, do-while...)? (source.c) */
int needs_semicolon(CXCursor c);
void loop_free(struct loop_header *l);

#endif
