/* pomp-report --json: the report's figures as one JSON document (format
 * "pomp-report", docs/output.md); the HTML report embeds the same document. */
#ifndef POMP_REPORT_JSON_H
#define POMP_REPORT_JSON_H

#include <jansson.h>

#include "report_data.h"

/* A new reference, or NULL when out of memory. */
json_t *report_json(const struct rp_profile *p);

#endif
