#include "pomp_event.h"

const char *pomp_event_name(unsigned kind)
{
#define POMP_EVENT_NAME(id, name) [POMP_EV_##id] = #name,
    static const char *const names[POMP_EV_COUNT] = {
        POMP_EVENT_LIST(POMP_EVENT_NAME) POMP_OMPT_EVENT_LIST(POMP_EVENT_NAME)};
#undef POMP_EVENT_NAME
    if (kind < POMP_EV_COUNT)
        return names[kind];
    if (kind == POMP_EV_TRACE_FLUSH)
        return "pomp_flush";
    if (kind == POMP_EV_TRACE_GAP)
        return "pomp_gap";
    return "unknown";
}
