/* The pre-linker's logic (seed 002, Appendix B): find the POMP_Init_* functions
 * that nm lists for the objects and archives of a link, and write the C file
 * whose POMP_Init_Handles calls them all. */
#ifndef POMP_PRELINK_H
#define POMP_PRELINK_H

#include <stddef.h>
#include <stdio.h>

struct prelink_names {
    char **names;
    size_t count;
};

/* Adds the POMP_Init_* symbols defined in the text of `nm -P` output (unique). */
void prelink_collect(struct prelink_names *n, const char *nm_output);
/* What the link's objects left to the runtime's events (prelink_report_counts). */
enum {
    PRELINK_LEFT_CONSTRUCTS = 1, /* a construct is not instrumented */
    PRELINK_LEFT_LOCKS = 2,      /* a lock call is not rewritten (in a header, in a macro) */
    PRELINK_LEFT_MUTEXES = 4,    /* a construct left may be critical or ordered (or its kind is
                                    not known: an older pompcc's object, a plain one) */
};

/* Writes the C file with POMP_Init_Handles; left_to_runtime (PRELINK_LEFT_*):
 * with CONSTRUCTS the file also defines POMP_Constructs_left_to_runtime, which
 * tells libpomp's OMPT bridge to follow the constructs the instrumentation
 * reports itself (worksharing, masked, mutexes) too; with LOCKS only
 * POMP_Locks_left_to_runtime, which has it follow the lock waits (not the
 * other constructs, whose runtime reports would cost a pompcc build for
 * nothing). With CONSTRUCTS and not MUTEXES, POMP_Constructs_left_without_mutexes
 * too: none of those constructs is a critical or ordered one, and the bridges
 * follow no mutex for them (a hot lock loop elsewhere paid the mutex events
 * of every lock call: 76 ms became 121). Returns 0, or -1 on write error. */
int prelink_write(const struct prelink_names *n, int left_to_runtime, FILE *f);
void prelink_free(struct prelink_names *n);

/* The link's construct counts (the lines of the objects' POMP_COUNTS_SECTION,
 * instrument.h; a header's line comes from every object that includes it and
 * is said once): "file: note: N of M OpenMP constructs instrumented" for each
 * file with verbose, and "file: warning: ..." for a file with constructs left
 * to the runtime's events; lock calls a file leaves as they are, a note with
 * verbose. A "plain NAME" line (prelink_write_plain_marker) is OpenMP code
 * not built with pompcc, said at the library's link: constructs and mutexes
 * left, unsaid. Returns what the files left to the runtime's events (PRELINK_LEFT_*:
 * the link then has the bridges follow them). f NULL: says nothing (a shared
 * library's counts, said at its own link). */
int prelink_report_counts(const char *records, int verbose, FILE *f);

/* Writes the C file whose object, linked into a shared library, marks in the
 * library's POMP_COUNTS_SECTION that it holds code not built with pompcc:
 * each of lines (one a line, "plain NAME": OpenMP constructs, or "plainlocks
 * NAME": lock set calls alone) as it is. Read as one file at a program's
 * link, the library's counts from its pompcc objects hid the plain ones, and
 * the bridges did not follow them (a plain single's 40 tasks and taskwait
 * went unmeasured; a plain object's lock waits, before 2026-12-06);
 * prelink_report_counts reads the lines as code left to the runtime.
 * Returns 0, or -1 on write error. */
int prelink_write_plain_marker(const char *names, FILE *f);

/* The same for the lines of records that known does not hold: the counts a
 * linked program shows that its inputs did not (link-time optimization). */
int prelink_report_new_counts(const char *records, const char *known, int verbose, FILE *f);

/* Whether the undefined symbols of a link input (`nm -P -u` text) call the
 * OpenMP runtime for constructs (GCC's GOMP_*, clang's __kmpc_fork_call and
 * task entries), not merely its API (omp_*). */
int prelink_calls_openmp_constructs(const char *nm_undefined);
/* Whether nm's list of undefined symbols names a lock set routine
 * (omp_set_lock, omp_set_nest_lock, their Fortran names) and no POMP_ one: an
 * object not built with pompcc that calls one has lock waits only the
 * runtime's events see; its counts line is "plainlocks OBJECT". */
int prelink_calls_lock_routines(const char *nm_undefined);

#endif
