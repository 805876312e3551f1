/* What instrument.c offers the modules that add edits of their own
 * (modules.h): the file, the options, edits, regions, messages, and the state
 * of another module. The modules include this header, never instrument.c's
 * own rewrite.h. */
#ifndef POMP_REWRITER_H
#define POMP_REWRITER_H

#include "instrument.h"
#include "source.h"
#include "util.h"

/* A directive without a structured block (its region ends with the pragma):
 * "barrier", "taskwait", ... (construct_table.c). */
int construct_type_is_standalone(const char *type);

struct rewriter;

const struct source *rw_source(const struct rewriter *w);
const struct instrument_options *rw_options(const struct rewriter *w);
/* The prefix of the names the instrumentation declares in the program's code
 * ("pomp_", or "pompN_" where the file names something "pomp_..."). */
const char *rw_local(const struct rewriter *w);

/* The state of module m for this file (its begin's result), or NULL when m
 * has not started (it comes later in pomp_modules[]) or has nothing to do. */
struct module;
void *rw_module_state(const struct rewriter *w, const struct module *m);

/* Replaces `remove` characters at offset with text (taken over; remove 0
 * inserts). At one offset, edits go in ascending order, then in creation order. */
void rw_edit(struct rewriter *w, unsigned offset, unsigned remove, int order, char *text);
/* The same, with the compile-time level looked up at anchor rather than at
 * offset: all calls of one region must follow the level at its start. */
void rw_edit_anchored(struct rewriter *w, unsigned anchor, unsigned offset, unsigned remove,
                      int order, char *text);

/* The builder's CTC string; exits (status 70) when out of memory. */
struct ctc_builder;
char *rw_ctc_finish(struct ctc_builder *b);

/* Registers a region with its CTC string (taken over) and returns its handle
 * number; rw_region_set_ctc replaces the string of a region registered before
 * its end was known. */
unsigned rw_region(struct rewriter *w, char *ctc);
void rw_region_set_ctc(struct rewriter *w, unsigned region, char *ctc);

/* A new inline counter (pomplib.h, POMP_Fast_count) of the file: its number,
 * for pomp_f_(n). */
unsigned rw_fast_counter(struct rewriter *w);

/* A call of a lock routine (omp_set_lock, ...) in file (this one, or a header
 * it includes) that stays as it is: counted in the object's
 * POMP_COUNTS_SECTION, so that the link has the runtime's events measure
 * what such calls wait (instrument_left_locks_asm). */
void rw_count_left_lock_call(struct rewriter *w, const char *file);

/* "file:line:col: <kind>: message" on stderr; rw_note only with --verbose. */
void rw_diag(const struct rewriter *w, unsigned offset, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void rw_note(const struct rewriter *w, unsigned offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* rw_note for a place in another file (a header the file includes). */
void rw_note_at(const struct rewriter *w, const char *file, unsigned line, unsigned col,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Appends "\n#line N \"file\"\n": after inserted lines, the next line is N again. */
void rw_line_directive(struct strbuf *b, const struct rewriter *w, unsigned line);

#endif
