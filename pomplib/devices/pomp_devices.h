/* Devices (OpenMP target offloading): what the runtime said about each device
 * (OMPT device_initialize/load/finalize, reported by the OMPT bridge). The
 * figures per device and per target region are summed after the run from the
 * device streams' columns of the merged profile (output/devices_output.c). */
#ifndef POMP_DEVICES_H
#define POMP_DEVICES_H

#include "pomp_device_ops.h"

struct pomp_run_device;

/* Called by the OMPT bridge outside the hot path (once per device and image). */
void pomp_device_initialized(int device, const char *type, enum pomp_device_timing timing,
                             const char *note);
void pomp_device_loaded(int device);
void pomp_device_finalized(int device);

/* After the run: what each device said (POMP_MAX_DEVICES entries), for the writers. */
void pomp_devices_snapshot(struct pomp_run_device *out);

#endif
