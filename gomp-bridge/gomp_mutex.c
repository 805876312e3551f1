/* Mutual exclusion in OMPT's terms: critical (named or not), atomic regions
 * GCC could not lower to an instruction, and lock waits: acquire before the
 * runtime's call, acquired after it, released after the release. Test locks
 * never wait and unset calls end nothing the tool measures: forwarded as
 * they are (not interposed at all). */
#include "gomp_bridge.h"

/* The one lock of unnamed critical regions (its wait id). */
static const char unnamed_critical;

static void acquire(ompt_mutex_t kind, int32_t state, ompt_wait_id_t id, const void *codeptr,
                    void (*take)(void *), void *arg)
{
    ompt_callback_mutex_acquire_t before = GOMP_CB(mutex_acquire);
    if (before)
        before(kind, 0, 0, id, codeptr);
    struct gomp_thread_state *t = &gomp_tls;
    int32_t old = gomp_wait_begin(t, state, id);
    take(arg);
    gomp_wait_end(t, old);
    ompt_callback_mutex_t after = GOMP_CB(mutex_acquired);
    if (after)
        after(kind, id, codeptr);
}

static void released(ompt_mutex_t kind, ompt_wait_id_t id, const void *codeptr)
{
    ompt_callback_mutex_t cb = GOMP_CB(mutex_released);
    if (cb)
        cb(kind, id, codeptr);
}

static void take_critical(void *arg)
{
    (void)arg;
    REAL(GOMP_critical_start)();
}

static void take_named_critical(void *pptr) { REAL(GOMP_critical_name_start)(pptr); }

static void take_atomic(void *arg)
{
    (void)arg;
    REAL(GOMP_atomic_start)();
}

static void take_lock(void *lock) { REAL(omp_set_lock)(lock); }
static void take_nest_lock(void *lock) { REAL(omp_set_nest_lock)(lock); }

static inline int mutexes_followed(void) { return GOMP_ACTIVE(); }

GOMP_EXPORT void GOMP_critical_start(void)
{
    if (!mutexes_followed())
        REAL(GOMP_critical_start)();
    else
        acquire(ompt_mutex_critical, ompt_state_wait_critical,
                (ompt_wait_id_t)(uintptr_t)&unnamed_critical, GOMP_CALLER(), take_critical, NULL);
}

GOMP_EXPORT void GOMP_critical_end(void)
{
    REAL(GOMP_critical_end)();
    if (mutexes_followed())
        released(ompt_mutex_critical, (ompt_wait_id_t)(uintptr_t)&unnamed_critical,
                 GOMP_CALLER());
}

GOMP_EXPORT void GOMP_critical_name_start(void **pptr)
{
    if (!mutexes_followed())
        REAL(GOMP_critical_name_start)(pptr);
    else
        acquire(ompt_mutex_critical, ompt_state_wait_critical, (ompt_wait_id_t)(uintptr_t)pptr,
                GOMP_CALLER(), take_named_critical, pptr);
}

GOMP_EXPORT void GOMP_critical_name_end(void **pptr)
{
    REAL(GOMP_critical_name_end)(pptr);
    if (mutexes_followed())
        released(ompt_mutex_critical, (ompt_wait_id_t)(uintptr_t)pptr, GOMP_CALLER());
}

GOMP_EXPORT void GOMP_atomic_start(void)
{
    if (!mutexes_followed())
        REAL(GOMP_atomic_start)();
    else
        acquire(ompt_mutex_atomic, ompt_state_wait_atomic, 0, GOMP_CALLER(), take_atomic, NULL);
}

GOMP_EXPORT void GOMP_atomic_end(void)
{
    REAL(GOMP_atomic_end)();
    if (mutexes_followed())
        released(ompt_mutex_atomic, 0, GOMP_CALLER());
}

GOMP_EXPORT void omp_set_lock(void *lock)
{
    if (!mutexes_followed())
        REAL(omp_set_lock)(lock);
    else
        acquire(ompt_mutex_lock, ompt_state_wait_lock, (ompt_wait_id_t)(uintptr_t)lock,
                GOMP_CALLER(), take_lock, lock);
}

GOMP_EXPORT void omp_set_nest_lock(void *lock)
{
    if (!mutexes_followed())
        REAL(omp_set_nest_lock)(lock);
    else
        acquire(ompt_mutex_nest_lock, ompt_state_wait_lock, (ompt_wait_id_t)(uintptr_t)lock,
                GOMP_CALLER(), take_nest_lock, lock);
}
