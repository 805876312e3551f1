/* pomp-report: the devices section of a profile (target offloading). */
#ifndef REPORT_DEVICES_H
#define REPORT_DEVICES_H

#include "report_data.h"

/* Prints, per device, its kernels and data operations (count, bytes, time)
 * and the same per target region; nothing when the profile has no "devices". */
void report_devices(const struct rp_profile *p);

/* Checks the profile's (root, read from path) "devices", if any: each device
 * a whole number, its "total" and each region's operations objects whose
 * count, ns, bytes and teams_max are whole numbers from 0 to 2^53 (count and
 * ns there), each region's "region" there. Returns 0, or -1 after saying the
 * first that is not so and its byte offset. */
int rp_devices_check(const char *path, json_t *root);

#endif
