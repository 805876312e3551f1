/* JSON string literals, for every JSON file pomp writes (profile.json, the
 * trace definitions, trace.json) and for pomp-report's output. */
#ifndef POMP_JSON_H
#define POMP_JSON_H

#include <stdio.h>

/* s as a JSON string literal, NULL as "". '<' is escaped too, so that no
 * "</script>" ends a page that embeds the JSON (pomp-report --html). */
void pomp_json_string(FILE *f, const char *s);

#endif
