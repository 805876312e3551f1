#include "pomp_eventlog.h"

const char *pomp_event_name(enum pomp_event_kind k)
{
#define POMP_EVENT_NAME(id, name) [POMP_EV_##id] = #name,
    static const char *const names[POMP_EV_COUNT] = {
        POMP_EVENT_LIST(POMP_EVENT_NAME) POMP_OMPT_EVENT_LIST(POMP_EVENT_NAME)};
#undef POMP_EVENT_NAME
    return (unsigned)k < POMP_EV_COUNT ? names[k] : "unknown";
}
