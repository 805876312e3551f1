/* The core's one interface for event sources: the POMP routines
 * (pomplib/events/) and the runtime bridges (ompt-bridge/, and those to come)
 * include this header and no other of the core (make check-layers).
 *
 * What a source does with an event (docs/architecture.md, "one event's walk"):
 *   pomp_level_wants(group, levels)     is the event's group recorded? (pomp_levels.h)
 *   pomp_state                          measurement on, off or stopped (pomp_control.h)
 *   pomp_region_resolve / _get_handle   the region (pomp_region.h)
 *   pomp_thread_self(tid)               the calling thread's record (pomp_thread.h)
 *   pomp_now()                          a raw timestamp (pomp_clock.h)
 *   pomp_thread_record(...)             the event on the thread's profile and trace
 *   pomp_thread_leaf_open/_close        a runtime's wait without a frame (profile only)
 *   pomp_values_add(...)                values with it (pomp_values.h)
 * and, outside the hot path: pomp_source_register (finalization hooks,
 * pomp_sources.h), pomp_device_* (what the runtime said about devices,
 * pomp_devices.h), pomp_sampling_* (the runtime's inquiry functions and
 * thread start/stop for sampling, pomp_sampling.h), pomp_config(),
 * pomp_fast_final_waits_stop() (a bridge measures the runtime's taskwaits,
 * pomp_control.h), pomp_fast_lock_waits_followed() (a bridge follows the
 * runtime's lock waits). */
#ifndef POMP_RECORD_H
#define POMP_RECORD_H

#include "pomp_clock.h"
#include "pomp_config.h"
#include "pomp_control.h"
#include "pomp_devices.h"
#include "pomp_eventlog.h"
#include "pomp_levels.h"
#include "pomp_profile.h"
#include "pomp_region.h"
#include "pomp_sampling.h"
#include "pomp_sources.h"
#include "pomp_thread.h"
#include "pomp_values.h"

#endif
