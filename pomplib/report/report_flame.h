/* pomp-report: the sampled call paths of a profile as one tree of functions,
 * for the HTML report's flame graph and the "sampling" member of --json. */
#ifndef REPORT_FLAME_H
#define REPORT_FLAME_H

#include <jansson.h>

/* The "sampling" member of the report's JSON (docs/output.md): the profile's
 * sampling figures and the tree ("flame"). JSON null when the profile has no
 * "sampling" member; NULL when out of memory. */
json_t *report_flame_json(json_t *profile_root);

#endif
