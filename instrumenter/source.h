/* The source file as pomp-instrument sees it: its text, its lines, the pragmas
 * in it (#pragma and _Pragma), and for each pragma the statement that follows it,
 * with exact extents from libclang. */
#ifndef POMP_SOURCE_H
#define POMP_SOURCE_H

#include <stddef.h>
#include <string.h>

#include "addressable.h"
#include "source_ast.h"

/* A macro the file defines whose invocation a rewritten directive no longer
 * expands (constructs.c: keep_macro_used). */
struct kept_macro {
    char *name;
    unsigned after; /* just past its #define's last line */
};

struct pragma {
    unsigned start;        /* offset of '#' or of the _Pragma keyword */
    unsigned end;          /* offset just past the pragma (before the newline of a #pragma) */
    unsigned line_start;   /* offset of the first character of the pragma's line */
    int is_operator;       /* written as _Pragma("...") */
    char *macro;           /* the macro whose invocation this is (it makes one _Pragma and
                              nothing else), or NULL */
    struct kept_macro *kept; /* the macros the file defines that made it (the invocation's,
                                those it invoked, those of a _Pragma's operand) */
    size_t nkept;
    char *text;            /* the text after "pragma", comments removed, lines joined */
    unsigned *text_offsets;/* source offset of each character of text */
    /* the statement the directive applies to, if one follows */
    int has_stmt;
    unsigned stmt_start, stmt_end;
    int stmt_is_pragma;    /* the statement starts with another pragma */
    int stmt_is_declaration; /* the "statement" is a declaration: none in C, where the compiler
                                rejects the directive (instrument.c leaves it to say so) */
    int depth;             /* number of pragma statements enclosing this pragma */
    struct loop_header *loop; /* the statement as a for loop (loops.h), or NULL */
    long long atomic_size; /* an atomic's x: its size in bytes, 0 or -1 if unknown
                              (atomic_operand.h) */
    /* why the statement cannot be made out safely (a macro expansion goes on past
     * its end, ...), or NULL: the construct is then left to the runtime's events */
    char *unplaced;
    /* why the macros in the directive could not be replaced (source_macros.h),
     * or NULL: the construct is then left to the runtime's events, as a
     * directive pomp rewrote from what it could not read could change */
    char *unread_macros;
    /* why the compiler does not compile the directive where it is written (a
     * #pragma inside a macro invocation's arguments, which GCC moves before
     * the whole expansion), or NULL: left to the runtime's events then, as
     * code put at the directive would end up inside its construct */
    char *moved;
    /* it stands where the language wants one statement (the body of an if,
     * else, loop or label), where no stand-alone directive may */
    int substatement;
    /* A parallel construct's statement: whether it may address a local of its
     * outlined function (addressable.h), where worked out (locals_known),
     * for GCC's dropping of the barrier of a worksharing construct that ends
     * the region (constructs.c). */
    int locals_known, may_address_locals;
};

struct source {
    const char *path;          /* as given on the command line */
    const char *spelled;       /* as the compiler spells it (a header: its inclusion's
                                  spelling, source_include.spelled; NULL: path) */
    char *text;
    size_t size;
    unsigned *line_offsets;    /* offset of the first character of each line (0-based index) */
    unsigned nlines;
    struct pragma *pragmas;    /* in source order */
    size_t npragmas;
    int has_main;              /* main() is defined here, with a body */
    unsigned main_body_open;   /* offset just past main's '{' */
    unsigned macro_omp_pragmas; /* `_Pragma("omp ...")` in the bodies of the macros invoked here
                                   (other than a macro that is one _Pragma): not instrumented */
    unsigned macro_mutex_pragmas; /* of those, the ones whose macros' text or invocation names
                                     critical or ordered (source_text_may_be_mutex) */
    /* The `#pragma omp` lines in #if branches the parser skipped, which a GCC
     * build may compile (clang's __GNUC__ is 4): the '#', just past the word
     * "pragma", and the end of the logical line. */
    struct skipped_directive {
        unsigned start, text, end;
    } *skipped_omp;
    size_t nskipped_omp;
    char **macros;             /* names of the macros defined anywhere in the translation unit, sorted */
    size_t nmacros;
    struct source_ast ast;     /* functions, returns, omp_* calls (source_ast.h) */
    /* a header the unit includes more than once: the branches each inclusion
     * skips (source_skipped.h), or NULL */
    struct skipped_inclusions *inclusions;
    const char *missing_header; /* its unit's (source_unit.missing_header), or NULL */
};

/* A parsed translation unit: the file given to the compiler and everything it
 * includes. Its main file and its headers are each loaded as a struct source. */
struct CXTranslationUnitImpl;
struct source_unit {
    const char *path;                 /* the main file */
    void *index;                      /* CXIndex */
    struct CXTranslationUnitImpl *tu;
    int verbose;
    /* the first header the parser could not find ("k.c:1:10: 'mpi.h' file
     * not found"), or empty: a statement that uses what it declares is no
     * statement to the parser (found_no_statement_why) */
    char missing_header[512];
};

/* Parses the translation unit of path with the compiler flags (filtered to
 * those that matter for parsing). Prints an error and returns -1 when libclang
 * cannot parse it (close it all the same). */
int source_unit_open(struct source_unit *u, const char *path, int argc, const char *const *argv,
                     int openmp, int verbose);
void source_unit_close(struct source_unit *u);
/* The names of the unit's macros whose body holds a _Pragma (anywhere in it):
 * a file that invokes one may make OpenMP directives without a pragma of its
 * own. Returns their number; *names (malloc'd, each name too) the caller frees. */
size_t source_unit_pragma_macros(const struct source_unit *u, char ***names);
/* Loads one file of the unit: its main file, or a header by the name libclang
 * gives it (source_includes.h). Returns 0, or -1 after printing why. */
int source_load_file(struct source *s, const struct source_unit *u, const char *path);
/* The same for a header the compiler names spelled (__FILE__ in it, the
 * #line directives of its copy). */
int source_load_header(struct source *s, const struct source_unit *u, const char *path,
                       const char *spelled);

/* Reads and parses path with the compiler flags args (filtered to those that
 * matter for parsing); openmp says whether -fopenmp was given. Prints
 * file:line:col errors on stderr and returns -1 when the file cannot be handled. */
int source_load(struct source *s, const char *path, int argc, const char *const *argv, int openmp,
                int verbose);
void source_free(struct source *s);

/* How many times the unit includes the file (entered by the preprocessor),
 * and whether each of those inclusions compiles both offsets or neither: code
 * inserted at one and at the other is balanced in each inclusion of a header
 * included twice with other macros (a generic kernel). */
unsigned source_inclusions(const struct source *s);
int source_inclusions_agree(const struct source *s, unsigned a, unsigned b);

/* 1-based line and column of an offset. */
void source_position(const struct source *s, unsigned offset, unsigned *line, unsigned *col);
unsigned source_line(const struct source *s, unsigned offset);

/* Is name a macro (defined in the file or a header it includes)? Clause
 * arguments are not expanded when pomp parses the file, so a name in them may be one. */
int source_is_macro(const struct source *s, const char *name);
/* The file and line a user knows an offset (or a physical line) by: after
 * #line directives and line markers, as compilers report them. Used for CTC
 * strings and for the #line directives of the instrumented file. */
const char *source_presumed_file(const struct source *s, unsigned offset);
unsigned source_presumed_line(const struct source *s, unsigned offset);
void source_presumed_of_line(const struct source *s, unsigned line, const char **file,
                             unsigned *presumed);
/* The same for a #line directive of the instrumented file: the file as the
 * compiler spells it (source_ast.presumed_spelled); and the file's own name
 * so, for its first line. */
void source_spelled_of_line(const struct source *s, unsigned line, const char **file,
                            unsigned *presumed);
const char *source_spelled_name(const struct source *s);

/* Whether a directive's text (or the text of a macro that makes directives)
 * names a construct whose waits only the runtime's mutex events measure
 * (critical, ordered): where such a construct is left to the runtime, the
 * bridges follow those events for the whole program (prelink). */
static inline int source_text_may_be_mutex(const char *text, size_t len)
{
    return text && (memmem(text, len, "critical", 8) || memmem(text, len, "ordered", 7));
}

#endif
