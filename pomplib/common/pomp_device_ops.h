/* What a device does (OpenMP target offloading), as the bridges record it and
 * the writers sum it: one region type per operation, and how device times
 * were taken. */
#ifndef POMP_DEVICE_OPS_H
#define POMP_DEVICE_OPS_H

#include <stdint.h>

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

/* host_thread of a device's own trace stream (OMPT device tracing): the
 * device's records, with device times, of whichever thread issued them */
#define POMP_STREAM_DEVICE_TRACE UINT32_MAX

#endif
