/* Which runtime a program links: LLVM libomp (OMPT, and the GOMP_* entry points
 * GCC emits) unless its objects call an OpenMP entry point libomp lacks (GCC's
 * 'error' directive, 'scope' with reductions, target offloading, OpenACC), or
 * it is built for GCC offloading: then GCC's libgomp. */
#ifndef POMP_RUNTIME_SELECT_H
#define POMP_RUNTIME_SELECT_H

#include <stddef.h>

/* Whether LLVM libomp (the one pompcc links) defines this OpenMP entry point. */
int pomp_libomp_provides(const char *symbol);

/* Whether the symbol is an entry point of an OpenMP (or OpenACC) runtime. */
int pomp_runtime_is_entry_point(const char *symbol);

/* The first entry point in `nm -P -u` output that libomp lacks (malloc'ed, or
 * NULL when libomp provides them all). Version suffixes (@GOMP_5.0) are dropped. */
char *pomp_runtime_missing_symbol(const char *nm_output);

/* Whether `nm -P -u` output names a libomp-only entry point (__kmpc_*: clang's objects). */
int pomp_runtime_calls_kmpc(const char *nm_output);

/* What a libgomp-only entry point is for, for messages ("the 'error' directive"). */
const char *pomp_runtime_feature(const char *symbol);

/* Whether a compiler flag asks for GCC's offloading, which needs libgomp. */
int pomp_runtime_is_gcc_offload_flag(const char *arg);

/* Scans the link inputs (objects, archives, shared objects; names[i] is what
 * messages call inputs[i]: the source an object came from) with nm. Returns
 * a message saying why the program needs libgomp (malloc'ed), or NULL. When
 * other inputs need libomp itself (clang's __kmpc_* calls), warns that no
 * runtime serves both and returns NULL. */
char *pomp_runtime_needs_gomp(char *const *inputs, char *const *names, size_t ninputs,
                              char *const *flags, size_t nflags);

#endif
