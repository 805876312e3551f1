/* Library life cycle: initialization (explicit through POMP_Init or automatic
 * at the first event), and finalization (POMP_Finalize, or at exit). */
#ifndef POMP_CONTROL_H
#define POMP_CONTROL_H

#include <stdint.h>
#include <sys/types.h>

#include "pomp_clock.h"
#include "pomp_config.h"

/* The measurement state, read on every event. */
enum pomp_state {
    POMP_STATE_UNINITIALIZED = 0, /* events wait for initialization */
    POMP_STATE_ON = 1,
    POMP_STATE_OFF = 2,           /* POMP_Off: regions open before it still close */
    POMP_STATE_DISABLED = 3,      /* POMP_ENABLE=off: events return at once, nothing is written */
    POMP_STATE_STOPPED = 4,       /* finalized, or in a fork()ed child: for good */
};
extern int pomp_state;

/* Set on the thread that finalizes, while the sources' finalize hooks close
 * what the runtime left open: the one writer allowed after the stop. */
extern __thread int pomp_tls_finalizing __attribute__((tls_model("initial-exec")));

/* This process's id, kept from the library's load on (and set afresh in a
 * fork()ed child) so that a thread's first event asks the kernel nothing. */
pid_t pomp_own_pid(void);

/* Initializes the library once and runs the prelinker's POMP_Init_Handles. */
void pomp_ensure_initialized(void);
/* Initializes the library once, without POMP_Init_Handles (for POMP_Get_handle,
 * which POMP_Init_Handles itself calls). */
void pomp_ensure_core_initialized(void);

/* Finalizes once: stops recording and writes the output. Returns POMP_SUCCESS
 * for the call that finalized; later calls wait for it and return
 * POMP_ERR_FINALIZED. Also run at exit and on SIGINT/SIGTERM. */
int32_t pomp_finalize(void);
/* Switches between POMP_STATE_ON and POMP_STATE_OFF (POMP_On/Off); STOPPED is
 * final (POMP_ERR_FINALIZED). */
int32_t pomp_switch_to(enum pomp_state to);
/* How often measurement was paused (POMP_Off) and for how long in all, in
 * clock ticks (a pause still open at the end counts to the end). */
void pomp_paused(uint64_t *ticks, uint32_t *times);

/* An event came after the stop: a fork()ed child's first (of a measuring
 * parent) says, once, that the child is not measured. Cold. */
void pomp_note_event_after_stop(void) __attribute__((cold));
/* A construct or POMP region began (ctc: its CTC string, or NULL) after the
 * output was written at the program's exit, on the thread that ran the exit:
 * in an exit handler run after pomp's (one registered before libpomp was
 * loaded: a host that dlopens an instrumented library). Says so, once. Cold. */
void pomp_note_construct_after_exit(const char *ctc) __attribute__((cold));

/* Taskwaits in final tasks, and those of tasks that deferred no child, are
 * no longer counted inline (POMP_Fast_waited), for the rest of the run: one
 * may wait (a task construct with a detach
 * clause, a target task exists), or a bridge measures the runtime's own
 * taskwaits. No lock taken. */
void pomp_fast_final_waits_stop(void);
/* A bridge that sees every task creation (and clears POMP_Fast_children_done
 * at each deferred one) allows the taskwaits of tasks that deferred none to
 * be counted inline (POMP_FAST_DONE_WAITS); an untied task stops that for
 * good. Idempotent, no lock. */
void pomp_fast_done_waits_allow(void);
void pomp_fast_done_waits_stop(void);

/* A bridge follows the runtime's lock waits (lock calls left to the runtime,
 * POMP_OMPT=full): from then on a throttled lock set site of an object
 * instrumented before sites marked their counted calls (POMP_Set_lock_exit_slow)
 * keeps making its calls, untimed, rather than being counted inline, so that
 * the wait the bridge reports stays under the call's node (a marked site's
 * counted calls the bridge leaves alone: pomp_fast_lock_counted). A counter offered before stays (the bridge starts with the runtime,
 * before any lock call returns; a collector's session started later may meet
 * such counters: docs/api.md). No lock taken. */
void pomp_fast_lock_waits_followed(void);
int pomp_fast_lock_sets_allowed(void);
/* Whether the calling thread is inside a lock set call counted inline (its
 * inserted code's mark, POMP_Fast_lock_mark in pomplib.h): the acquisition
 * the runtime reports now is that call's. */
extern __thread int POMP_Fast_lock_counted __attribute__((tls_model("initial-exec")));
static inline int pomp_fast_lock_counted(void) { return POMP_Fast_lock_counted; }

const struct pomp_config *pomp_config(void);
const struct pomp_clock *pomp_clock(void);

#endif
