/* The rewriter shared by instrument.c (edits, regions, output) and the construct
 * handlers (constructs.c, combined.c, loops.c): text edits at source offsets,
 * regions with their CTC strings, and the places where generated code goes. */
#ifndef POMP_REWRITE_H
#define POMP_REWRITE_H

#include "ctc.h"
#include "directive.h"
#include "instrument.h"
#include "source.h"
#include "util.h"

struct edit {
    unsigned offset, remove;
    int order;      /* at the same offset: lower first */
    size_t seq;     /* then in creation order */
    char *text;
    unsigned anchor;/* where compile-time instrumentation levels are looked up (modules.h) */
};

struct rewriter {
    const struct source *s;
    const struct instrument_options *o;
    struct edit *edits;
    size_t nedits;
    char **ctcs;    /* one per region, index = handle number */
    unsigned nregions;
    int uses_guards; /* some closing event runs from a cleanup guard (constructs.c) */
    unsigned nfast;  /* sites with an inline counter (atomic, critical, task creation and
                        execution): pomp_f_(0..nfast-1) */
    int left_on_purpose; /* the last construct is not instrumented on purpose (context.c) */
    int left_whole;      /* ... it stays whole, for the runtime's events to measure: counted as
                            left to the runtime, whose callbacks the link then registers */
    int said_declare_target; /* the note on declare target blocks was given (once per file) */
    unsigned char *device_functions; /* context_device_functions (context.h), or NULL */
    struct strbuf kept_macros; /* " NAME " of each _Pragma macro whose invocation a split
                                  replaced: tested for at the file's end, so that it is still
                                  used (-Wunused-macros -Werror failed such a file) */
    struct construct_counts counts;
    /* lock calls left as they are (in a header, in a macro's expansion), by
     * the file they are written in: the runtime's events measure their waits */
    struct left_locks {
        char *file;
        unsigned calls;
    } *left_locks;
    size_t nleft_locks;
    void **module_state; /* per entry of pomp_modules[] (modules.h): its begin's result */
    char local[16];      /* the prefix of the names declared around user code ("pomp_",
                            else one the file does not use: local_prefix) */
};

/* The prefix of the variables the instrumentation declares in the user's
 * blocks (a task's id, a site's counted flag, a clause's value): "pomp_", or
 * "pompN_" where the file's text names something "pomp_..." itself, so that
 * no declaration of the instrumentation hides one of the program's. */
void local_prefix(char out[16], const char *text, size_t size);

/* ---- edits and notes (instrument.c) ---- */

/* Takes ownership of text. */
void add_edit(struct rewriter *w, unsigned offset, unsigned remove, int order, char *text);
/* file:line:col: note: ... under --verbose. */
void note(const struct rewriter *w, unsigned offset, const char *fmt, const char *arg);
/* "\n#line N \"file\"\n" */
void add_line_directive(struct strbuf *b, const struct rewriter *w, unsigned line);
/* The same for the line after pragma p, without the final newline. */
void add_line_directive_after_pragma(struct strbuf *b, const struct rewriter *w,
                                     const struct pragma *p);

/* Registers a region of the given type for pragma p (CTC attributes from the
 * clauses of d); returns its handle number. */
unsigned new_region(struct rewriter *w, const struct pragma *p, const struct directive *d,
                    const char *type);
/* Adds key=value to the end of region r's CTC string. */
void region_add_attribute(struct rewriter *w, unsigned r, const char *key, const char *value);

/* ---- where code goes (instrument.c) ---- */

/* Before the pragma: on lines of their own for #pragma (which must start a line). */
void insert_before_pragma(struct rewriter *w, const struct pragma *p, const char *code);
/* At the start of the pragma's statement (which may itself begin with a pragma). */
void insert_at_block_start(struct rewriter *w, const struct pragma *p, const char *code);
/* After the pragma's statement. */
void insert_after_block(struct rewriter *w, const struct pragma *p, const char *code);
/* After a stand-alone directive: on the next line for #pragma. */
void insert_after_pragma(struct rewriter *w, const struct pragma *p, const char *code);
/* "#pragma omp <text>" or _Pragma("omp <text>"), as p is written. */
void add_pragma_text(struct strbuf *b, const struct pragma *p, const char *text);
/* The pragma that starts at offset, or NULL. */
const struct pragma *pragma_starting_at(const struct source *s, unsigned offset);

/* ---- OpenMP constructs (constructs.c) ---- */

/* Instruments one parsed omp directive. Returns 0, or -1 after printing a
 * warning that says why the construct is not instrumented (the caller then
 * takes its edits back). Sets w->left_on_purpose where nothing is to be done. */
int instrument_omp_directive(struct rewriter *w, const struct pragma *p, const struct directive *d);
/* The CTC attributes that depend on the construct type (schedule, clause flags, names). */
void construct_ctc_attributes(struct ctc_builder *b, const struct directive *d, const char *type);
/* A directive without a structured block (its region ends with the pragma). */
int construct_type_is_standalone(const char *type);
/* Helpers the generated code may use, appended to the .pomp.inc file. */
void construct_emit_inc(const struct rewriter *w, struct strbuf *inc);

#endif
