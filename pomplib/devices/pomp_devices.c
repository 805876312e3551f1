/* The device registry: what the runtime said about each device, from the
 * OMPT bridge's device callbacks, handed to the writers with the run. */
#include "pomp_devices.h"
#include "pomp_run.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* What the runtime told about each device; written at its callbacks (rare,
 * under the lock), read at finalization. */
static pthread_mutex_t devices_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pomp_run_device devices[POMP_MAX_DEVICES];

void pomp_device_initialized(int device, const char *type, enum pomp_device_timing timing,
                             const char *note)
{
    if (device < 0 || device >= POMP_MAX_DEVICES)
        return;
    pthread_mutex_lock(&devices_lock);
    struct pomp_run_device *d = &devices[device];
    d->initialized = 1;
    snprintf(d->type, sizeof d->type, "%s", type ? type : "");
    d->timing = timing;
    snprintf(d->note, sizeof d->note, "%s", note ? note : "");
    pthread_mutex_unlock(&devices_lock);
}

void pomp_device_loaded(int device)
{
    if (device < 0 || device >= POMP_MAX_DEVICES)
        return;
    pthread_mutex_lock(&devices_lock);
    devices[device].modules++;
    pthread_mutex_unlock(&devices_lock);
}

void pomp_device_finalized(int device)
{
    if (device < 0 || device >= POMP_MAX_DEVICES)
        return;
    pthread_mutex_lock(&devices_lock);
    devices[device].finalized = 1;
    pthread_mutex_unlock(&devices_lock);
}

void pomp_devices_snapshot(struct pomp_run_device *out)
{
    pthread_mutex_lock(&devices_lock);
    memcpy(out, devices, sizeof devices);
    pthread_mutex_unlock(&devices_lock);
}
