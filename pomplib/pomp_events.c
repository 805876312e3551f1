/* The POMP event routines (seed 002, Appendix C). Each resolves its handle,
 * takes a raw timestamp and updates the calling thread's own profile (and event
 * log): no lock, no allocation, no system call on this path. */
#include <pomplib.h>

#include "pomp_clock.h"
#include "pomp_control.h"
#include "pomp_eventlog.h"
#include "pomp_profile.h"
#include "pomp_region.h"
#include "pomp_thread.h"

enum pomp_phase { PHASE_ENTER, PHASE_BEGIN, PHASE_END, PHASE_EXIT };

/* The first event of a construct (enter) gets the handle's address and may
 * initialize it from ctc; the later ones get the handle itself. */
static inline __attribute__((always_inline)) int32_t
record(POMP_Handle_t *handle_ptr, POMP_Handle_t handle, const char *ctc, int32_t thread_id,
       enum pomp_phase phase, enum pomp_event_kind kind)
{
    int32_t rc = POMP_SUCCESS;
    int first = phase == PHASE_ENTER;
    struct POMP_Region_s *r = first ? pomp_region_resolve(handle_ptr, ctc, &rc) : handle;
    if (__builtin_expect(r == NULL, 0))
        return first ? rc : POMP_ERR_NO_CONTEXT;
    if (__builtin_expect(!__atomic_load_n(&pomp_recording, __ATOMIC_RELAXED), 0))
        return POMP_ERR_FINALIZED;
    struct pomp_thread *t = pomp_thread_self(thread_id);
    if (__builtin_expect(t == NULL, 0))
        return POMP_ERR_NO_MEMORY;
    uint64_t now = pomp_now();
    int32_t prc;
    switch (phase) {
    case PHASE_ENTER: prc = pomp_profile_enter(&t->profile, r, now); break;
    case PHASE_BEGIN: prc = pomp_profile_begin(&t->profile, r, now); break;
    case PHASE_END: prc = pomp_profile_end(&t->profile, r, now); break;
    default: prc = pomp_profile_exit(&t->profile, r, now); break;
    }
    if (t->log.buf)
        pomp_eventlog_put(&t->log, now, r->id, kind);
    return rc != POMP_SUCCESS ? rc : prc;
}

/* Parallel group. num_threads and if_expr_result are RTC values of seed 002 §3.3. */
int32_t POMP_Parallel_enter(POMP_Handle_t *handle, int32_t thread_id, int32_t num_threads,
                            int32_t if_expr_result, const char ctc[])
{
    (void)num_threads;
    (void)if_expr_result;
    return record(handle, NULL, ctc, thread_id, PHASE_ENTER, POMP_EV_PARALLEL_ENTER);
}
int32_t POMP_Parallel_begin(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_BEGIN, POMP_EV_PARALLEL_BEGIN);
}
int32_t POMP_Parallel_end(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_END, POMP_EV_PARALLEL_END);
}
int32_t POMP_Parallel_exit(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_EXIT, POMP_EV_PARALLEL_EXIT);
}

/* Loop group. */
int32_t POMP_Loop_enter(POMP_Handle_t *handle, int32_t thread_id, int64_t chunk_size,
                        int64_t init_iter, int64_t final_iter, int64_t incr, const char ctc[])
{
    (void)chunk_size;
    (void)init_iter;
    (void)final_iter;
    (void)incr;
    return record(handle, NULL, ctc, thread_id, PHASE_ENTER, POMP_EV_LOOP_ENTER);
}
int32_t POMP_Loop_exit(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_EXIT, POMP_EV_LOOP_EXIT);
}

/* Workshare group: single. */
int32_t POMP_Single_enter(POMP_Handle_t *handle, int32_t thread_id, const char ctc[])
{
    return record(handle, NULL, ctc, thread_id, PHASE_ENTER, POMP_EV_SINGLE_ENTER);
}
int32_t POMP_Single_begin(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_BEGIN, POMP_EV_SINGLE_BEGIN);
}
int32_t POMP_Single_end(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_END, POMP_EV_SINGLE_END);
}
int32_t POMP_Single_exit(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_EXIT, POMP_EV_SINGLE_EXIT);
}

/* Sync group: critical and barrier. */
int32_t POMP_Critical_enter(POMP_Handle_t *handle, int32_t thread_id, const char ctc[])
{
    return record(handle, NULL, ctc, thread_id, PHASE_ENTER, POMP_EV_CRITICAL_ENTER);
}
int32_t POMP_Critical_begin(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_BEGIN, POMP_EV_CRITICAL_BEGIN);
}
int32_t POMP_Critical_end(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_END, POMP_EV_CRITICAL_END);
}
int32_t POMP_Critical_exit(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_EXIT, POMP_EV_CRITICAL_EXIT);
}
int32_t POMP_Barrier_enter(POMP_Handle_t *handle, int32_t thread_id, const char ctc[])
{
    return record(handle, NULL, ctc, thread_id, PHASE_ENTER, POMP_EV_BARRIER_ENTER);
}
int32_t POMP_Barrier_exit(POMP_Handle_t handle, int32_t thread_id)
{
    return record(NULL, handle, NULL, thread_id, PHASE_EXIT, POMP_EV_BARRIER_EXIT);
}
