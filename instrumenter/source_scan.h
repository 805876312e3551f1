/* A quick look at a source before pompcc starts pomp-instrument (libclang:
 * ~15 ms to load, and a parse): a file in which nothing can need
 * instrumentation is compiled as it is. */
#ifndef POMP_SOURCE_SCAN_H
#define POMP_SOURCE_SCAN_H

#include <stddef.h>

/* Whether text may hold something pomp-instrument changes: a pragma (#pragma
 * or _Pragma: OpenMP directives and pomp's own), an OpenMP API call it
 * rewrites (omp_*), or a function named main (which gets POMP_Init and
 * POMP_Finalize). Only the file itself counts: the instrumenter rewrites the
 * file's own tokens, never those of its headers or of macro expansions.
 * Comments and strings are not skipped (a false "yes" only costs time). */
int source_may_need_instrumentation(const char *text, size_t size);

/* The same for a file; 1 if it cannot be read (pomp-instrument reports why). */
int source_file_may_need_instrumentation(const char *path);

#endif
