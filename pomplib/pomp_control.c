/* POMP_Init, POMP_Finalize, POMP_Get_handle and the library's life cycle. */
#include "pomp_control.h"

#include <pomplib.h>
#include <pthread.h>
#include <stdlib.h>

#include "pomp_levels.h"
#include "pomp_output.h"
#include "pomp_region.h"

int pomp_state;

/* Set once by init_core, read-only afterwards. */
static struct pomp_config config;
static struct pomp_clock clock_state;
static pthread_once_t core_once = PTHREAD_ONCE_INIT;
static pthread_once_t handles_once = PTHREAD_ONCE_INIT;
static pthread_once_t finalize_once = PTHREAD_ONCE_INIT;

/* Written by pomp-prelink (Appendix B); absent when the program was linked without it. */
extern void POMP_Init_Handles(void) __attribute__((weak));

static void finalize_at_exit(void) { POMP_Finalize(); }

static void init_core(void)
{
    pomp_config_read(&config);
    pomp_levels_read_environment();
    pomp_clock_init(&clock_state);
    atexit(finalize_at_exit);
    __atomic_store_n(&pomp_state, POMP_STATE_ON, __ATOMIC_RELEASE);
}

static void init_handles(void)
{
    if (POMP_Init_Handles)
        POMP_Init_Handles();
}

void pomp_ensure_core_initialized(void) { pthread_once(&core_once, init_core); }

void pomp_ensure_initialized(void)
{
    pthread_once(&core_once, init_core);
    pthread_once(&handles_once, init_handles);
}

const struct pomp_config *pomp_config(void) { return &config; }
const struct pomp_clock *pomp_clock(void) { return &clock_state; }

int32_t POMP_Init(void)
{
    pomp_ensure_initialized();
    return POMP_SUCCESS;
}

static void finalize_once_fn(void)
{
    pomp_ensure_core_initialized();
    __atomic_store_n(&pomp_state, POMP_STATE_STOPPED, __ATOMIC_RELEASE);
    pomp_clock_calibrate(&clock_state);
    pomp_output_write(&config, &clock_state);
}

int32_t POMP_Finalize(void)
{
    static int claimed; /* the first caller finalizes; later ones wait for it */
    int first = !__atomic_exchange_n(&claimed, 1, __ATOMIC_ACQ_REL);
    pthread_once(&finalize_once, finalize_once_fn);
    return first ? POMP_SUCCESS : POMP_ERR_FINALIZED;
}

int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[])
{
    pomp_ensure_core_initialized();
    return pomp_region_get_handle(handle, ctc, POMP_INIT_HANDLE);
}

/* Switches between ON and OFF; finalization (STOPPED) is final. */
static POMP_Int32 switch_to(int to)
{
    pomp_ensure_initialized();
    int from = __atomic_load_n(&pomp_state, __ATOMIC_ACQUIRE);
    while (from != POMP_STATE_STOPPED)
        if (__atomic_compare_exchange_n(&pomp_state, &from, to, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            return POMP_SUCCESS;
    return POMP_ERR_FINALIZED;
}

POMP_Int32 POMP_On(void) { return switch_to(POMP_STATE_ON); }
POMP_Int32 POMP_Off(void) { return switch_to(POMP_STATE_OFF); }
