/* OMPT device tracing (bridge_device_trace.c): started for a device at its
 * device_initialize callback where the runtime offers the entry points, and
 * a clear note in the output where it does not. */
#ifndef POMP_BRIDGE_DEVICE_H
#define POMP_BRIDGE_DEVICE_H

#include <omp-tools.h>
#include <stdint.h>

struct pomp_thread;
struct pomp_node;
struct POMP_Region_s;

/* Opens r on device stream s at `now`: the stream's share of the host's node
 * `fork` when the stream has nothing open (it merges there), else inside what
 * is open; logged as `kind` with arg. Only the stream's one writer calls it. */
void bridge_stream_open(struct pomp_thread *s, struct POMP_Region_s *r, const struct pomp_node *fork,
                        uint64_t now, unsigned kind, uint64_t arg);
/* Closes r on stream s; value_kind >= 0 records value (bytes, teams) on its node first. */
void bridge_stream_close(struct pomp_thread *s, struct POMP_Region_s *r, uint64_t now, unsigned kind,
                         int value_kind, int64_t value);

/* Looks up the device's tracing entry points; starts tracing (POMP_DEVICE_TRACING,
 * default on) when all are there, and tells pomp_devices.c how the device's
 * times are taken. */
void bridge_device_trace_start(int device_num, const char *type, ompt_device_t *device,
                               ompt_function_lookup_t lookup);

/* Has every traced device hand over its buffered records (before finalization stops recording). */
void bridge_device_trace_flush_all(void);

/* The pomp_device_op of an OMPT data operation (async kinds included), -1 for others. */
int bridge_device_data_op(ompt_target_data_op_t optype);

/* Flushes and stops the device's trace (its device_finalize callback). */
void bridge_device_trace_stop(int device_num);

#endif
