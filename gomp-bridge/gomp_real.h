/* libgomp's entry points the bridge interposes, with the symbol version each
 * has in libgomp.so.1 (objdump -T), and the pointers to libgomp's own
 * definitions they forward to. The pointers are resolved once, at load
 * (gomp_real_resolve, from the constructor), never on the hot path; a call
 * that comes before the constructor resolves them first (REAL()). The
 * version script libpomp-gomp.map gives each definition the same version. */
#ifndef POMP_GOMP_REAL_H
#define POMP_GOMP_REAL_H

#include <stdbool.h>
#include <stdint.h>

typedef unsigned long long gomp_ull;

/* X(name, version, return type, parameter list) */
#define GOMP_LOOP_LONG(X, kind, version)                                                       \
    X(GOMP_loop_##kind##_start, version, bool, (long, long, long, long, long *, long *))         \
    X(GOMP_loop_##kind##_next, version, bool, (long *, long *))
#define GOMP_LOOP_LONG_RUNTIME(X, kind, version)                                               \
    X(GOMP_loop_##kind##_start, version, bool, (long, long, long, long *, long *))               \
    X(GOMP_loop_##kind##_next, version, bool, (long *, long *))
#define GOMP_LOOP_ULL(X, kind, version)                                                        \
    X(GOMP_loop_ull_##kind##_start, version, bool,                                             \
      (bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull, gomp_ull *, gomp_ull *))                  \
    X(GOMP_loop_ull_##kind##_next, version, bool, (gomp_ull *, gomp_ull *))
#define GOMP_LOOP_ULL_RUNTIME(X, kind, version)                                                \
    X(GOMP_loop_ull_##kind##_start, version, bool,                                             \
      (bool, gomp_ull, gomp_ull, gomp_ull, gomp_ull *, gomp_ull *))                            \
    X(GOMP_loop_ull_##kind##_next, version, bool, (gomp_ull *, gomp_ull *))
/* doacross loops (ordered(n) with depend(sink)/depend(source)): the
 * dimensions' iteration counts instead of bounds; their chunks come from
 * the usual GOMP_loop_*_next */
#define GOMP_LOOP_DOACROSS(X, kind, T)                                                         \
    X(GOMP_loop_##kind##_start, "GOMP_4.5", bool, (unsigned, T *, T, T *, T *))
#define GOMP_LOOP_DOACROSS_RUNTIME(X, kind, T)                                                 \
    X(GOMP_loop_##kind##_start, "GOMP_4.5", bool, (unsigned, T *, T *, T *))
#define GOMP_PARALLEL_LOOP(X, kind, version)                                                   \
    X(GOMP_parallel_loop_##kind, version, void,                                                \
      (void (*)(void *), void *, unsigned, long, long, long, long, unsigned))
#define GOMP_PARALLEL_LOOP_RUNTIME(X, kind, version)                                           \
    X(GOMP_parallel_loop_##kind, version, void,                                                \
      (void (*)(void *), void *, unsigned, long, long, long, unsigned))

#define GOMP_REAL_ENTRIES(X)                                                                   \
    X(GOMP_parallel, "GOMP_4.0", void, (void (*)(void *), void *, unsigned, unsigned))          \
    X(GOMP_parallel_reductions, "GOMP_5.0", unsigned,                                          \
      (void (*)(void *), void *, unsigned, unsigned))                                          \
    X(GOMP_teams_reg, "GOMP_5.0", void,                                                        \
      (void (*)(void *), void *, unsigned, unsigned, unsigned))                                \
    X(GOMP_parallel_sections, "GOMP_4.0", void,                                                \
      (void (*)(void *), void *, unsigned, unsigned, unsigned))                                \
    GOMP_PARALLEL_LOOP(X, static, "GOMP_4.0")                                                  \
    GOMP_PARALLEL_LOOP(X, dynamic, "GOMP_4.0")                                                 \
    GOMP_PARALLEL_LOOP(X, guided, "GOMP_4.0")                                                  \
    GOMP_PARALLEL_LOOP(X, nonmonotonic_dynamic, "GOMP_4.5")                                    \
    GOMP_PARALLEL_LOOP(X, nonmonotonic_guided, "GOMP_4.5")                                     \
    GOMP_PARALLEL_LOOP_RUNTIME(X, runtime, "GOMP_4.0")                                         \
    GOMP_PARALLEL_LOOP_RUNTIME(X, nonmonotonic_runtime, "GOMP_5.0")                            \
    GOMP_PARALLEL_LOOP_RUNTIME(X, maybe_nonmonotonic_runtime, "GOMP_5.0")                      \
    X(GOMP_barrier, "GOMP_1.0", void, (void))                                                  \
    X(GOMP_barrier_cancel, "GOMP_4.0", bool, (void))                                           \
    GOMP_LOOP_LONG(X, static, "GOMP_1.0")                                                      \
    GOMP_LOOP_LONG(X, dynamic, "GOMP_1.0")                                                     \
    GOMP_LOOP_LONG(X, guided, "GOMP_1.0")                                                      \
    GOMP_LOOP_LONG(X, nonmonotonic_dynamic, "GOMP_4.5")                                        \
    GOMP_LOOP_LONG(X, nonmonotonic_guided, "GOMP_4.5")                                         \
    GOMP_LOOP_LONG(X, ordered_static, "GOMP_1.0")                                              \
    GOMP_LOOP_LONG(X, ordered_dynamic, "GOMP_1.0")                                             \
    GOMP_LOOP_LONG(X, ordered_guided, "GOMP_1.0")                                              \
    GOMP_LOOP_LONG_RUNTIME(X, runtime, "GOMP_1.0")                                             \
    GOMP_LOOP_LONG_RUNTIME(X, nonmonotonic_runtime, "GOMP_5.0")                                \
    GOMP_LOOP_LONG_RUNTIME(X, maybe_nonmonotonic_runtime, "GOMP_5.0")                          \
    GOMP_LOOP_LONG_RUNTIME(X, ordered_runtime, "GOMP_1.0")                                     \
    GOMP_LOOP_ULL(X, static, "GOMP_2.0")                                                       \
    GOMP_LOOP_ULL(X, dynamic, "GOMP_2.0")                                                      \
    GOMP_LOOP_ULL(X, guided, "GOMP_2.0")                                                       \
    GOMP_LOOP_ULL(X, nonmonotonic_dynamic, "GOMP_4.5")                                         \
    GOMP_LOOP_ULL(X, nonmonotonic_guided, "GOMP_4.5")                                          \
    GOMP_LOOP_ULL_RUNTIME(X, runtime, "GOMP_2.0")                                              \
    GOMP_LOOP_ULL_RUNTIME(X, nonmonotonic_runtime, "GOMP_5.0")                                 \
    GOMP_LOOP_ULL_RUNTIME(X, maybe_nonmonotonic_runtime, "GOMP_5.0")                           \
    GOMP_LOOP_ULL(X, ordered_static, "GOMP_2.0")                                               \
    GOMP_LOOP_ULL(X, ordered_dynamic, "GOMP_2.0")                                              \
    GOMP_LOOP_ULL(X, ordered_guided, "GOMP_2.0")                                               \
    GOMP_LOOP_ULL_RUNTIME(X, ordered_runtime, "GOMP_2.0")                                      \
    X(GOMP_loop_start, "GOMP_5.0", bool,                                                       \
      (long, long, long, long, long, long *, long *, uintptr_t *, void **))                    \
    X(GOMP_loop_ordered_start, "GOMP_5.0", bool,                                               \
      (long, long, long, long, long, long *, long *, uintptr_t *, void **))                    \
    X(GOMP_loop_ull_start, "GOMP_5.0", bool,                                                   \
      (bool, gomp_ull, gomp_ull, gomp_ull, long, gomp_ull, gomp_ull *, gomp_ull *, uintptr_t *, \
       void **))                                                                               \
    X(GOMP_loop_ull_ordered_start, "GOMP_5.0", bool,                                           \
      (bool, gomp_ull, gomp_ull, gomp_ull, long, gomp_ull, gomp_ull *, gomp_ull *, uintptr_t *, \
       void **))                                                                               \
    GOMP_LOOP_DOACROSS(X, doacross_static, long)                                               \
    GOMP_LOOP_DOACROSS(X, doacross_dynamic, long)                                              \
    GOMP_LOOP_DOACROSS(X, doacross_guided, long)                                               \
    GOMP_LOOP_DOACROSS_RUNTIME(X, doacross_runtime, long)                                      \
    GOMP_LOOP_DOACROSS(X, ull_doacross_static, gomp_ull)                                       \
    GOMP_LOOP_DOACROSS(X, ull_doacross_dynamic, gomp_ull)                                      \
    GOMP_LOOP_DOACROSS(X, ull_doacross_guided, gomp_ull)                                       \
    GOMP_LOOP_DOACROSS_RUNTIME(X, ull_doacross_runtime, gomp_ull)                              \
    X(GOMP_loop_doacross_start, "GOMP_5.0", bool,                                              \
      (unsigned, long *, long, long, long *, long *, uintptr_t *, void **))                    \
    X(GOMP_loop_ull_doacross_start, "GOMP_5.0", bool,                                          \
      (unsigned, gomp_ull *, long, gomp_ull, gomp_ull *, gomp_ull *, uintptr_t *, void **))    \
    X(GOMP_doacross_post, "GOMP_4.5", void, (long *))                                          \
    X(GOMP_doacross_wait, "GOMP_4.5", void, (long, ...))                                       \
    X(GOMP_doacross_ull_post, "GOMP_4.5", void, (gomp_ull *))                                  \
    X(GOMP_doacross_ull_wait, "GOMP_4.5", void, (gomp_ull, ...))                               \
    X(GOMP_loop_end, "GOMP_1.0", void, (void))                                                 \
    X(GOMP_loop_end_nowait, "GOMP_1.0", void, (void))                                          \
    X(GOMP_loop_end_cancel, "GOMP_4.0", bool, (void))                                          \
    X(GOMP_sections_start, "GOMP_1.0", unsigned, (unsigned))                                   \
    X(GOMP_sections2_start, "GOMP_5.0", unsigned, (unsigned, uintptr_t *, void **))            \
    X(GOMP_single_start, "GOMP_1.0", bool, (void))                                             \
    X(GOMP_single_copy_start, "GOMP_1.0", void *, (void))                                      \
    X(GOMP_single_copy_end, "GOMP_1.0", void, (void *))                                        \
    X(GOMP_sections_end, "GOMP_1.0", void, (void))                                             \
    X(GOMP_sections_end_nowait, "GOMP_1.0", void, (void))                                      \
    X(GOMP_sections_end_cancel, "GOMP_4.0", bool, (void))                                      \
    X(GOMP_workshare_task_reduction_unregister, "GOMP_5.0", void, (bool))                      \
    X(GOMP_ordered_start, "GOMP_1.0", void, (void))                                            \
    X(GOMP_ordered_end, "GOMP_1.0", void, (void))                                              \
    X(GOMP_critical_start, "GOMP_1.0", void, (void))                                           \
    X(GOMP_critical_end, "GOMP_1.0", void, (void))                                             \
    X(GOMP_critical_name_start, "GOMP_1.0", void, (void **))                                   \
    X(GOMP_critical_name_end, "GOMP_1.0", void, (void **))                                     \
    X(GOMP_atomic_start, "GOMP_1.0", void, (void))                                             \
    X(GOMP_atomic_end, "GOMP_1.0", void, (void))                                               \
    X(GOMP_task, "GOMP_2.0", void,                                                             \
      (void (*)(void *), void *, void (*)(void *, void *), long, long, bool, unsigned,         \
       void **, int, void *))                                                                  \
    X(GOMP_taskloop, "GOMP_4.5", void,                                                         \
      (void (*)(void *), void *, void (*)(void *, void *), long, long, unsigned, unsigned long, \
       int, long, long, long))                                                                 \
    X(GOMP_taskloop_ull, "GOMP_4.5", void,                                                     \
      (void (*)(void *), void *, void (*)(void *, void *), long, long, unsigned, unsigned long, \
       int, gomp_ull, gomp_ull, gomp_ull))                                                     \
    X(GOMP_taskwait, "GOMP_2.0", void, (void))                                                 \
    X(GOMP_taskwait_depend, "GOMP_5.0", void, (void **))                                       \
    X(GOMP_taskgroup_end, "GOMP_4.0", void, (void))                                            \
    X(omp_set_lock, "OMP_3.0", void, (void *))                                                 \
    X(omp_set_nest_lock, "OMP_3.0", void, (void *))

/* Older versions of an entry point, which binaries built against an older
 * libgomp bind to: Y(C name, symbol, version, return type, parameter list).
 * The lock calls of OpenMP 2.5 (OMP_1.0): libgomp's take the old lock
 * layout (on Linux the plain lock is the same, the nest lock smaller). */
#define GOMP_REAL_COMPAT_ENTRIES(Y)                                                            \
    Y(omp_set_lock_10, "omp_set_lock", "OMP_1.0", void, (void *))                              \
    Y(omp_set_nest_lock_10, "omp_set_nest_lock", "OMP_1.0", void, (void *))

#define GOMP_REAL_DECLARE(name, version, ret, params) extern ret(*real_##name) params;
#define GOMP_REAL_COMPAT_DECLARE(name, symbol, version, ret, params)                           \
    GOMP_REAL_DECLARE(name, version, ret, params)
GOMP_REAL_ENTRIES(GOMP_REAL_DECLARE)
GOMP_REAL_COMPAT_ENTRIES(GOMP_REAL_COMPAT_DECLARE)
#undef GOMP_REAL_COMPAT_DECLARE
#undef GOMP_REAL_DECLARE

/* Resolves every pointer (dlvsym on RTLD_NEXT: the runtime after this
 * library). Idempotent; returns 0, or -1 if libgomp was not found. */
int gomp_real_resolve(void);
extern int gomp_real_resolved;

/* libgomp's definition of `name`, resolving them all first if needed. */
#define REAL(name) (__builtin_expect(gomp_real_resolved, 1) ? 0 : gomp_real_resolve(), real_##name)

#endif
