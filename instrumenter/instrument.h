/* Rewriting a source file: every instrumented pragma becomes POMP event calls
 * around it, main() gets POMP_Init/POMP_Finalize, and the handles and CTC
 * strings go to the generated include file (seed 002, Appendix A and B). */
#ifndef POMP_INSTRUMENT_H
#define POMP_INSTRUMENT_H

#include "source.h"
#include "util.h"

struct function_filter;

/* The section of an object that holds its files' construct counts, one line
 * each: "<constructs> <instrumented> <left alone on purpose> <file>", and
 * "locks <calls> <file>" for the lock calls a file leaves as they are (read by
 * pomp-prelink at the link). */
#define POMP_COUNTS_SECTION ".pomp_constructs"
/* What an object needs of its runtime that its symbols do not tell: "scan
 * FILE" lines (GCC's scan calls GOMP_loop_start, which LLVM libomp defines but
 * aborts in), read by pompcc's link (runtime_select.c). */
#define POMP_NEEDS_SECTION ".pomp_needs"

/* Replaces the text [start, end) of the file with text: an #include directive's
 * header name pointed at an instrumented copy (headers.c). */
struct text_replacement {
    unsigned start, end;
    const char *text;
};

struct instrument_options {
    const char *unique_id;   /* the ### of POMP_Init_###: unique per object file */
    const char *inc_name;    /* how the output includes the generated file */
    const char *cwd;         /* the working directory: a relative file name's "dir" in the CTC
                                strings (NULL: none), so that a run elsewhere names the file as
                                the runtime's regions do (ctc_file_seen_from) */
    int openmp;              /* compiling with OpenMP: instrument omp pragmas */
    int verbose;             /* say what is done with each pragma */
    int explicit_barriers;   /* OPARI2-style: nowait plus an explicit, measured barrier */
    int iterations;          /* iteration events in the bodies of worksharing loops */
    int cplusplus;           /* the file is C++ (by its suffix, or -x c++ among the flags) */
    int gcc;                 /* the compiler is GCC (--gnuc): each OpenMP directive in a branch
                                the parser skipped gets a #pragma message, which GCC prints
                                where it compiles that branch (source.h, skipped_omp) */
    const struct function_filter *functions; /* --functions: which bodies get regions; NULL: none */
    const struct text_replacement *replacements; /* made in the output too */
    size_t nreplacements;
    /* The file is one of the program's headers (headers.c): its handles are one
     * weak array per program, named after header_key (its path and content) and
     * its CTC strings, so every translation unit that includes it shares them.
     * inc_name is then the include file's absolute path. No main and no
     * function regions in a header; its API call sites are its own. */
    int header;
    uint64_t header_key;
    /* (the main file) the headers whose instrumented copies rewrite their own
     * API calls (headers.h, header_copies.instrumented) */
    char *const *instrumented_headers;
    size_t ninstrumented_headers;
    /* (the main file) a header without a copy may make a task that a final
     * task does not include (header_copies.final_waits_may_wait) */
    int final_waits_may_wait;
    /* (--headers) the headers whose copies are their text as it is, by the
     * name libclang gives them: pompcc's retry after the compiler's errors
     * were in their instrumented copies (headers.c) */
    char *const *headers_as_is;
    size_t nheaders_as_is;
};

/* The file's OpenMP constructs (directives with events; pass-through ones such
 * as threadprivate do not count): how many, how many got their POMP calls, how
 * many were left alone on purpose (device code, simd bodies). */
struct construct_counts {
    unsigned constructs, instrumented, on_purpose;
    unsigned mutexes; /* of those left to the runtime, the ones that are, or may be, a critical
                         or ordered construct (its mutex events measure them) */
    unsigned scans; /* scan directives (POMP_NEEDS_SECTION) */
    /* of the on_purpose ones, those whose compile-time level (#pragma pomp
     * inst) writes none of their calls, which the runtime's events measure;
     * and of those, the critical and ordered ones */
    unsigned by_level, by_level_mutexes;
    /* of the instrumented ones, those whose inner parallel regions the
     * instrumentation leaves to the runtime's events (a host `distribute
     * parallel for [simd]` composite, a whole `teams loop`): the link has the
     * bridges follow them, unsaid */
    unsigned inner_parallel;
};

struct instrument_result {
    struct strbuf source;    /* the instrumented file */
    struct strbuf inc;       /* the generated include file */
    unsigned nregions;
    struct construct_counts counts;
    /* the lock calls the file leaves as written, as the asm lines the include
     * file's counts carry (instrument_left_locks_asm): for a header whose copy
     * has no region, and so no include file, to carry them itself */
    struct strbuf left_locks;
};

/* Whether text (a directive's, or a file's) may make a task that a final task
 * does not run to its end at once: it names a detach clause, or target and
 * nowait (a target task). A false "yes" costs only the inline counting of
 * taskwaits in final tasks (POMP_Final_waits_may_wait). */
int instrument_text_may_defer(const char *text, size_t len);

/* Appends the top-level asm statement that puts file's counts into the
 * object's POMP_COUNTS_SECTION (nothing for a file without constructs). */
void instrument_counts_asm(struct strbuf *out, const char *file, const struct construct_counts *c);

/* The same for the lock calls file leaves as they are: a line "locks N file". */
void instrument_left_locks_asm(struct strbuf *out, const char *file, unsigned calls);

/* Returns 0, or -1 after printing file:line:col errors (out->counts is set
 * either way: the constructs found, none instrumented when it fails). */
int instrument(const struct source *s, const struct instrument_options *o,
               struct instrument_result *out);

#endif
