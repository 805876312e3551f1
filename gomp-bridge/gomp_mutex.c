/* Mutual exclusion in OMPT's terms: critical (named or not), atomic regions
 * GCC could not lower to an instruction, ordered, and lock waits: acquire before the
 * runtime's call, acquired after it, released right before the release (as
 * the instrumentation's end events: reported after it, the next holder's
 * acquisition could come first, and a trace showed two threads inside one
 * critical region, by up to 12 ms when the releasing thread was preempted) (the lock
 * calls also in their OpenMP 2.5 versions, OMP_1.0). Test locks
 * never wait and unset calls end nothing the tool measures: forwarded as
 * they are (not interposed at all). */
#include <stddef.h>

#include "gomp_bridge.h"

/* The one lock of unnamed critical regions (its wait id). */
static const char unnamed_critical;

/* Inlined into each wrapper, so that take is a direct call of libgomp's
 * function, not a call through two pointers. */
static inline __attribute__((always_inline)) void
acquire(ompt_mutex_t kind, int32_t state, ompt_wait_id_t id, const void *ra,
        void (*take)(void *), void *arg)
{
    ompt_callback_mutex_acquire_t before = GOMP_CB(mutex_acquire);
    if (before)
        before(kind, 0, 0, id, gomp_user_code(ra));
    struct gomp_thread_state *t = &gomp_tls;
    int32_t old = gomp_wait_begin(t, state, id);
    take(arg);
    gomp_wait_end(t, old);
    ompt_callback_mutex_t after = GOMP_CB_MUTEX(mutex_acquired);
    if (after)
        after(kind, id, gomp_user_code(ra));
}

static inline __attribute__((always_inline)) void released(ompt_mutex_t kind, ompt_wait_id_t id,
                                                           const void *ra)
{
    ompt_callback_mutex_t cb = GOMP_CB_MUTEX(mutex_released);
    if (cb)
        cb(kind, id, gomp_user_code(ra));
}

static inline void take_critical(void *arg)
{
    (void)arg;
    REAL(GOMP_critical_start)();
}

static inline void take_named_critical(void *pptr) { REAL(GOMP_critical_name_start)(pptr); }

static inline void take_atomic(void *arg)
{
    (void)arg;
    REAL(GOMP_atomic_start)();
}

static inline void take_ordered(void *arg)
{
    (void)arg;
    REAL(GOMP_ordered_start)();
}

static inline void take_lock(void *lock) { REAL(omp_set_lock)(lock); }
static inline void take_nest_lock(void *lock) { REAL(omp_set_nest_lock)(lock); }
static inline void take_lock_10(void *lock) { REAL(omp_set_lock_10)(lock); }
static inline void take_nest_lock_10(void *lock) { REAL(omp_set_nest_lock_10)(lock); }

/* The wrapper of a call that takes a mutex: libgomp's call, straight away
 * (a tail call through the resolved pointer) where the one load of
 * gomp_mutex_path says so; else, in a function of its own so that the
 * forwarding path saves no register, the tool is started if it was not, and
 * the wait reported (acquire) while mutexes are watched. id: the wait id, an
 * expression of a, the argument take gets. */
#define TAKE(name, param, arg, kind, state, id, take, take_arg)                                 \
    static __attribute__((noinline)) void name##_decide(void *a, const void *ra)                \
    {                                                                                           \
        if (!gomp_mutexes_watched())                                                            \
            take(a);                                                                            \
        else                                                                                    \
            acquire(kind, state, (ompt_wait_id_t)(uintptr_t)(id), ra, take, a);                 \
    }                                                                                           \
    GOMP_EXPORT void name(param)                                                                \
    {                                                                                           \
        if (__builtin_expect(__atomic_load_n(&gomp_mutex_path, __ATOMIC_RELAXED) ==             \
                                 GOMP_MUTEX_FORWARD,                                            \
                             1))                                                                \
            real_##name(arg);                                                                   \
        else                                                                                    \
            name##_decide(take_arg, __builtin_return_address(0));                               \
    }
/* ... and of the call that releases it (id: of a, which is id_arg). */
#define GIVE(name, param, arg, kind, id, id_arg)                                               \
    static __attribute__((noinline)) void name##_watched(void *a, const void *ra)               \
    {                                                                                           \
        (void)a;                                                                                \
        if (gomp_mutexes_watched())                                                             \
            released(kind, (ompt_wait_id_t)(uintptr_t)(id), ra);                                \
    }                                                                                           \
    GOMP_EXPORT void name(param)                                                                \
    {                                                                                           \
        if (__builtin_expect(__atomic_load_n(&gomp_mutex_path, __ATOMIC_RELAXED) ==             \
                                 GOMP_MUTEX_FORWARD,                                            \
                             1)) {                                                              \
            real_##name(arg);                                                                   \
            return;                                                                             \
        }                                                                                       \
        name##_watched(id_arg, __builtin_return_address(0));                                    \
        REAL(name)(arg);                                                                        \
    }
#define NO_ARG
TAKE(GOMP_critical_start, void, NO_ARG, ompt_mutex_critical, ompt_state_wait_critical,
     &unnamed_critical, take_critical, NULL)
GIVE(GOMP_critical_end, void, NO_ARG, ompt_mutex_critical, &unnamed_critical, NULL)
TAKE(GOMP_critical_name_start, void **pptr, pptr, ompt_mutex_critical, ompt_state_wait_critical,
     a, take_named_critical, pptr)
GIVE(GOMP_critical_name_end, void **pptr, pptr, ompt_mutex_critical, a, pptr)
TAKE(GOMP_atomic_start, void, NO_ARG, ompt_mutex_atomic, ompt_state_wait_atomic, 0, take_atomic,
     NULL)
GIVE(GOMP_atomic_end, void, NO_ARG, ompt_mutex_atomic, 0, NULL)
/* ordered: a mutex per task (the wait id: the encountering task's data) */
TAKE(GOMP_ordered_start, void, NO_ARG, ompt_mutex_ordered, ompt_state_wait_ordered, gomp_tls.task,
     take_ordered, NULL)
GIVE(GOMP_ordered_end, void, NO_ARG, ompt_mutex_ordered, gomp_tls.task, NULL)
TAKE(omp_set_lock, void *lock, lock, ompt_mutex_lock, ompt_state_wait_lock, a, take_lock, lock)
TAKE(omp_set_nest_lock, void *lock, lock, ompt_mutex_nest_lock, ompt_state_wait_lock, a,
     take_nest_lock, lock)

/* The OpenMP 2.5 lock calls (OMP_1.0), which binaries built against an older
 * libgomp bind to: the same waits, the lock's address as the wait id (the
 * lock, of the old layout, stays libgomp's business). */
__asm__(".symver omp_set_lock_10, omp_set_lock@OMP_1.0");
__asm__(".symver omp_set_nest_lock_10, omp_set_nest_lock@OMP_1.0");
TAKE(omp_set_lock_10, void *lock, lock, ompt_mutex_lock, ompt_state_wait_lock, a, take_lock_10,
     lock)
TAKE(omp_set_nest_lock_10, void *lock, lock, ompt_mutex_nest_lock, ompt_state_wait_lock, a,
     take_nest_lock_10, lock)
