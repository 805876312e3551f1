/* Devices (OpenMP target offloading): what the runtime said about each device
 * (OMPT device_initialize/load/finalize, written by the OMPT bridge), and the
 * figures per device and per target region, summed after the run from the
 * device streams' columns of the merged profile (pomp_thread.h). */
#ifndef POMP_DEVICES_H
#define POMP_DEVICES_H

#include <stdint.h>
#include <stdio.h>

#include "pomp_clock.h"
#include "pomp_merge.h"

/* What a device did, one region type each (the CTC type of the bridge's regions). */
enum pomp_device_op {
    POMP_DEVICE_KERNEL,        /* a kernel launch (target submit) */
    POMP_DEVICE_TO,            /* transfer host -> device */
    POMP_DEVICE_FROM,          /* transfer device -> host */
    POMP_DEVICE_ALLOC,
    POMP_DEVICE_DELETE,
    POMP_DEVICE_ASSOCIATE,     /* omp_target_associate_ptr */
    POMP_DEVICE_DISASSOCIATE,
    POMP_DEVICE_OPS
};

/* "kernel", "transfer to device", ...; and back (-1 for any other type). */
const char *pomp_device_op_type(enum pomp_device_op op);
int pomp_device_op_of_type(const char *type);
/* The value an op's node records (pomp_values.h): teams for a kernel, bytes
 * for a transfer, alloc or associate, none (-1) for delete and disassociate. */
int pomp_device_op_value(enum pomp_device_op op);
/* The JSON key of an op: "kernels", "to_device", "from_device", "alloc", ... */
const char *pomp_device_op_key(enum pomp_device_op op);

enum { POMP_MAX_DEVICES = 64 };

/* How device times were taken, per device. */
enum pomp_device_timing {
    POMP_DEVICE_TIMING_HOST,    /* the host's clock at the callbacks around each operation */
    POMP_DEVICE_TIMING_DEVICE,  /* device trace records, translated to the host clock */
};

/* Called by the OMPT bridge outside the hot path (once per device and image). */
void pomp_device_initialized(int device, const char *type, enum pomp_device_timing timing,
                             const char *note);
void pomp_device_loaded(int device);
void pomp_device_finalized(int device);

/* profile.json's "devices" array (docs/output.md); nothing when no device was seen. */
void pomp_devices_write_json(FILE *f, const struct pomp_merged *m, const struct pomp_clock *clk);

/* One line per device that did anything, for the summary on stderr. */
void pomp_devices_summary(FILE *f, const struct pomp_merged *m, const struct pomp_clock *clk);

#endif
