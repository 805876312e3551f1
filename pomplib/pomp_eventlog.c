#include "pomp_eventlog.h"

const char *pomp_event_name(enum pomp_event_kind k)
{
    static const char *const names[POMP_EV_COUNT] = {
        [POMP_EV_PARALLEL_ENTER] = "Parallel_enter", [POMP_EV_PARALLEL_BEGIN] = "Parallel_begin",
        [POMP_EV_PARALLEL_END] = "Parallel_end",     [POMP_EV_PARALLEL_EXIT] = "Parallel_exit",
        [POMP_EV_LOOP_ENTER] = "Loop_enter",         [POMP_EV_LOOP_EXIT] = "Loop_exit",
        [POMP_EV_SINGLE_ENTER] = "Single_enter",     [POMP_EV_SINGLE_BEGIN] = "Single_begin",
        [POMP_EV_SINGLE_END] = "Single_end",         [POMP_EV_SINGLE_EXIT] = "Single_exit",
        [POMP_EV_CRITICAL_ENTER] = "Critical_enter", [POMP_EV_CRITICAL_BEGIN] = "Critical_begin",
        [POMP_EV_CRITICAL_END] = "Critical_end",     [POMP_EV_CRITICAL_EXIT] = "Critical_exit",
        [POMP_EV_BARRIER_ENTER] = "Barrier_enter",   [POMP_EV_BARRIER_EXIT] = "Barrier_exit",
    };
    return (unsigned)k < POMP_EV_COUNT ? names[k] : "unknown";
}
