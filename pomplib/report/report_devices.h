/* pomp-report: the devices section of a profile (target offloading). */
#ifndef REPORT_DEVICES_H
#define REPORT_DEVICES_H

#include "report_data.h"

/* Prints, per device, its kernels and data operations (count, bytes, time)
 * and the same per target region; nothing when the profile has no "devices". */
void report_devices(const struct rp_profile *p);

#endif
