/* The collector API (seed 003) inside the bridge: __omp_collector_api's
 * requests (bridge_collector.c), and the events the bridge's OMPT callbacks
 * deliver to a registered collector. */
#ifndef POMP_BRIDGE_COLLECTOR_H
#define POMP_BRIDGE_COLLECTOR_H

#include <omp-tools.h>

#include "omp_collector_api.h"

/* Nonzero while a collector session runs, not paused, with a callback
 * registered: the one load each bridge callback pays for the collector API. */
extern int bridge_collector_live;

void bridge_collector_deliver(OMP_COLLECTORAPI_EVENT event);

/* Calls the collector's callback for event, on this thread, if it wants it. */
static inline void bridge_collector_event(OMP_COLLECTORAPI_EVENT event)
{
    if (__builtin_expect(__atomic_load_n(&bridge_collector_live, __ATOMIC_RELAXED), 0))
        bridge_collector_deliver(event);
}

/* The runtime started the tool; get_state is its state inquiry (may be NULL);
 * keep_states, the libgomp bridge's (NULL on libomp), asks it to keep the
 * states of mutex waits too, called when a session starts. */
void bridge_collector_tool_started(ompt_get_state_t get_state, void (*keep_states)(void));

/* bridge_tool.c: whether the OMPT tool runs, may still start (the runtime
 * initializes at its first use), or cannot (libgomp, POMP_OMPT=off, POMP off). */
enum { BRIDGE_TOOL_IMPOSSIBLE, BRIDGE_TOOL_NOT_YET, BRIDGE_TOOL_STARTED };
int bridge_tool_state(void);
/* Registers the bridge's callback for an OMPT event now, or when the tool starts. */
void bridge_tool_require(ompt_callbacks_t event);

#endif
