/* A quick look at a source before pompcc starts pomp-instrument (libclang:
 * ~15 ms to load, and a parse): a file in which nothing can need
 * instrumentation is compiled as it is. */
#ifndef POMP_SOURCE_SCAN_H
#define POMP_SOURCE_SCAN_H

#include <stddef.h>

/* Whether word occurs in text as a whole identifier. */
int source_text_has_word(const char *text, size_t size, const char *word);

/* Line splices (translation phase 2): a backslash, the blanks GCC and clang
 * allow before the newline (GCC warns "backslash and newline separated by
 * space"), a CR, the newline. The length of the splice at text[i], or 0; and
 * whether the newline at text[i] is the end of one (its line goes on). */
size_t source_splice_length(const char *text, size_t size, size_t i);
int source_newline_spliced(const char *text, size_t i);
/* Whether word occurs in text once its line splices are taken out (det\ at a
 * line's end, ach(ev) on the next: "detach"), as compilers read it; not only
 * as a whole identifier. */
int source_text_has_spliced(const char *text, size_t size, const char *word);

/* Whether text may hold something pomp-instrument changes: a pragma (#pragma
 * or _Pragma: OpenMP directives and pomp's own), an OpenMP API call it
 * rewrites (omp_*), or a function named main (which gets POMP_Init). Only
 * the file itself counts: the instrumenter rewrites the
 * file's own tokens, never those of its headers or of macro expansions.
 * Comments and strings are not skipped (a false "yes" only costs time). */
int source_may_need_instrumentation(const char *text, size_t size);

/* Whether text may call an OpenMP lock routine that takes or gives back a
 * lock (omp_set_lock, omp_unset_lock, omp_test_lock and their nest forms),
 * whose calls pomp-instrument rewrites in a header too (a header's calls
 * left to the runtime cost its lock waits measured through the runtime's
 * reports, every call timed). A false "yes" only costs time. */
int source_text_may_call_locks(const char *text, size_t size);

/* The same for a file and the headers it includes that are found in its own
 * directory or in dirs (the -I and -iquote directories: the program's own
 * headers, whose pragmas and lock calls pomp-instrument --headers
 * instruments); 1 if the file
 * cannot be read (pomp-instrument reports why). */
int source_file_may_need_instrumentation(const char *path, const char *const *dirs, size_t ndirs);

/* Calls each(file, arg) for the file at path and for each header it reaches
 * as above that may hold an OpenMP directive (source_has_openmp_directive);
 * with expanded_here, one that makes a construct in that file: not one in the
 * body of a macro the file never names again (a header given with -include
 * that only defines _Pragma macros: their constructs are made, and
 * instrumented, in the source that expands them). */
void source_files_with_openmp(const char *path, const char *const *dirs, size_t ndirs,
                              int expanded_here, void (*each)(const char *path, void *arg),
                              void *arg);

/* Whether text may hold an OpenMP directive (#pragma omp, _Pragma("omp ...")
 * or [[omp::...]]); a false "yes" is possible. */
int source_has_openmp_directive(const char *text, size_t size);
/* ... an OpenACC directive (#pragma acc), which pomp does not measure */
int source_has_openacc_directive(const char *text, size_t size);

/* Whether text is a C++20 module unit: its first declaration, past comments
 * and preprocessing lines, is a module declaration ("module;", the global
 * module fragment, or "[export] module NAME;"), which must come before the
 * header the instrumentation includes. */
int source_is_module_unit(const char *text, size_t size);

/* The header name of the directive on the line that holds offset in text:
 * the offsets of "x.h", <x.h> or the macro after the keyword (to the end of
 * the line or a comment). Returns 0, or -1 when the line is no directive. */
int include_name_range(const char *text, size_t size, unsigned offset, unsigned *start,
                       unsigned *end);


#endif
