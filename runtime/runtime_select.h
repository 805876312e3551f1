/* Which runtime a program links: the one its objects were built for (GCC's
 * libgomp with the libgomp bridge, LLVM libomp for clang's objects that call
 * __kmpc_*), or LLVM libomp when asked (--pomp-runtime=omp). Never libomp for
 * objects that call an OpenMP entry point libomp lacks (GCC's 'error'
 * directive, 'scope' with reductions, target offloading, OpenACC) or cannot
 * serve for GCC code ('scan', 'detach', affinity display, tasks whose data
 * GCC copies with a function), nor for GCC offloading (docs/gomp.md). */
#ifndef POMP_RUNTIME_SELECT_H
#define POMP_RUNTIME_SELECT_H

#include <stddef.h>

#include "runtime.h"

/* Whether LLVM libomp (the one pompcc links) defines this OpenMP entry point. */
int pomp_libomp_provides(const char *symbol);

/* Whether libomp serves this entry point for GCC's objects: it defines it,
 * and its libgomp compatibility layer does not crash in it. */
int pomp_libomp_serves(const char *symbol);

/* How a message says libomp lacks the symbol ("which LLVM libomp does not
 * provide", or that its libgomp layer does not support it). */
const char *pomp_runtime_lack(const char *symbol);

/* Whether the symbol is an entry point of an OpenMP (or OpenACC) runtime. */
int pomp_runtime_is_entry_point(const char *symbol);

/* The first entry point in `nm -P -u` output that libomp lacks or cannot serve (malloc'ed, or
 * NULL when libomp provides them all). Version suffixes (@GOMP_5.0) are dropped. */
char *pomp_runtime_missing_symbol(const char *nm_output);

/* The first of GCC's task copy functions (`fn._omp_cpyfn.N`) in `nm -P
 * --defined-only` output (malloc'ed), or NULL: libomp's libgomp layer
 * crashes when it runs such a task undeferred. */
char *pomp_runtime_task_copy_function(const char *nm_output);
/* The same for an object, archive, shared object or program (its symbol
 * table, read directly or by nm), a C++ name demangled; NULL also for a
 * stripped program. */
char *pomp_runtime_input_task_copy_function(const char *path);

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

/* Chooses the runtime of a link: given (--pomp-runtime=) or not, *rt is the
 * runtime asked for and becomes the one to link; clang_offload: a Clang
 * offloading flag was given. Returns a warning to print (malloc'ed), or NULL.
 * Not given: libomp for clang's objects or Clang offloading, else libgomp. */
char *pomp_runtime_choose(int given, enum pomp_runtime *rt, int clang_offload,
                          char *const *inputs, char *const *names, size_t ninputs,
                          char *const *flags, size_t nflags);

#endif
