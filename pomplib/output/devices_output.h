/* Devices in the output: profile.json's "devices" array and the summary's
 * line per device (docs/output.md, docs/devices.md). */
#ifndef POMP_DEVICES_OUTPUT_H
#define POMP_DEVICES_OUTPUT_H

#include <stdio.h>

#include "pomp_run.h"

/* profile.json's "devices" array; nothing when no device was seen. */
void pomp_devices_write_json(FILE *f, const struct pomp_run *run);

/* One line per device that did anything, for the summary on stderr. */
void pomp_devices_summary(FILE *f, const struct pomp_run *run);

#endif
